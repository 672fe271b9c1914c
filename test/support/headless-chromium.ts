import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

/** Headless Chromium with nothing from the network: no updates, sync, QUIC or background requests; a throwaway profile. */
export async function runChromium(page: string, args: readonly string[], timeoutMs = 60_000): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'ctxhost-chromium-'));
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--hide-scrollbars',
    `--user-data-dir=${profile}`,
  ];
  try {
    return await new Promise((resolve, reject) => {
      execFile(
        CHROMIUM,
        [...flags, ...args, pathToFileURL(page).href],
        { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error !== null) reject(new Error(`chromium failed on ${page}: ${error.message}\n${stderr}`));
          else resolve(stdout);
        },
      );
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
