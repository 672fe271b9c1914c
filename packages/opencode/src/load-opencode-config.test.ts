import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@ctxhost/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOpencodeConfig, OPENCODE_CONFIG_FILE } from './load-opencode-config.js';

let base: string;
let project: string;
let user: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'ctxhost-opencode-config-'));
  project = join(base, 'project');
  user = join(base, 'user');
  await mkdir(join(project, '.ctxhost'), { recursive: true });
  await mkdir(join(project, '.opencode'), { recursive: true });
  await mkdir(user, { recursive: true });
});

afterEach(() => rm(base, { recursive: true, force: true }));

describe('loadOpencodeConfig', () => {
  it('reads the user file, then .ctxhost/config.yaml, then .opencode/ctxhost.yaml, key by key (disabled_hooks joined)', async () => {
    await writeFile(join(user, 'config.yaml'), 'model:\n  context_length: 100000\ndisabled_hooks: [session-hygiene]\n');
    await writeFile(
      join(project, '.ctxhost', 'config.yaml'),
      'hooks:\n  tool-output-truncator:\n    max_tokens: 2000\n',
    );
    await writeFile(
      join(project, OPENCODE_CONFIG_FILE),
      'disabled_hooks: [context-window-monitor]\nhooks:\n  context-window-monitor:\n    warn_at: 0.6\n',
    );
    const { config, files } = await loadOpencodeConfig({ directory: project, userConfigDir: user });
    expect(files).toEqual([
      join(user, 'config.yaml'),
      join(project, '.ctxhost', 'config.yaml'),
      join(project, OPENCODE_CONFIG_FILE),
    ]);
    expect(config.model.contextLength).toBe(100_000);
    expect([...config.disabledHooks].sort()).toEqual(['context-window-monitor', 'session-hygiene']);
    expect(config.hooks['tool-output-truncator']).toMatchObject({ max_tokens: 2000 });
    expect(config.hooks['context-window-monitor']).toMatchObject({ warn_at: 0.6 });
  });

  it('works with no file at all', async () => {
    const { config, files } = await loadOpencodeConfig({ directory: project, userConfigDir: user });
    expect(files).toEqual([]);
    expect(config.disabledHooks).toEqual([]);
  });

  it('names .opencode/ctxhost.yaml and the key when a value is wrong', async () => {
    await writeFile(join(project, OPENCODE_CONFIG_FILE), 'hooks:\n  tool-output-truncator:\n    max_tokens: lots\n');
    const error = await loadOpencodeConfig({ directory: project, userConfigDir: user }).catch(
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(
      /\.opencode\/ctxhost\.yaml:3.*hooks\.tool-output-truncator\.max_tokens/,
    );
  });

  it('checks the recovery cascade’s section (hooks.anthropic-auto-compact) in the file too', async () => {
    await writeFile(
      join(project, OPENCODE_CONFIG_FILE),
      'hooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 100\n',
    );
    const { config } = await loadOpencodeConfig({ directory: project, userConfigDir: user });
    expect(config.hooks['anthropic-auto-compact']).toMatchObject({ initial_delay_ms: 100, plan: true });
    await writeFile(join(project, OPENCODE_CONFIG_FILE), 'hooks:\n  anthropic-auto-compact:\n    initial_delay: 100\n');
    const error = await loadOpencodeConfig({ directory: project, userConfigDir: user }).catch(
      (caught: unknown) => caught,
    );
    expect(String((error as Error).message)).toMatch(/hooks\.anthropic-auto-compact\.initial_delay/);
  });
});
