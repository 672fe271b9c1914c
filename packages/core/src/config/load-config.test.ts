import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_CONFIG } from './config-defaults.js';
import { defineConfigSection, readHookSection } from './config-section.js';
import { ConfigError, CtxhostError } from '../errors.js';
import { loadConfig, mergeConfig } from './load-config.js';

let root: string;
let cwd: string;
let userConfigDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxhost-config-'));
  cwd = join(root, 'project');
  userConfigDir = join(root, 'user-config');
  await mkdir(join(cwd, '.ctxhost'), { recursive: true });
  await mkdir(userConfigDir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function loadError(options: Partial<Parameters<typeof loadConfig>[0]> = {}): Promise<ConfigError> {
  const error = await loadConfig({ cwd, userConfigDir, ...options }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ConfigError.isInstance(error)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error as ConfigError;
}

describe('loadConfig', () => {
  it('returns the defaults when no file exists', async () => {
    const loaded = await loadConfig({ cwd, userConfigDir });
    expect(loaded).toStrictEqual({
      config: DEFAULT_CONFIG,
      sources: {},
      files: [],
      warnings: [],
      refused: [],
      projectTrusted: false,
    });
  });

  it('merges the project file over the user file key by key, lists replacing (disabled_hooks joining)', async () => {
    const userFile = join(userConfigDir, 'config.yaml');
    const projectFile = join(cwd, '.ctxhost', 'config.yaml');
    await writeFile(
      userFile,
      'compression:\n  threshold: 0.6\n  protect_last_n: 10\ndisabled_hooks: [session-hygiene, preemptive-compaction]\nmodel:\n  name: user-model\n',
    );
    await writeFile(projectFile, 'compression:\n  threshold: 0.7\ndisabled_hooks:\n  - tool-output-truncator\n');
    const loaded = await loadConfig({ cwd, userConfigDir });
    expect(loaded.config.compression).toStrictEqual({
      ...DEFAULT_CONFIG.compression,
      threshold: 0.7,
      protectLastN: 10,
    });
    expect(loaded.config.disabledHooks).toStrictEqual([
      'session-hygiene',
      'preemptive-compaction',
      'tool-output-truncator',
    ]);
    expect(loaded.config.model).toStrictEqual({ name: 'user-model' });
    expect(loaded.files).toStrictEqual([userFile, projectFile]);
    expect(loaded.sources).toStrictEqual({
      'compression.threshold': projectFile,
      'compression.protect_last_n': userFile,
      disabled_hooks: `${userFile}, ${projectFile}`,
      'model.name': userFile,
    });
  });

  it('reads a JSON project file and reports its positions', async () => {
    await writeFile(join(cwd, '.ctxhost', 'config.json'), '{\n  "prompt_caching": { "cache_ttl": "2h" }\n}\n');
    const error = await loadError();
    expect(error.issues).toStrictEqual([
      {
        file: '.ctxhost/config.json',
        line: 2,
        column: 36,
        path: 'prompt_caching.cache_ttl',
        expected: '"5m" or "1h"',
        found: '"2h"',
      },
    ]);
  });

  it('reads the user folder from CTXHOST_CONFIG_DIR when no folder is given', async () => {
    await writeFile(join(userConfigDir, 'config.yaml'), 'context:\n  engine: lcm\n');
    const loaded = await loadConfig({ cwd, env: { CTXHOST_CONFIG_DIR: userConfigDir } });
    expect(loaded.config.context.engine).toBe('lcm');
  });

  it('reports every problem of both files at once, with file, line and column', async () => {
    await writeFile(join(userConfigDir, 'config.yaml'), 'experimental:\n  aggressive_truncation: sometimes\n');
    await writeFile(
      join(cwd, '.ctxhost', 'config.yaml'),
      [
        'context:',
        '  engine: compressor',
        'compression:',
        '  threshold: half',
        '  target_ratio: 0.95',
        '  protect_lastn: 4',
        'disabled_hooks:',
        '  - session-hygiene',
        '  - context-monitor',
        'prompt_caching:',
        '  cache_ttl: 10m',
        '',
      ].join('\n'),
    );
    const error = await loadError();
    expect(error.code).toBe('CTXHOST_CONFIG_INVALID');
    expect(error.message.replaceAll(userConfigDir, '<user-config>')).toMatchInlineSnapshot(`
      "ctxhost configuration has 5 problems; fix the keys below and retry:
        config <user-config>/config.yaml:2:26 experimental.aggressive_truncation: expected true or false, got "sometimes"
        config .ctxhost/config.yaml:4:14 compression.threshold: expected a number between 0 and 1, got "half"
        config .ctxhost/config.yaml:5:17 compression.target_ratio: expected a number between 0.1 and 0.8, got 0.95
        config .ctxhost/config.yaml:6:3 compression.protect_lastn: expected one of the keys enabled, threshold, target_ratio, protect_last_n, summarizer_cooldown_compactions, summarizer_cooldown_minutes, background, bill_policy, got "protect_lastn"
        config .ctxhost/config.yaml:11:14 prompt_caching.cache_ttl: expected "5m" or "1h", got "10m""
    `);
  });

  it('warns about an unknown hook name with a suggestion, and loads the rest of the file', async () => {
    await writeFile(
      join(cwd, '.ctxhost', 'config.yaml'),
      'compression:\n  threshold: 0.6\ndisabled_hooks:\n  - session-hygiene\n  - context-monitor\n  - prompt-caching\n',
    );
    const loaded = await loadConfig({ cwd, userConfigDir });
    expect(loaded.config.compression.threshold).toBe(0.6);
    expect(loaded.config.disabledHooks).toStrictEqual(['session-hygiene', 'prompt-caching']);
    expect(loaded.warnings).toStrictEqual([
      {
        file: '.ctxhost/config.yaml',
        line: 5,
        column: 5,
        path: 'disabled_hooks[1]',
        message: expect.stringMatching(
          /^unknown hook "context-monitor", ignored; did you mean "context-window-monitor"\? \(built-in hooks: .*prompt-caching, native-compaction\)$/,
        ),
      },
    ]);
  });

  it('takes a renamed hook under its old name, warning once', async () => {
    await writeFile(join(userConfigDir, 'config.yaml'), 'disabled_hooks: [anthropic-context-window-limit-recovery]\n');
    await writeFile(
      join(cwd, '.ctxhost', 'config.yaml'),
      'disabled_hooks: [anthropic-context-window-limit-recovery, session-hygiene]\n',
    );
    const loaded = await loadConfig({ cwd, userConfigDir });
    expect(loaded.config.disabledHooks).toStrictEqual(['anthropic-auto-compact', 'session-hygiene']);
    expect(loaded.warnings.map((warning) => warning.message)).toStrictEqual([
      '"anthropic-context-window-limit-recovery" is the old name of "anthropic-auto-compact"; it still works, but write "anthropic-auto-compact"',
    ]);
  });

  it('points a YAML error at the line at fault, not the line above it', async () => {
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), 'compression:\n  threshold: 0.5\n   bad: 1\nmodel: {}\n');
    const error = await loadError();
    expect(error.issues[0]).toMatchObject({
      file: '.ctxhost/config.yaml',
      line: 3,
      column: 4,
      expected: 'valid YAML or JSON',
    });
  });

  it('names the file, line and column of a YAML syntax error', async () => {
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), 'compression:\n  threshold: [0.5\nmodel: {}\n');
    const error = await loadError();
    expect(error.issues[0]).toMatchObject({
      file: '.ctxhost/config.yaml',
      line: expect.any(Number),
      column: expect.any(Number),
      expected: 'valid YAML or JSON',
    });
  });

  it('refuses aliases that expand without bound (a "billion laughs" file) with a ConfigError, not the parser\'s ReferenceError', async () => {
    const levels = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdef'
        .split('')
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[index]}`).join(', ')}]`),
    ];
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), `${levels.join('\n')}\n`);
    const error = await loadError();
    expect(error.message).toContain(
      'config .ctxhost/config.yaml: expected plain YAML or JSON data, got content that cannot be read safely',
    );
  });

  it('says a file nested past what the parser can read is nested too deeply', async () => {
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), `${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    const error = await loadError();
    expect(error.message).toContain('got a syntax error (nested too deeply to read)');
  });

  it('refuses two config files in one folder instead of picking one silently', async () => {
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), '{}\n');
    await writeFile(join(cwd, '.ctxhost', 'config.json'), '{}\n');
    const error = await loadError();
    expect(error.message).toContain(
      'config .ctxhost/config.yaml: expected a single config file in this folder, got also .ctxhost/config.json',
    );
  });

  it('reports an unreadable file (here a folder in its place) with CTXHOST_CONFIG_UNREADABLE', async () => {
    await mkdir(join(cwd, '.ctxhost', 'config.yaml'));
    const error = await loadError();
    expect(CtxhostError.hasCode(error, 'CTXHOST_CONFIG_UNREADABLE')).toBe(true);
    expect(error.message).toContain('config .ctxhost/config.yaml: expected a readable file');
  });

  it('validates contributed sections strictly and lets the package read its section', async () => {
    const section = defineConfigSection({
      key: 'context-window-monitor',
      schema: z.strictObject({ warn_at: z.number().default(0.7) }),
    });
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), 'hooks:\n  context-window-monitor:\n    warn_at: 0.6\n');
    const loaded = await loadConfig({ cwd, userConfigDir, sections: [section] });
    expect(readHookSection(loaded.config, section.key, section.schema)).toStrictEqual({ warn_at: 0.6 });
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), 'hooks:\n  context-window-monitor:\n    warn-at: 0.6\n');
    const error = await loadError({ sections: [section] });
    expect(error.issues).toMatchObject([{ line: 3, column: 5, path: 'hooks.context-window-monitor.warn-at' }]);
  });
});

describe('mergeConfig', () => {
  it.each([
    [{ a: { b: 1, c: 2 } }, { a: { b: 3 } }, { a: { b: 3, c: 2 } }],
    [{ list: [1, 2] }, { list: [3] }, { list: [3] }],
    [{ a: 1 }, { b: 2 }, { a: 1, b: 2 }],
    [{ a: { b: 1 } }, { a: 5 }, { a: 5 }],
  ])('merges %j with %j', (base, override, expected) => {
    expect(mergeConfig(base, override)).toStrictEqual(expected);
  });
});
