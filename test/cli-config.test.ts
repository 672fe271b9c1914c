import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCtxhost, runCtxhostInProcess } from './cli-run-bin.js';
import { useCliScratch } from './support/use-cli-scratch.js';

let folder: string;
const project = (name: string) => join(folder, name);

async function writeProject(name: string, yaml: string | undefined): Promise<void> {
  await mkdir(join(project(name), '.ctxhost'), { recursive: true });
  if (yaml !== undefined) await writeFile(join(project(name), '.ctxhost', 'config.yaml'), yaml);
}

useCliScratch('ctxhost-config-', async (scratch) => {
  folder = scratch;
  await writeFile(
    join(folder, 'user', 'config.yaml'),
    'compression:\n  threshold: 0.4\n  protect_last_n: 10\ndisabled_hooks: [session-hygiene]\n',
  );
  await writeProject('valid', 'compression:\n  threshold: 0.6\nhooks:\n  context-window-monitor:\n    warn_at: 0.65\n');
  await writeProject(
    'invalid',
    'compression:\n  threshold: half\nhooks:\n  context-window-monitor:\n    warn_att: 0.6\n',
  );
  await writeProject('unreadable', undefined);
  await mkdir(join(project('unreadable'), '.ctxhost', 'config.yaml'));
  await mkdir(project('empty'));
  await writeProject('hygiene-threshold', 'hooks:\n  session-hygiene:\n    threshold: 0.9\n');
  await writeProject(
    'hook-names',
    'disabled_hooks:\n  - prompt-caching\n  - context-monitor\n  - anthropic-context-window-limit-recovery\n',
  );
});

