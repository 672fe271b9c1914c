import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A scratch folder for a CLI test file, made before its tests and removed after.
 * It holds a `user` config folder that in-process runs read instead of the
 * person's own (`CTXHOST_CONFIG_DIR`, restored afterwards); `prepare` fills the rest.
 */
export function useCliScratch(prefix: string, prepare: (folder: string) => Promise<void>): void {
  let folder: string | undefined;
  let userConfigDir: string | undefined;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
    await mkdir(join(folder, 'user'));
    userConfigDir = process.env['CTXHOST_CONFIG_DIR'];
    process.env['CTXHOST_CONFIG_DIR'] = join(folder, 'user');
    await prepare(folder);
  });
  afterAll(async () => {
    if (userConfigDir === undefined) delete process.env['CTXHOST_CONFIG_DIR'];
    else process.env['CTXHOST_CONFIG_DIR'] = userConfigDir;
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });
}
