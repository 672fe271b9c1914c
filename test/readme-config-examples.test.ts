import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@ctxhost/core';
import { opencodeConfigSection } from '@ctxhost/opencode/bridge';
import { builtInConfigSections } from 'ctxhost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Top-level keys of a ctxhost config: a YAML block with one of them is a config example. */
const CONFIG_KEYS = [
  'context',
  'compression',
  'redaction',
  'auxiliary',
  'prompt_caching',
  'model',
  'models',
  'disabled_hooks',
  'experimental',
  'plugin_dirs',
  'trusted_projects',
  'store',
  'hooks',
];

async function readmes(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'dist') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await readmes(path)));
    else if (entry.name === 'README.md') found.push(path);
  }
  return found;
}

/** Every ```yaml block of every README that is a ctxhost config (not an opencode.json or a docker file). */
async function configExamples(): Promise<{ where: string; text: string }[]> {
  const examples: { where: string; text: string }[] = [];
  for (const file of await readmes(ROOT)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/```ya?ml\n([\s\S]*?)```/g)) {
      const block = match[1]!;
      // Top-level keys: lines that start a mapping at column 0 (comments and list items are not keys).
      const keys = [...block.matchAll(/^([A-Za-z_][\w-]*):/gm)].map((key) => key[1]!);
      if (keys.length === 0 || !keys.every((key) => CONFIG_KEYS.includes(key))) continue;
      examples.push({ where: `${relative(ROOT, file)}:${text.slice(0, match.index).split('\n').length}`, text: block });
    }
  }
  return examples;
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ctxhost-readme-config-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('config examples in the READMEs', () => {
  it('are found (the check checks something)', async () => {
    expect((await configExamples()).length).toBeGreaterThan(5);
  });

  // The opencode plugin's README examples also carry its own section (hooks.opencode), which its loader adds.
  it('all load with every built-in section (and the opencode plugin its own), with no warning', async () => {
    const failures: string[] = [];
    for (const [index, example] of (await configExamples()).entries()) {
      const cwd = join(folder, `example-${index}`);
      await mkdir(join(cwd, '.ctxhost'), { recursive: true });
      await writeFile(join(cwd, '.ctxhost', 'config.yaml'), example.text);
      try {
        const loaded = await loadConfig({
          cwd,
          userConfigDir: join(folder, 'no-user-config'),
          // Examples that set code-loading keys are meant for the user file or a trusted project.
          trustProject: true,
          sections: example.where.startsWith('packages/opencode/')
            ? [...builtInConfigSections(), opencodeConfigSection]
            : builtInConfigSections(),
        });
        failures.push(...loaded.warnings.map((warning) => `${example.where}: warning ${warning.message}`));
      } catch (error) {
        failures.push(`${example.where}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
