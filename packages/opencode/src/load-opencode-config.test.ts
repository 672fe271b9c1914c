import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@ctxhost/core';
import { createOpencodeClient } from '@opencode-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOpencodeConfig, OPENCODE_CONFIG_FILE } from './load-opencode-config.js';

let base: string;
let project: string;
let user: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'ctxhost-opencode-config-'));
  project = join(base, 'project');
  user = join(base, 'user');
  await mkdir(join(project, '.ctxhost'), { recursive: true });
  await mkdir(join(project, '.opencode'), { recursive: true });
  await mkdir(user, { recursive: true });
});

afterEach(() => rm(base, { recursive: true, force: true }));

describe('loadOpencodeConfig', () => {
  it('reads the user file, then .ctxhost/config.yaml, then .opencode/ctxhost.yaml, key by key (disabled_hooks joined)', async () => {
    await writeFile(join(user, 'config.yaml'), 'model:\n  context_length: 100000\ndisabled_hooks: [session-hygiene]\n');
    await writeFile(
      join(project, '.ctxhost', 'config.yaml'),
      'hooks:\n  tool-output-truncator:\n    max_tokens: 2000\n',
    );
    await writeFile(
      join(project, OPENCODE_CONFIG_FILE),
      'disabled_hooks: [context-window-monitor]\nhooks:\n  context-window-monitor:\n    warn_at: 0.6\n',
    );
    const { config, files } = await loadOpencodeConfig({ directory: project, userConfigDir: user });
    expect(files).toEqual([
      join(user, 'config.yaml'),
      join(project, '.ctxhost', 'config.yaml'),
      join(project, OPENCODE_CONFIG_FILE),
    ]);
    expect(config.model.contextLength).toBe(100_000);
    expect([...config.disabledHooks].sort()).toEqual(['context-window-monitor', 'session-hygiene']);
    expect(config.hooks['tool-output-truncator']).toMatchObject({ max_tokens: 2000 });
    expect(config.hooks['context-window-monitor']).toMatchObject({ warn_at: 0.6 });
  });

  it('works with no file at all', async () => {
    const { config, files } = await loadOpencodeConfig({ directory: project, userConfigDir: user });
    expect(files).toEqual([]);
    expect(config.disabledHooks).toEqual([]);
  });

  it('names .opencode/ctxhost.yaml and the key when a value is wrong', async () => {
    await writeFile(join(project, OPENCODE_CONFIG_FILE), 'hooks:\n  tool-output-truncator:\n    max_tokens: lots\n');
    const error = await loadOpencodeConfig({ directory: project, userConfigDir: user }).catch(
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(
      /\.opencode\/ctxhost\.yaml:3.*hooks\.tool-output-truncator\.max_tokens/,
    );
  });

  it('checks the recovery cascade’s section (hooks.anthropic-auto-compact) in the file too', async () => {
    await writeFile(
      join(project, OPENCODE_CONFIG_FILE),
      'hooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 100\n',
    );
    const { config } = await loadOpencodeConfig({ directory: project, userConfigDir: user });
    expect(config.hooks['anthropic-auto-compact']).toMatchObject({ initial_delay_ms: 100, plan: true });
    await writeFile(join(project, OPENCODE_CONFIG_FILE), 'hooks:\n  anthropic-auto-compact:\n    initial_delay: 100\n');
    const error = await loadOpencodeConfig({ directory: project, userConfigDir: user }).catch(
      (caught: unknown) => caught,
    );
    expect(String((error as Error).message)).toMatch(/hooks\.anthropic-auto-compact\.initial_delay/);
  });

  it('says each warning once in opencode’s log and in one toast, and still loads the config', async () => {
    await writeFile(join(project, OPENCODE_CONFIG_FILE), 'disabled_hooks: [context-window-monitr, session-hygiene]\n');
    const { requests, received, baseUrl, close } = await recordingOpencodeServer();
    try {
      const client = createOpencodeClient({ baseUrl });
      const { config } = await loadOpencodeConfig({ directory: project, userConfigDir: user, client });
      expect(config.disabledHooks).toEqual(['session-hygiene']);
      await received(2);
      expect(requests).toHaveLength(2);
      const warning = `ctxhost: warning: config ${OPENCODE_CONFIG_FILE}:1:18 disabled_hooks[0]: unknown hook "context-window-monitr", ignored; did you mean "context-window-monitor"?`;
      const log = requests.find((request) => request.url === '/log');
      expect(log?.body).toMatchObject({ service: 'ctxhost', level: 'warn' });
      expect((log?.body as { message: string }).message).toContain(warning);
      const toast = requests.find((request) => request.url === '/tui/show-toast');
      expect(toast?.body).toMatchObject({ title: 'ctxhost config', variant: 'warning' });
      expect((toast?.body as { message: string }).message).toContain(warning);
    } finally {
      await close();
    }
  });

  it('sends nothing when the config has no warning', async () => {
    await writeFile(join(project, OPENCODE_CONFIG_FILE), 'disabled_hooks: [session-hygiene]\n');
    const { requests, baseUrl, close } = await recordingOpencodeServer();
    try {
      await loadOpencodeConfig({ directory: project, userConfigDir: user, client: createOpencodeClient({ baseUrl }) });
      // Any request loadOpencodeConfig sent started before this one, so it has arrived by the time this one has.
      await createOpencodeClient({ baseUrl }).app.log({ body: { service: 'test', level: 'info', message: 'end' } });
      expect(requests.map((request) => request.url)).toEqual(['/log']);
      expect(requests[0]?.body).toMatchObject({ service: 'test' });
    } finally {
      await close();
    }
  });
});

/** Answers opencode's log and toast endpoints with `true`, as opencode's server does, and keeps each request. */
async function recordingOpencodeServer(): Promise<{
  requests: { url: string | undefined; body: unknown }[];
  /** Resolves once `count` requests have arrived (the ones under test are not awaited by the code). */
  received: (count: number) => Promise<void>;
  baseUrl: string;
  close: () => Promise<void>;
}> {
  const requests: { url: string | undefined; body: unknown }[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      requests.push({ url: request.url, body: JSON.parse(text) });
      for (const waiter of waiting) if (requests.length >= waiter.count) waiter.resolve();
      response.writeHead(200, { 'content-type': 'application/json' }).end('true');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    received: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
