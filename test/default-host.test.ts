import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { serverFirstThreshold } from '@ctxhost/native-compaction';
import { createDefaultHost, loadDefaultHost } from 'ctxhost';

describe('createDefaultHost', () => {
  it('wires every built-in hook and the compressor', async () => {
    const host = await createDefaultHost({ config: { store: { kind: 'memory' } } });
    expect(host.plugins).toEqual([
      'context-engine',
      'context-window-monitor',
      'preemptive-compaction',
      'tool-output-truncator',
      'session-hygiene',
      'prompt-caching',
      'native-compaction',
      'anthropic-auto-compact',
    ]);
    expect(host.engine.name).toBe('compressor');
    expect(serverFirstThreshold(host.engine)).toBeUndefined();
    await host.dispose();
  });

  it('with hooks.native-compaction on, the compressor steps back to the fallback threshold', async () => {
    const host = await createDefaultHost({
      config: {
        store: { kind: 'memory' },
        hooks: { 'native-compaction': { openai: { inline: { enabled: true } }, client_fallback_threshold: 0.9 } },
      },
    });
    expect(host.engine.name).toBe('compressor');
    expect(serverFirstThreshold(host.engine)).toBe(0.9);
    await host.dispose();
  });

  it('context.engine: none is no engine (the compressor does not stand in), and an unknown name is an error', async () => {
    const host = await createDefaultHost({ config: { store: { kind: 'memory' }, context: { engine: 'none' } } });
    expect(host.engine.name).toBe('none');
    await host.dispose();
    await expect(
      createDefaultHost({ config: { store: { kind: 'memory' }, context: { engine: 'compresor' } } }),
    ).rejects.toMatchObject({ code: 'CTXHOST_ENGINE_NOT_FOUND', message: expect.stringContaining('"compressor"') });
  });

  it('still reads the deprecated hooks.server-context, warning once with the new key', async () => {
    const warnings: string[] = [];
    const host = await createDefaultHost({
      config: {
        store: { kind: 'memory' },
        hooks: { 'server-context': { compaction: { enabled: true }, client_fallback_threshold: 0.8 } },
      },
      logger: { debug() {}, info() {}, warn: (line) => warnings.push(line), error() {} },
    });
    expect(serverFirstThreshold(host.engine)).toBe(0.8);
    expect(warnings.filter((line) => line.includes('hooks.server-context is deprecated'))).toHaveLength(1);
    await host.dispose();
  });

  it('lets a built-in be replaced by one configured differently', async () => {
    let applied = false;
    const host = await createDefaultHost({
      config: { store: { kind: 'memory' } },
      builtIns: [
        {
          name: 'session-hygiene',
          apply: () => {
            applied = true;
          },
        },
      ],
    });
    expect(applied).toBe(true);
    expect(host.plugins.filter((name) => name === 'session-hygiene')).toHaveLength(1);
  });

  it('honours disabled_hooks from the project config, and its store folder once the project is trusted', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ctxhost-default-'));
    mkdirSync(join(cwd, '.ctxhost'));
    writeFileSync(
      join(cwd, '.ctxhost', 'config.yaml'),
      `disabled_hooks: [session-hygiene, preemptive-compaction]\nstore:\n  kind: file\n  path: ${join(cwd, 'sessions')}\n`,
    );
    // An untrusted project's store.path is refused (core README): projectPlugins is the person's word for this one.
    const host = await loadDefaultHost({ cwd, projectPlugins: true });
    expect(host.plugins).not.toContain('session-hygiene');
    expect(host.plugins).not.toContain('preemptive-compaction');
    const session = await host.session('s1');
    await session.append({ id: 'm1', role: 'user', parts: [{ id: 'm1:0', type: 'text', text: 'hello' }] });
    expect(host.store.kind).toBe('file');
    expect(await host.store.list()).toEqual(['s1']);
    await host.dispose();
  });

  it('says a misspelt disabled_hooks name to a library user: once to stderr by default, or to the logger given', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ctxhost-default-'));
    mkdirSync(join(cwd, '.ctxhost'));
    writeFileSync(
      join(cwd, '.ctxhost', 'config.yaml'),
      `disabled_hooks: [preemptive-compation]\nstore:\n  kind: memory\n`,
    );
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    try {
      for (let load = 0; load < 2; load++) await (await loadDefaultHost({ cwd })).dispose();
    } finally {
      stderr.mockRestore();
    }
    const said = written.filter((text) => text.includes('preemptive-compation'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^ctxhost: warning: config .*config\.yaml:1:\d+ disabled_hooks\[0\]: .*preemptive-compaction/,
    );
    const warned: string[] = [];
    const logger = { debug() {}, info() {}, warn: (text: string) => void warned.push(text), error() {} };
    await (await loadDefaultHost({ cwd, logger })).dispose();
    expect(warned).toEqual([expect.stringContaining('preemptive-compation')]);
  });
});
