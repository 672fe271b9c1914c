import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { builtInPlugins, loadDefaultHost } from './create-default-host.js';
import { builtInConfigSections } from './built-in-config-sections.js';

describe('builtInConfigSections', () => {
  it('has one section for each built-in hook that reads hooks.<its name>, each keyed by the plugin name', () => {
    const pluginNames = builtInPlugins().map((plugin) => plugin.name);
    // `gateway` is ctxhost gateway's section, not a hook's.
    const keys = builtInConfigSections()
      .map((section) => section.key)
      .filter((key) => key !== 'gateway');
    expect(new Set(keys).size).toBe(keys.length);
    // server-context is the deprecated key native-compaction still reads.
    for (const key of keys) expect(pluginNames).toContain(key === 'server-context' ? 'native-compaction' : key);
  });

  it('covers every built-in plugin that reads a hooks section', () => {
    expect(
      builtInConfigSections()
        .map((section) => section.key)
        .sort(),
    ).toEqual([
      'anthropic-auto-compact',
      'context-window-monitor',
      'gateway',
      'native-compaction',
      'preemptive-compaction',
      'prompt-caching',
      'server-context',
      'session-hygiene',
      'tool-output-truncator',
    ]);
  });

  it('lets loadDefaultHost read the sections of prompt-caching, native-compaction and the deprecated server-context, and check each hook key', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ctxhost-sections-'));
    const env = process.env['CTXHOST_CONFIG_DIR'];
    process.env['CTXHOST_CONFIG_DIR'] = join(cwd, 'user');
    try {
      await mkdir(join(cwd, '.ctxhost'));
      await writeFile(
        join(cwd, '.ctxhost', 'config.yaml'),
        'store:\n  kind: memory\nhooks:\n  prompt-caching:\n    enabled: false\n  server-context: {}\n  native-compaction:\n    openai:\n      inline: { enabled: true }\n',
      );
      const host = await loadDefaultHost({ cwd });
      expect(host.config.hooks['prompt-caching']).toMatchObject({ enabled: false });
      await host.dispose();
      await writeFile(join(cwd, '.ctxhost', 'config.yaml'), 'hooks:\n  prompt-caching:\n    enabled: nope\n');
      await expect(loadDefaultHost({ cwd })).rejects.toThrow(
        /\.ctxhost\/config\.yaml:3:14 hooks\.prompt-caching\.enabled: expected true or false/,
      );
    } finally {
      if (env === undefined) delete process.env['CTXHOST_CONFIG_DIR'];
      else process.env['CTXHOST_CONFIG_DIR'] = env;
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('makes loadConfig report a misspelt hook key with its position', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ctxhost-sections-'));
    try {
      await mkdir(join(cwd, '.ctxhost'));
      await writeFile(join(cwd, '.ctxhost', 'config.yaml'), 'hooks:\n  context-window-monitor:\n    warn_att: 0.6\n');
      await expect(
        loadConfig({ cwd, userConfigDir: join(cwd, 'user'), sections: builtInConfigSections() }),
      ).rejects.toThrow(/\.ctxhost\/config\.yaml:3:5 hooks\.context-window-monitor\.warn_att/);
      await expect(loadConfig({ cwd, userConfigDir: join(cwd, 'user') })).resolves.toBeDefined();
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
