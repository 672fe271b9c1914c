import { lstat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { readWorkspaceFiles, type RehydratedFile } from '@ctxhost/core';

/**
 * The files a compaction asks to offer again, as they are in opencode's
 * project directory now (core's `readWorkspaceFiles`: text files inside the
 * directory, links followed and checked). A path inside the directory that no
 * longer exists is marked `gone`, so the model is told rather than left with
 * its memory of it; a path outside the directory is never read or named.
 * Paths are shown relative to the directory.
 */
export async function readProjectFiles(directory: string, paths: readonly string[]): Promise<RehydratedFile[]> {
  const inside = paths.flatMap((path) => {
    const shown = insideDirectory(directory, path);
    return shown === undefined ? [] : [{ path, shown }];
  });
  const read = new Map(
    (
      await readWorkspaceFiles(
        inside.map(({ path }) => path),
        { cwd: directory },
      )
    ).map((file) => [file.path, file.content]),
  );
  const files: RehydratedFile[] = [];
  for (const { path, shown } of inside) {
    const content = read.get(path);
    if (content !== undefined) files.push({ path: shown, content });
    else if (await isMissing(resolve(directory, path))) files.push({ path: shown, content: '', gone: true });
  }
  return files;
}

/** The path relative to `directory`, or undefined when it points outside it (before links are followed). */
function insideDirectory(directory: string, path: string): string | undefined {
  const relativePath = relative(resolve(directory), resolve(directory, path));
  if (relativePath === '' || relativePath === '..' || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath))
    return undefined;
  return relativePath;
}

async function isMissing(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
