import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import {
  dropSchema,
  testDatabaseUrl,
  uniqueSchemaName,
} from '../packages/store-postgres/src/test-database.test-helper.js';

// Needs PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, as the store's own tests).
// Two `startGateway` processes share one PostgreSQL store behind a balancer that alternates requests between
// them: every request is answered, and the same prompt gets the same projection whichever process serves it.
const WORKER = fileURLToPath(new URL('./gateway-fleet-worker.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
const WINDOW = 6000;
const MODEL = 'claude-sonnet-4-6';
const TURNS = 10;
const CONVERSATIONS = 3;

const schema = uniqueSchemaName('gateway_fleet');
let sim: Simulator;
const children: ChildProcess[] = [];
let urls: string[] = [];

function startWorker(): Promise<string> {
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@ctxhost/source', WORKER], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SIM_URL: sim.url,
      WINDOW: String(WINDOW),
      DATABASE_URL: testDatabaseUrl(),
      STORE_SCHEMA: schema,
    },
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url !== undefined) resolve(url);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`gateway worker exited (${code}): ${output}`)));
  });
}

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: WINDOW, acceptAnyModel: true });
  urls = await Promise.all([startWorker(), startWorker()]);
}, 120_000);
afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await sim.close();
  await dropSchema(schema);
});

const userText = (conversation: number, turn: number) =>
  `conversation ${conversation} turn ${turn}: ${'remember the figure 42 for the ledger '.repeat(100)}`;

/** One conversation, each request to the next gateway in turn (`first` picks where it starts); the prompts the upstream got, in order. */
async function conversation(id: number, first: number): Promise<unknown[]> {
  const clients = urls.map((baseURL) => new Anthropic({ apiKey: 'caller-key', baseURL, maxRetries: 0 }));
  const messages: Anthropic.MessageParam[] = [];
  const sent: unknown[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({ role: 'user', content: userText(id, turn) });
    const from = sim.requests.length;
    const client = clients[(first + turn) % clients.length]!;
    const reply = await client.messages.create({ model: MODEL, max_tokens: 200, messages });
    expect(reply.content.length).toBeGreaterThan(0);
    messages.push({ role: 'assistant', content: reply.content });
    const received = sim.requests.slice(from);
    expect(received.map((request) => request.status)).toEqual([200]);
    sent.push((received[0]!.body as { messages: unknown }).messages);
  }
  return sent;
}

describe('two gateway processes on one PostgreSQL store', { timeout: 300_000 }, () => {
  it('behave as one gateway: every request answered, the same projection for the same prompt on either', async () => {
    for (let id = 0; id < CONVERSATIONS; id++) {
      // The same conversation twice, each turn served by the other process the second time.
      const once = await conversation(id, 0);
      const again = await conversation(id, 1);
      expect(again).toEqual(once);
      // It overflowed the window without the gateway: the projection was smaller than the prompt.
      const last = once.at(-1) as { content: unknown }[];
      expect(last.length).toBeLessThan(2 * TURNS - 1);
    }
  });
});
