import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeSnippets } from './support/readme-snippets.js';

// What a user gets from npm: every public package packed as `pnpm pack` makes it, installed
// with npm into a folder outside the workspace, then the README's quick start and the
// `ctxhost` bin run there. Catches a missing `files` entry or an undeclared dependency.
// Needs the packages built (`pnpm test` builds first) and the npm registry.

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const INSTALL_TIMEOUT = 240_000;

let folder: string;
let simulator: Simulator;
let names: string[];

function publicPackageNames(): string[] {
  return ['packages', 'plugins/context_engine']
    .flatMap((parent) => readdirSync(join(root, parent)).map((name) => join(root, parent, name, 'package.json')))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; private?: boolean })
    .filter((pkg) => pkg.private !== true)
    .map((pkg) => pkg.name);
}

/** The README's "Quick start (library)" code blocks, in order. */
function readmeQuickStart(): string[] {
  return readmeSnippets(join(root, 'README.md'), 'Quick start (library)').map((snippet) => snippet.code);
}

async function node(file: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, [file], {
    cwd: folder,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return stdout;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ctxhost-packed-'));
  const tarballs = join(folder, 'tarballs');
  mkdirSync(tarballs);
  await run(
    'npx',
    [
      '-y',
      'pnpm@10',
      '-r',
      '--filter',
      './packages/**',
      '--filter',
      './plugins/**',
      'pack',
      '--pack-destination',
      tarballs,
    ],
    { cwd: root },
  );
  const project = join(folder, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'packed-install-check', private: true, type: 'module' }),
  );
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files, '@anthropic-ai/sdk'], {
    cwd: project,
    timeout: INSTALL_TIMEOUT,
  });
  folder = project;
  names = publicPackageNames();
  simulator = await startSimulator();
}, INSTALL_TIMEOUT + 60_000);

// Removing the install (with the frameworks the integrations bring) took over 30 s on a loaded machine.
afterAll(async () => {
  await simulator?.close();
  if (folder) rmSync(join(folder, '..'), { recursive: true, force: true });
}, 120_000);

describe('the packages as npm installs them, outside the workspace', () => {
  it('every public package was packed and installed', () => {
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(existsSync(join(folder, 'node_modules', name, 'package.json')), name).toBe(true);
  });

  it("every package's main entry imports (its files and dependencies are all there)", async () => {
    const script = join(folder, 'import-all.mjs');
    writeFileSync(
      script,
      `for (const name of ${JSON.stringify(names)}) { await import(name); }\nconsole.log('imported');\n`,
    );
    expect(await node(script)).toContain('imported');
  });

  it("the README's quick start runs against the simulator", async () => {
    const blocks = readmeQuickStart();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const [index, block] of blocks.entries()) {
      const { code } = await transform(block, { loader: 'ts', format: 'esm' });
      const script = join(folder, `quick-start-${index}.mjs`);
      writeFileSync(script, `${code}\nprocess.exit(0);\n`);
      await node(script, { ANTHROPIC_BASE_URL: simulator.url, ANTHROPIC_API_KEY: 'sk-ant-simulated' });
    }
    expect(simulator.requests.length).toBeGreaterThan(0);
  });

  it('the ctxhost bin runs: --help, and inspect on a real transcript', async () => {
    const bin = join(folder, 'node_modules', '.bin', 'ctxhost');
    const help = await run(bin, ['--help'], { cwd: folder });
    expect(help.stdout).toMatch(/Usage: ctxhost/);
    const transcript = join(root, 'test/fixtures/corpus/claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
    const inspected = await run(bin, ['inspect', transcript, '--json'], { cwd: folder });
    expect(JSON.parse(inspected.stdout)).toHaveProperty('format', 'claude-code');
  });

  it('npx ctxhost demo runs from the installed packages (its transcript ships in @ctxhost/cli)', async () => {
    const report = join(folder, 'demo-report.html');
    const { stdout } = await run('npx', ['ctxhost', 'demo', '--report', report], { cwd: folder, timeout: 240_000 });
    expect(stdout).toMatch(/fe5e1c67-53e7-4862-81ae-d0e013e3270b\.jsonl/);
    expect(stdout).toMatch(/^ {2}compactions [1-9]\d*/m);
    expect(existsSync(report)).toBe(true);
  }, 300_000);

  it('the ctxhost-simulator bin runs: --help', async () => {
    const help = await run(join(folder, 'node_modules', '.bin', 'ctxhost-simulator'), ['--help'], { cwd: folder });
    expect(help.stdout).toMatch(/^ctxhost-simulator \[--port N\]/);
  });
});
