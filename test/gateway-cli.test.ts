import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { startGatewayProcess } from './support/gateway-process.js';

let sim: Simulator;
let project: string;

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: 5000 });
  project = await mkdtemp(join(tmpdir(), 'ctxhost-gateway-cli-'));
  await mkdir(join(project, '.ctxhost'));
  await writeFile(
    join(project, '.ctxhost', 'config.yaml'),
    [
      'store:',
      '  kind: memory',
      'hooks:',
      '  gateway:',
      '    models:',
      '      claude-sonnet-4-6: { context_window: 5000 }',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await sim.close();
  await rm(project, { recursive: true, force: true });
});

describe('ctxhost gateway as a process', () => {
  it('forwards to --upstream with the window from the project config, and stops cleanly on SIGTERM', async () => {
    const gateway = startGatewayProcess(['--upstream', sim.url, '--cwd', project], {
      env: { CTXHOST_CONFIG_DIR: join(project, 'user-config') },
    });
    const url = await gateway.url;
    const client = new Anthropic({ apiKey: 'caller-key', baseURL: url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [];
    for (let turn = 0; turn < 8; turn++) {
      messages.push({ role: 'user', content: `turn ${turn}: ${'note the figure 42 '.repeat(150)}` });
      const reply = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages });
      messages.push({ role: 'assistant', content: reply.content });
    }
    expect(sim.requests.every((request) => request.status === 200)).toBe(true);
    // The caller's own credentials, as the SDK sent them (the gateway keeps none).
    const auth = sim.requests.at(-1)?.headers;
    expect(`${auth?.['x-api-key'] ?? ''} ${auth?.['authorization'] ?? ''}`).toContain('caller-key');
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exit;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain('ctxhost gateway stopped (SIGTERM)');
  });

  it('refuses an --upstream that is not an http(s) URL', async () => {
    const gateway = startGatewayProcess(['--upstream', 'ftp://example'], { cwd: project });
    const exit = await gateway.exit;
    expect(exit.code).not.toBe(0);
    expect(exit.stderr).toContain('--upstream ftp://example is not an http(s) URL');
  });
});
