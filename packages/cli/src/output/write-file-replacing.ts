import { randomUUID } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` to `path` through a new file in the same folder renamed
 * over it: a symlink planted at `path` is replaced, never followed, so the
 * write cannot land in a file the link points to (`ctxhost demo` writes its
 * report in the current folder, which may be someone else's checkout).
 */
export async function writeFileReplacing(path: string, content: string): Promise<void> {
  const draft = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    await writeFile(draft, content, { flag: 'wx' });
    await rename(draft, path);
  } catch (error) {
    await unlink(draft).catch(() => undefined);
    throw error;
  }
}
