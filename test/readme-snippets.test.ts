import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeSnippets, type ReadmeSnippet } from './support/readme-snippets.js';

// Every ```ts snippet of the integrations' READMEs (and the root README's quick start) runs as written against
// the simulator, with each framework's defaults: no maxOutputTokens the reader does not see. The snippet is
// written beside its package's package.json, so its imports resolve as they would in a project that installed
// that package; the base URLs and keys come from the environment, as the SDKs read them. Needs the packages built.

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
/** The integrations whose READMEs are checked; the AI SDK's providers take the base URL with `/v1`. */
const PACKAGES: { folder: string; aiSdkProvider?: boolean }[] = [
  { folder: 'packages/ai-sdk', aiSdkProvider: true },
  { folder: 'packages/mastra', aiSdkProvider: true },
  { folder: 'packages/langchain' },
  { folder: 'packages/openai-agents' },
  { folder: 'packages/openai' },
  { folder: 'packages/anthropic' },
  { folder: 'packages/ctxhost' },
];

let simulator: Simulator;
let home: string;
beforeAll(async () => {
  simulator = await startSimulator({ acceptAnyModel: true });
  home = mkdtempSync(join(tmpdir(), 'ctxhost-readme-snippets-'));
});
afterAll(async () => {
  await simulator?.close();
  rmSync(home, { recursive: true, force: true });
});

async function runSnippet(folder: string, snippet: ReadmeSnippet, aiSdkProvider: boolean): Promise<void> {
  const { code } = await transform(snippet.code, { loader: 'ts', format: 'esm' });
  const file = join(root, folder, `.readme-snippet-${snippet.line}.mjs`);
  // A host or an SDK may keep a handle open (a keep-alive socket): the snippet is done when its last line is.
  writeFileSync(file, `${code}\nprocess.exit(0);\n`);
  try {
    await run(process.execPath, [file], {
      cwd: home,
      timeout: 90_000,
      env: {
        ...process.env,
        ANTHROPIC_API_KEY: 'sk-ant-simulated',
        ANTHROPIC_BASE_URL: aiSdkProvider ? `${simulator.url}/v1` : simulator.url,
        ANTHROPIC_API_URL: simulator.url,
        OPENAI_API_KEY: 'sk-simulated',
        OPENAI_BASE_URL: `${simulator.url}/v1`,
        OPENAI_AGENTS_DISABLE_TRACING: '1',
        XDG_DATA_HOME: join(home, 'data'),
        CTXHOST_CONFIG_DIR: join(home, 'config'),
      },
    });
  } finally {
    rmSync(file, { force: true });
  }
}

const cases = [
  ...readmeSnippets(join(root, 'README.md'), 'Quick start (library)').map((snippet) => ({
    folder: 'packages/ctxhost',
    snippet,
    aiSdkProvider: false,
  })),
  ...PACKAGES.flatMap(({ folder, aiSdkProvider }) =>
    readmeSnippets(join(root, folder, 'README.md')).map((snippet) => ({
      folder,
      snippet,
      aiSdkProvider: aiSdkProvider === true,
    })),
  ),
];

describe('README snippets run as written against the simulator', () => {
  it('finds the snippets (the check checks something)', () => {
    expect(cases.length).toBeGreaterThanOrEqual(PACKAGES.length + 2);
  });

  afterAll(() => {
    // Most snippets call the model; the two that only build a client or a host call nothing.
    expect(simulator.stats.requests).toBeGreaterThanOrEqual(cases.length - 2);
  });

  it.each(cases.map((entry) => [`${relative(root, entry.snippet.file)}:${entry.snippet.line}`, entry] as const))(
    '%s',
    async (_where, { folder, snippet, aiSdkProvider }) => {
      const rejected = () =>
        Object.entries(simulator.stats.byStatus)
          .filter(([status]) => Number(status) >= 400)
          .reduce((total, [, count]) => total + count, 0);
      const rejectedBefore = rejected();
      await runSnippet(folder, snippet, aiSdkProvider);
      expect(rejected(), 'no request refused').toBe(rejectedBefore);
    },
    120_000,
  );
});

// Core's and the simulator's snippets call no shared model (none, or a simulator of their own): each runs as written.
const selfContained = ['packages/core', 'packages/simulator'].flatMap((folder) =>
  readmeSnippets(join(root, folder, 'README.md')).map((snippet) => ({ folder, snippet })),
);

describe('README snippets that bring their own simulator, or call no model, run as written', () => {
  it.each(
    selfContained.map((entry) => [`${relative(root, entry.snippet.file)}:${entry.snippet.line}`, entry] as const),
  )(
    '%s',
    async (_where, { folder, snippet }) => {
      await runSnippet(folder, snippet, false);
    },
    120_000,
  );
});
