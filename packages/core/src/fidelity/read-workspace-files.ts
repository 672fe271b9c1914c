import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { RehydratedFile } from './rehydration.js';

export interface ReadWorkspaceFilesOptions {
  /** The folder the agent works in; a path outside it is not read. */
  cwd: string;
  /** Files larger than this are not read (default 256 KiB). */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

/**
 * Reads the files a compaction asks to re-offer, for an agent host's
 * `rehydrate` tap: only regular text files inside `cwd` (after following
 * links), under `maxBytes`. A path that cannot be read is left out, never an error.
 */
export async function readWorkspaceFiles(
  paths: readonly string[],
  options: ReadWorkspaceFilesOptions,
): Promise<RehydratedFile[]> {
  const root = await realpath(options.cwd).catch(() => resolve(options.cwd));
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const files: RehydratedFile[] = [];
  for (const path of paths) {
    const content = await readInside(root, path, maxBytes);
    if (content !== undefined) files.push({ path, content });
  }
  return files;
}

async function readInside(root: string, path: string, maxBytes: number): Promise<string | undefined> {
  try {
    const real = await realpath(isAbsolute(path) ? path : resolve(root, path));
    const inside = relative(root, real);
    if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
    const info = await stat(real);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const content = await readFile(real, 'utf8');
    return content.includes('\u0000') ? undefined : content;
  } catch {
    return undefined;
  }
}
