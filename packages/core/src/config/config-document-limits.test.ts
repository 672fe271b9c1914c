import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { loadConfig } from './load-config.js';

function project(content?: string): string {
  const cwd = mkdtempSync(join(tmpdir(), 'ctxhost-config-limits-'));
  mkdirSync(join(cwd, '.ctxhost'));
  if (content !== undefined) writeFileSync(join(cwd, '.ctxhost', 'config.yaml'), content);
  return cwd;
}
const load = (cwd: string) => loadConfig({ cwd, userConfigDir: join(cwd, 'no-user-config') });

describe('config files an attacker or an accident could hand over', () => {
  // The yaml library's duplicate-key check and a locator search per issue were quadratic: 40,000 keys took 27 s.
  it(
    'reads 40,000 keys in one mapping in linear time (a bound far below the quadratic 27 s)',
    { timeout: 20_000 },
    async () => {
      const lines = [
        'models:',
        ...Array.from({ length: 40_000 }, (_, index) => `  m${index}: { context_window: 1000 }`),
      ];
      const { config } = await load(project(`${lines.join('\n')}\n`));
      expect(Object.keys(config.models)).toHaveLength(40_000);
      // 5,000 wrong keys: every one reported and located.
      const wrong = ['compression:', ...Array.from({ length: 5_000 }, (_, index) => `  k${index}: 1`)];
      const error = await load(project(`${wrong.join('\n')}\n`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.filter((issue) => issue.line !== undefined)).toHaveLength(5_000);
    },
  );

  it('still refuses a key written twice, naming where', async () => {
    const error = await load(project('compression:\n  threshold: 0.5\n  threshold: 0.6\n')).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toMatchObject([
      { line: 3, found: expect.stringContaining('"threshold" appears twice') },
    ]);
  });

  it('refuses a FIFO as a config file instead of waiting on it forever', async () => {
    const cwd = project();
    execFileSync('mkfifo', [join(cwd, '.ctxhost', 'config.yaml')]);
    const error = await load(cwd).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('named pipe');
  });
});
