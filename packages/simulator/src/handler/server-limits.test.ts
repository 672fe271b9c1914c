import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';

const post = (url: string, body: string) =>
  fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'test', 'anthropic-version': '2023-06-01' },
    body,
  });

describe('simulator limits', () => {
  it('answers a deeply nested body with 400 invalid_request_error, not 500', async () => {
    const simulator = await startSimulator();
    try {
      const deep = `{"model":"claude-sonnet-4-6","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const response = await post(simulator.url, deep);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { type: string; message: string } }).error).toMatchObject({
        type: 'invalid_request_error',
        message: expect.stringContaining('nested more than'),
      });
    } finally {
      await simulator.close();
    }
  });

  it('close() leaves no fault timer running: a process that closes it exits at once', { timeout: 30_000 }, async () => {
    const script = `
      import { startSimulator } from ${JSON.stringify(fileURLToPath(new URL('./server.ts', import.meta.url)))};
      const simulator = await startSimulator();
      simulator.faults.next(1, { kind: 'slow', delayMs: 20000 });
      fetch(simulator.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }) }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await simulator.close();
      console.log('closed ' + Date.now());
    `;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@ctxhost/source', '--input-type=module', '-e', script],
      { cwd: fileURLToPath(new URL('../../../../', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => child.once('exit', resolve));
    const closedAt = Number(/closed (\d+)/.exec(output)?.[1]);
    expect(Date.now() - closedAt).toBeLessThan(5_000);
  });

  it('keeps only the newest maxRecordedRequests requests', async () => {
    const simulator = await startSimulator({ maxRecordedRequests: 3 });
    try {
      for (let index = 0; index < 5; index += 1)
        await (
          await post(
            simulator.url,
            JSON.stringify({
              model: 'claude-sonnet-4-6',
              max_tokens: 10,
              messages: [{ role: 'user', content: `turn ${index}` }],
            }),
          )
        ).text();
      expect(
        simulator.requests.map((request) => (request.body as { messages: { content: string }[] }).messages[0]!.content),
      ).toStrictEqual(['turn 2', 'turn 3', 'turn 4']);
    } finally {
      await simulator.close();
    }
  });

  it('keeps recorded requests within maxRecordedBytes, the oldest dropped first', async () => {
    const simulator = await startSimulator({
      maxRecordedBytes: 2_500,
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
    });
    try {
      for (let index = 0; index < 5; index += 1)
        await (
          await post(
            simulator.url,
            JSON.stringify({
              model: 'claude-sonnet-4-6',
              max_tokens: 10,
              messages: [{ role: 'user', content: `turn ${index} ${'x'.repeat(1_000)}` }],
            }),
          )
        ).text();
      expect(
        simulator.requests.map(
          (request) => (request.body as { messages: { content: string }[] }).messages[0]!.content.split(' ')[1],
        ),
      ).toStrictEqual(['3', '4']);
    } finally {
      await simulator.close();
    }
  });
});
