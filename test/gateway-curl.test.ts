import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// A client that is not TypeScript: curl (Debian has neither the Python anthropic nor the openai SDK),
// a conversation of eight turns that overflows a 5,000-token window directly and is answered through the gateway.
const run = promisify(execFile);
let sim: Simulator;
let gateway: Gateway;

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: 5000 });
  gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({}), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: 5000 } } }),
  });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});

async function curlConversation(baseUrl: string, stream: boolean): Promise<number[]> {
  const messages: { role: string; content: string }[] = [];
  const statuses: number[] = [];
  for (let turn = 0; turn < 8; turn++) {
    messages.push({ role: 'user', content: `turn ${turn}: ${'the ledger figure is 42. '.repeat(120)}` });
    const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 100, stream, messages });
    const { stdout } = await run('curl', [
      '-sS',
      '-N',
      '-o',
      '-',
      '-w',
      '\n%{http_code}',
      `${baseUrl}/v1/messages`,
      '-H',
      'x-api-key: caller-key',
      '-H',
      'anthropic-version: 2023-06-01',
      '-H',
      'content-type: application/json',
      '--data-binary',
      body,
    ]);
    const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
    statuses.push(status);
    if (status !== 200) break;
    const text = stream
      ? [...stdout.matchAll(/"text":"([^"]*)"/g)].map((match) => match[1]).join('')
      : ((JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) as { content: { text: string }[] }).content[0]?.text ??
        '');
    messages.push({ role: 'assistant', content: text });
  }
  return statuses;
}

describe('curl through the gateway', () => {
  it('gets the provider’s 400 when sent directly', async () => {
    expect(await curlConversation(sim.url, false)).toContain(400);
  });

  it.each([false, true])('gets an answer for every turn through the gateway (stream: %s)', async (stream) => {
    expect(await curlConversation(gateway.url, stream)).toEqual(Array(8).fill(200));
  });
});
