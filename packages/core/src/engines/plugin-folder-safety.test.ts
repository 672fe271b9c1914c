import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { createHostAsync } from '../host/create-host.js';
import type { ContextEngine } from './context-engine.js';

const builtIn = (name: string): ContextEngine => ({
  name,
  shouldCompress: () => false,
  compress: async (messages) => ({
    messages: [...messages],
    report: { engine: name, reason: 'threshold', tokensBefore: 0, tokensAfter: 0, messagesBefore: 0, messagesAfter: 0 },
  }),
});

/** A plugin folder whose engine, when imported, leaves a marker file: proof that its code ran. */
function plantEngine(pluginDir: string, name: string): string {
  const folder = join(pluginDir, 'context_engine', name);
  mkdirSync(folder, { recursive: true });
  const marker = join(folder, 'RAN');
  writeFileSync(
    join(folder, 'index.js'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default () => ({ name: ${JSON.stringify(`planted-${name}`)}, shouldCompress: () => false, compress: async (m) => ({ messages: m, report: {} }) });\n`,
  );
  return marker;
}

describe('plugin folders never run code unasked', () => {
  const repository = () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ctxhost-repo-'));
    return { cwd, userPluginDir: join(cwd, 'no-user-plugins') };
  };

  it('never looks up a built-in engine name (the default compressor, none) in a plugin folder', async () => {
    const { cwd, userPluginDir } = repository();
    const project = join(cwd, '.ctxhost', 'plugins');
    const markers = [plantEngine(project, 'compressor'), plantEngine(project, 'none')];
    const fallbackEngine = { name: 'compressor', factory: () => builtIn('compressor') };
    const defaulted = await createHostAsync({ cwd, userPluginDir, fallbackEngine, config: { pluginDirs: [project] } });
    expect(defaulted.engine.name).toBe('compressor');
    const none = await createHostAsync({
      cwd,
      userPluginDir,
      fallbackEngine,
      projectPlugins: true,
      config: { context: { engine: 'none' } },
    });
    expect(none.engine.name).not.toBe('planted-none');
    expect(markers.filter((marker) => existsSync(marker))).toStrictEqual([]);
  });

  it('loads a project plugin folder only when asked (projectPlugins or plugin_dirs), and says which file', async () => {
    const { cwd, userPluginDir } = repository();
    const marker = plantEngine(join(cwd, '.ctxhost', 'plugins'), 'custom');
    const unasked = await createHostAsync({ cwd, userPluginDir, config: { context: { engine: 'custom' } } }).catch(
      (caught: unknown) => caught,
    );
    expect(CtxhostError.hasCode(unasked, CORE_ERROR_CODES.engineNotFound)).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const loaded: string[] = [];
    const asked = await createHostAsync({
      cwd,
      userPluginDir,
      projectPlugins: true,
      onPluginLoad: ({ file }) => loaded.push(file),
      config: { context: { engine: 'custom' } },
    });
    expect(asked.engine.name).toBe('planted-custom');
    expect(loaded).toStrictEqual([join(cwd, '.ctxhost', 'plugins', 'context_engine', 'custom', 'index.js')]);
  });

  it('refuses an engine name that is a path, and a manifest whose main leaves the folder', async () => {
    const { cwd, userPluginDir } = repository();
    const outside = plantEngine(join(cwd, 'elsewhere'), 'x');
    for (const engine of ['../../elsewhere/context_engine/x', '/abs', 'a/b', '.hidden', '']) {
      const error = await createHostAsync({
        cwd,
        userPluginDir,
        config: { context: { engine }, pluginDirs: [join(cwd, 'plugins')] },
      }).catch((caught: unknown) => caught);
      expect(CtxhostError.hasCode(error, CORE_ERROR_CODES.configInvalid), engine).toBe(true);
    }
    const folder = join(cwd, 'plugins', 'context_engine', 'escape');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ main: '../../../elsewhere/context_engine/x/index.js' }),
    );
    const escaped = await createHostAsync({
      cwd,
      userPluginDir,
      config: { context: { engine: 'escape' }, pluginDirs: [join(cwd, 'plugins')] },
    }).catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(escaped, CORE_ERROR_CODES.engineLoadFailed)).toBe(true);
    expect(existsSync(outside)).toBe(false);
  });
});