describe('ctxhost config check', () => {
  it('prints the files, the merged config, and for each value the file it came from or default', async () => {
    const { code, stdout, stderr } = await runCtxhost(['config', 'check', '--cwd', project('valid')], {
      env: { CTXHOST_CONFIG_DIR: join(folder, 'user') },
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      /^ctxhost config check: valid\nfiles, later wins:\n {2}user {5}\/.*\/user\/config\.yaml\n {2}project {2}\.ctxhost\/config\.yaml\n/,
    );
    const rows = new Map(
      stdout
        .split('\n')
        .map((line) => line.split(/ {2,}/))
        .map(([key, ...rest]) => [key, rest]),
    );
    expect(rows.get('compression.threshold')).toEqual(['0.6', '.ctxhost/config.yaml']);
    expect(rows.get('compression.protect_last_n')?.[1]).toMatch(/\/user\/config\.yaml$/);
    expect(rows.get('disabled_hooks')?.[0]).toBe('["session-hygiene"]');
    expect(rows.get('compression.target_ratio')).toEqual(['0.2', 'default']);
    expect(rows.get('hooks.context-window-monitor.warn_at')).toEqual(['0.65', '.ctxhost/config.yaml']);
    expect(rows.get('hooks.context-window-monitor.critical_at')).toEqual(['0.8', 'default']);
  });

  it('prints the same as JSON', async () => {
    const { code, stdout } = await runCtxhostInProcess(['config', 'check', '--cwd', project('valid'), '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      valid: boolean;
      files: { level: string }[];
      config: { compression: Record<string, unknown> };
      values: { key: string; value: unknown; source: string }[];
    };
    expect(result.valid).toBe(true);
    expect(result.files.map((file) => file.level)).toEqual(['user', 'project']);
    expect(result.config.compression).toEqual({
      enabled: true,
      threshold: 0.6,
      target_ratio: 0.2,
      protect_last_n: 10,
      summarizer_cooldown_compactions: 3,
      summarizer_cooldown_minutes: 10,
      background: false,
      bill_policy: true,
    });
    expect(result.values).toContainEqual({
      key: 'compression.threshold',
      value: 0.6,
      source: join(project('valid'), '.ctxhost', 'config.yaml'),
    });
    expect(result.values).toContainEqual({ key: 'context.engine', value: 'compressor', source: 'default' });
  });

  it('says when there is no project file and every other value is a default', async () => {
    process.env['CTXHOST_CONFIG_DIR'] = join(folder, 'no-user');
    try {
      const { code, stdout } = await runCtxhostInProcess(['config', 'check', '--cwd', project('empty')]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^no config files found .*; every value is a default$/m);
      expect(stdout).not.toMatch(/\.yaml$/m);
    } finally {
      process.env['CTXHOST_CONFIG_DIR'] = join(folder, 'user');
    }
  });

  it('reports every problem with file, line and column, one line each, exit code 1; --json lists them', async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess(['config', 'check', '--cwd', project('invalid')]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr.trimEnd().split('\n')).toEqual([
      'ctxhost: config .ctxhost/config.yaml:2:14 compression.threshold: expected a number between 0 and 1, got "half" [CTXHOST_CONFIG_INVALID]',
      expect.stringMatching(
        /^ctxhost: config \.ctxhost\/config\.yaml:5:5 hooks\.context-window-monitor\.warn_att: expected one of the keys .*, got "warn_att" \[CTXHOST_CONFIG_INVALID\]$/,
      ),
    ]);
    const json = await runCtxhostInProcess(['config', 'check', '--cwd', project('invalid'), '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: false,
      code: 'CTXHOST_CONFIG_INVALID',
      issues: [
        { file: '.ctxhost/config.yaml', line: 2, column: 14, path: 'compression.threshold' },
        { line: 5, column: 5 },
      ],
    });
  });

  it.each([
    [
      'unreadable',
      /^ctxhost: config \.ctxhost\/config\.yaml: expected a readable file .*EISDIR.* \[CTXHOST_CONFIG_UNREADABLE\]$/,
    ],
    ['missing', /^ctxhost: --cwd \/.*\/missing: no such directory \[CTXHOST_CLI_FILE_UNREADABLE\]$/],
  ])('refuses a %s config or folder with one line and exit code 1', async (name, message) => {
    const { code, stderr } = await runCtxhostInProcess(['config', 'check', '--cwd', project(name)]);
    expect(code).toBe(1);
    expect(stderr.trimEnd()).toMatch(message);
  });
});

describe('a cloned project whose config links to a secret', () => {
  it('is refused unread: no command prints the linked file, stderr names the link and its target', async () => {
    const secret = 'FAKEsecretVALUE-b7e2c4d19f';
    const environment = join(folder, 'dot-env');
    await writeFile(environment, `AWS_SECRET_ACCESS_KEY=${secret}\nGITHUB_TOKEN=ghp_${secret}\n`);
    await writeProject('linked-secret', undefined);
    await symlink(environment, join(project('linked-secret'), '.ctxhost', 'config.yaml'));
    await writeFile(join(project('linked-secret'), 'transcript.jsonl'), '');
    for (const args of [
      ['config', 'check'],
      ['compact', 'transcript.jsonl'],
      ['config', 'check', '--json'],
    ]) {
      const { code, stdout, stderr } = await runCtxhost(args, {
        cwd: project('linked-secret'),
        env: { CTXHOST_CONFIG_DIR: join(folder, 'user') },
      });
      expect(code).not.toBe(0);
      expect(stdout + stderr).not.toContain(secret);
      expect(stdout + stderr).toContain(`a symbolic link to ${environment}`);
    }
  });
});

describe('ctxhost config check tells the truth about hooks', () => {
  it('rejects hooks.session-hygiene.threshold, which nothing reads, saying why and what to do instead', async () => {
    const { code, stderr } = await runCtxhostInProcess(['config', 'check', '--cwd', project('hygiene-threshold')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^ctxhost: config \.ctxhost\/config\.yaml:3:5 hooks\.session-hygiene\.threshold: expected no keys: session hygiene has no settings .*disabled_hooks: \[session-hygiene\], got "threshold"/,
    );
  });

  it("joins the project's disabled_hooks to the user's, takes prompt-caching and the old recovery name, and warns about an unknown name with a suggestion", async () => {
    const { code, stdout } = await runCtxhostInProcess(['config', 'check', '--cwd', project('hook-names')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ctxhost config check: valid \(2 warnings\)$/m);
    expect(stdout).toMatch(
      /^warning: config \.ctxhost\/config\.yaml:3:5 disabled_hooks\[1\]: unknown hook "context-monitor", ignored; did you mean "context-window-monitor"\?/m,
    );
    expect(stdout).toMatch(
      /^warning: config \.ctxhost\/config\.yaml:4:5 disabled_hooks\[2\]: "anthropic-context-window-limit-recovery" is the old name of "anthropic-auto-compact"/m,
    );
    const json = JSON.parse(
      (await runCtxhostInProcess(['config', 'check', '--cwd', project('hook-names'), '--json'])).stdout,
    ) as { config: { disabled_hooks: string[] }; warnings: unknown[] };
    expect(json.config.disabled_hooks).toEqual(['session-hygiene', 'prompt-caching', 'anthropic-auto-compact']);
    expect(json.warnings).toHaveLength(2);
  });
});
