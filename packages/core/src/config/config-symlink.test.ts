import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { loadConfig } from './load-config.js';

const SECRET = 'FAKEsecretVALUE-7c1d0e55aa90';
let root: string;
let cwd: string;
let userConfigDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxhost-config-link-'));
  cwd = join(root, 'project');
  userConfigDir = join(root, 'user-config');
  await mkdir(join(cwd, '.ctxhost'), { recursive: true });
  await mkdir(userConfigDir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function errorText(): Promise<string> {
  const error = await loadConfig({ cwd, userConfigDir }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ConfigError.isInstance(error)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return `${error.message}\n${JSON.stringify((error as ConfigError).issues)}`;
}

/** Files a clone could link its config to: the environment, a private key, INI and JSON credentials. */
const TARGETS: Record<string, string> = {
  env: `AWS_SECRET_ACCESS_KEY=${SECRET}\nOPENAI_API_KEY=sk-${SECRET}\n`,
  key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}AAAAC3NzaC1lZDI1NTE5AAAAI\n-----END OPENSSH PRIVATE KEY-----\n`,
  ini: `[default]\naws_secret_access_key = ${SECRET}\n`,
  json: `{"token": "${SECRET}", "compression": 5}`,
  list: `- ${SECRET}\n- two\n`,
};

describe('a project config that links elsewhere', () => {
  it.each(Object.keys(TARGETS))('is refused unread when it links out of the project (%s)', async (name) => {
    const outside = join(root, `outside-${name}`);
    await writeFile(outside, TARGETS[name]!);
    await symlink(outside, join(cwd, '.ctxhost', 'config.yaml'));
    const text = await errorText();
    expect(text).not.toContain(SECRET);
    expect(text).toContain(`a symbolic link to ${outside}`);
    expect(text).toContain('a link out of the project is not followed');
  });

  it('is refused when the .ctxhost folder itself links out of the project', async () => {
    const outside = join(root, 'dotfiles');
    await mkdir(outside);
    await writeFile(join(outside, 'config.yaml'), TARGETS.env!);
    await rm(join(cwd, '.ctxhost'), { recursive: true });
    await symlink(outside, join(cwd, '.ctxhost'));
    expect(await errorText()).not.toContain(SECRET);
  });

  it('is read when it links to a file inside the project', async () => {
    await writeFile(join(cwd, 'ctxhost.yaml'), 'compression:\n  threshold: 0.6\n');
    await symlink(join(cwd, 'ctxhost.yaml'), join(cwd, '.ctxhost', 'config.yaml'));
    expect((await loadConfig({ cwd, userConfigDir })).config.compression.threshold).toBe(0.6);
  });

  it("the user's own config may link anywhere (it is the person's file)", async () => {
    const outside = join(root, 'dotfiles-config.yaml');
    await writeFile(outside, 'compression:\n  threshold: 0.3\n');
    await symlink(outside, join(userConfigDir, 'config.yaml'));
    expect((await loadConfig({ cwd, userConfigDir })).config.compression.threshold).toBe(0.3);
  });
});

describe('config errors quote at most the offending line', () => {
  it.each(Object.keys(TARGETS))('never quote a non-config file copied in as the config (%s)', async (name) => {
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), TARGETS[name]!);
    expect(await errorText()).not.toContain(SECRET);
  });

  it('quote a value up to its line break and 40 characters, with its length', async () => {
    await writeFile(
      join(cwd, '.ctxhost', 'config.yaml'),
      `compression:\n  threshold: |\n    half\n    ${SECRET}\nmodel:\n  name: { a: 1, b: 2 }\n`,
    );
    const text = await errorText();
    expect(text).not.toContain(SECRET);
    expect(text).toContain(
      'compression.threshold: expected a number between 0 and 1, got "half…" (34 characters, cut)',
    );
    expect(text).toMatch(/model\.name: expected [^,]+, got a mapping of 2 keys/);
  });

  it('quote a long single-line value cut at 40 characters', async () => {
    await writeFile(join(cwd, '.ctxhost', 'config.yaml'), `compression:\n  threshold: x${'y'.repeat(60)}${SECRET}\n`);
    const text = await errorText();
    expect(text).not.toContain(SECRET);
    expect(text).toContain(`"x${'y'.repeat(39)}…" (${1 + 60 + SECRET.length} characters, cut)`);
  });
});
