import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { assertCacheEntry, entryHead } from './cache-entry.js';
import type { CacheEntry, CacheEntryHead, SessionStore } from './session-store.js';

export type FileEntries = Required<Pick<SessionStore, 'putEntry' | 'getEntry' | 'entryHeads'>>;

/**
 * The file store's content-addressed entries, in `<directory>/entries/`: each body in `by-key/<key>.json`,
 * and under `<index>/` an empty file per entry whose name is its head (`<length>.<hash>.<settings>.<key>`),
 * so listing an index is one `readdir` and reads no body. A write is a hard link from a synced temp file:
 * the link fails when the key exists, so the first writer wins without a lock, and a reader never sees
 * half an entry. A head missing after a crash is added by the next writer of the same key.
 */
export function createFileEntries(directory: string): FileEntries {
  const root = join(directory, 'entries');
  const bodies = join(root, 'by-key');
  let ready: Promise<void> | undefined;
  const ensure = () => (ready ??= mkdir(bodies, { recursive: true }).then(() => undefined));

  async function readEntry(key: string): Promise<CacheEntry | undefined> {
    try {
      return JSON.parse(await readFile(join(bodies, `${key}.json`), 'utf8')) as CacheEntry;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async function writeOnce(target: string, data: string): Promise<boolean> {
    const temp = `${target}.${randomUUID()}.tmp`;
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, target);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  return {
    async putEntry(entry) {
      assertCacheEntry(entry);
      await ensure();
      const stored: CacheEntry = { ...entryHead(entry), index: entry.index, body: entry.body };
      const written = await writeOnce(join(bodies, `${entry.key}.json`), JSON.stringify(stored));
      const winner = written ? stored : ((await readEntry(entry.key)) ?? stored);
      const filed = join(root, winner.index);
      await mkdir(filed, { recursive: true });
      const marker = await open(join(filed, headName(winner)), 'a');
      await marker.close();
      return winner;
    },
    async getEntry(key) {
      if (!/^[0-9a-z_-]+$/i.test(key)) return undefined;
      return readEntry(key);
    },
    async entryHeads(index) {
      if (!/^[0-9a-z_-]+$/i.test(index)) return [];
      const names = await readdir(join(root, index)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      });
      return names.flatMap((name) => {
        const head = parseHeadName(name);
        return head === undefined ? [] : [head];
      });
    },
  };
}

function headName(head: CacheEntryHead): string {
  return `${head.coveredLength}.${head.coveredHash}.${head.settings}.${head.key}`;
}

function parseHeadName(name: string): CacheEntryHead | undefined {
  const [length, coveredHash, settings, key, ...rest] = name.split('.');
  if (rest.length > 0 || key === undefined || settings === undefined || coveredHash === undefined) return undefined;
  const coveredLength = Number(length);
  return Number.isInteger(coveredLength) && coveredLength > 0
    ? { key, coveredLength, coveredHash, settings }
    : undefined;
}
