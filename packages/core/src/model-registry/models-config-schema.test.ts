import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { loadConfig } from '../config/load-config.js';
import { resolveContextWindow } from '../host/context-usage.js';
import { getModelInfo } from './model-registry.js';

let root: string;
let cwd: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxhost-models-'));
  cwd = join(root, 'project');
  await mkdir(join(cwd, '.ctxhost'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function load(yaml: string) {
  await writeFile(join(cwd, '.ctxhost', 'config.yaml'), yaml);
  return loadConfig({ cwd, userConfigDir: join(root, 'user') });
}

describe('config models: section', () => {
  it('overrides a known model and adds a new one; the window resolves from model.name', async () => {
    const { config } = await load(
      [
        'model:',
        '  name: qwen3-coder-local',
        'models:',
        '  claude-sonnet-4.5:',
        '    context_window: 180000',
        '  qwen3-coder-local:',
        '    provider: vllm',
        '    context_window: 65536',
        '    pricing: { input: 0, output: 0 }',
        '',
      ].join('\n'),
    );
    expect(config.models['qwen3-coder-local']).toStrictEqual({
      provider: 'vllm',
      contextWindow: 65536,
      pricing: { input: 0, output: 0 },
    });
    expect(resolveContextWindow(config)).toBe(65536);
    expect(resolveContextWindow(config, 'claude-sonnet-4-5-20250929')).toBe(180_000);
    expect(getModelInfo('claude-sonnet-4-5', config.models)?.pricing?.input).toBe(3);
  });

  it('reports a malformed entry with file, line and key, all problems at once', async () => {
    const error = await load(
      [
        'models:',
        '  my-model:',
        '    max_output_tokens: 1000',
        '  gpt-4o:',
        '    context_windw: 1',
        '    pricing: { input: cheap, output: 1 }',
        '',
      ].join('\n'),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(error)).toBe(true);
    const issues = (error as ConfigError).issues.map(({ line, path }) => ({ line, path }));
    expect(issues).toEqual(
      expect.arrayContaining([
        { line: 3, path: 'models.my-model.context_window' },
        { line: 5, path: 'models.gpt-4o.context_windw' },
        { line: 6, path: 'models.gpt-4o.pricing.input' },
      ]),
    );
    expect((error as ConfigError).message).toContain('the model registry does not know "my-model"');
  });
});
