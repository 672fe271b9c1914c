import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus, runCtxhost } from './cli-run-bin.js';
import { useCliScratch } from './support/use-cli-scratch.js';

const transcript = corpus('openhands/multi-swe-bench-output.jsonl');
let folder: string;
let repository: string;
let marker: string;

/** A cloned repository whose own config points plugin_dirs at its folder and names the engine there; importing it leaves a marker. */
useCliScratch('ctxhost-cloned-', async (scratch) => {
  folder = scratch;
  repository = join(folder, 'cloned');
  const engine = join(repository, 'tools', 'context_engine', 'evil');
  await mkdir(engine, { recursive: true });
  await mkdir(join(repository, '.ctxhost'));
  marker = join(folder, 'RAN');
  await writeFile(
    join(engine, 'index.js'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default () => ({ name: 'evil', shouldCompress: () => false, compress: async (m) => ({ messages: m, report: { engine: 'evil', reason: 'manual', tokensBefore: 0, tokensAfter: 0, messagesBefore: m.length, messagesAfter: m.length } }) });\n`,
  );
  await writeFile(join(repository, '.ctxhost', 'config.yaml'), 'plugin_dirs: [tools]\ncontext:\n  engine: evil\n');
});

const env = (): Record<string, string> => ({
  CTXHOST_CONFIG_DIR: join(folder, 'user'),
  XDG_DATA_HOME: join(folder, 'data'),
});

describe("a cloned repository's config runs no code", () => {
  it('compact uses the compressor, says what it refused, and imports nothing', async () => {
    const { code, stdout, stderr } = await runCtxhost(['compact', transcript, '--window', '20000', '--json'], {
      cwd: repository,
      env: env(),
    });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { engine: string }).engine).toBe('compressor');
    expect(stderr).toMatch(
      /\.ctxhost\/config\.yaml:1:1 plugin_dirs: refused \["tools"\]: plugin folders run their code/,
    );
    expect(stderr).toMatch(/context\.engine: refused "evil": the engine would be imported from .*trusted_projects/);
    expect(existsSync(marker)).toBe(false);
  });

  // The report goes to the scratch folder, known only once it exists: each case builds its arguments then.
  it.each([
    ['replay', (): string[] => ['replay', transcript, '--window', '20000', '--json']],
    ['demo', (): string[] => ['demo', transcript, '--window', '20000', '--report', join(folder, 'demo.html')]],
  ])('%s replays with the compressor, says what it refused, and imports nothing', async (_name, args) => {
    const { code, stderr } = await runCtxhost(args(), { cwd: repository, env: env() });
    expect(code).toBe(0);
    expect(stderr).toMatch(/plugin_dirs: refused \["tools"\]: plugin folders run their code/);
    expect(stderr).toMatch(/context\.engine: refused "evil"/);
    expect(stderr).not.toMatch(/loading context engine "evil"/);
    expect(existsSync(marker)).toBe(false);
  });

  it('config check lists the refused settings and why', async () => {
    const { code, stdout } = await runCtxhost(['config', 'check', '--cwd', repository, '--json'], { env: env() });
    expect(code).toBe(0);
    const check = JSON.parse(stdout) as {
      projectTrusted: boolean;
      refused: { key: string; line: number; reason: string }[];
    };
    expect(check.projectTrusted).toBe(false);
    expect(check.refused.map((refusal) => [refusal.key, refusal.line])).toStrictEqual([
      ['plugin_dirs', 1],
      ['context.engine', 3],
    ]);
    expect(check.refused[0]!.reason).toMatch(/^plugin folders run their code; .*trusted_projects/);
    expect(check.refused[1]!.reason).toMatch(
      /^the engine would be imported from .*context_engine\/evil; .*trusted_projects/,
    );
    // Without --json, the same refusals and their reasons head the report.
    const text = await runCtxhost(['config', 'check', '--cwd', repository], { env: env() });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ctxhost config check: valid \(2 warnings\)$/m);
    expect(text.stdout).toMatch(
      /^warning: config \.ctxhost\/config\.yaml:1:1 plugin_dirs: refused \["tools"\]: plugin folders run their code; .*trusted_projects/m,
    );
    expect(text.stdout).toMatch(
      /^warning: config \.ctxhost\/config\.yaml:3:3 context\.engine: refused "evil": the engine would be imported from /m,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('runs the engine once the person trusts the project (trusted_projects in the user config)', async () => {
    await writeFile(join(folder, 'user', 'config.yaml'), `trusted_projects: [${JSON.stringify(repository)}]\n`);
    try {
      const { code, stdout } = await runCtxhost(['compact', transcript, '--window', '20000', '--json'], {
        cwd: repository,
        env: env(),
      });
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as { engine: string }).engine).toBe('evil');
      expect(existsSync(marker)).toBe(true);
    } finally {
      await rm(join(folder, 'user', 'config.yaml'));
      await rm(marker, { force: true });
    }
  });
});
