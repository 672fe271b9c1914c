import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCompressor } from '@ctxhost/compressor';
import { createHost, type CompactionFailedEvent, type Host, type Message } from '@ctxhost/core';
import { createPostgresStore } from '@ctxhost/store-postgres';
import {
  dropSchema,
  testDatabaseUrl,
  uniqueSchemaName,
} from '../packages/store-postgres/src/test-database.test-helper.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./stale-writer-worker.ts', import.meta.url));
const schema = uniqueSchemaName('stale');
const hosts: Host[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.dispose()));
});
afterAll(async () => {
  await dropSchema(schema);
});

/** A host on the shared PostgreSQL schema with the built-in compressor (no summarizer: an extractive summary). */
function openHost(): { host: Host; compactionRuns: () => number; failures: CompactionFailedEvent[] } {
  const compressor = createCompressor({ compression: { protectLastN: 2 } });
  let runs = 0;
  const host = createHost({
    config: { model: { contextLength: 20_000 } },
    store: createPostgresStore({ url: testDatabaseUrl(), schema, maxConnections: 2 }),
    engine: {
      name: compressor.name,
      shouldCompress: (state) => compressor.shouldCompress(state),
      compress: (messages, context) => {
        runs++;
        return compressor.compress(messages, context);
      },
    },
  });
  const failures: CompactionFailedEvent[] = [];
  host.hooks.compactionFailed.tapPromise('test', async (event) => {
    failures.push(event);
  });
  hosts.push(host);
  return { host, compactionRuns: () => runs, failures };
}

/** Twelve long turns: enough for the compressor to fold the older ones into a summary. */
async function seed(host: Host, sessionId: string): Promise<void> {
  const session = await host.session(sessionId);
  for (let turn = 0; turn < 12; turn++) {
    await session.append(
      message(`seed-q${turn}`, 'user', `question ${turn}: ${'why does the build fail? '.repeat(40)}`),
    );
    await session.append(
      message(`seed-a${turn}`, 'assistant', `answer ${turn}: ${'the cache key is wrong. '.repeat(40)}`),
    );
  }
}

/** What a host opening the session now would send the model. */
async function freshProjectionText(sessionId: string): Promise<string> {
  const { host } = openHost();
  return JSON.stringify((await host.session(sessionId)).messages());
}

// Child processes start tsx: give a loaded 2-core machine time (nothing here asserts timing).
describe('two hosts in two processes on one PostgreSQL session', { timeout: 120_000 }, () => {
  it("a compaction on a stale view keeps the other host's newest turns: carried after the result, the engine run once", async () => {
    const { host, compactionRuns, failures } = openHost();
    await seed(host, 'appended-elsewhere');
    await runWorker('append', 'appended-elsewhere', { LABEL: 'other-host', TURNS: '2' });

    const outcome = await host.compact('appended-elsewhere');
    expect(outcome.status).toBe('completed');
    expect(compactionRuns()).toBe(1);
    expect(failures).toStrictEqual([]);
    const seen = await freshProjectionText('appended-elsewhere');
    for (const text of ['other-host question 0', 'other-host answer 1']) expect(seen).toContain(text);
    expect(outcome.status === 'completed' && outcome.report.notes?.join('; ')).toMatch(
      /another writer appended 4 messages/,
    );
    // This host's own view was brought up to date too: its next turn follows the other host's.
    expect(JSON.stringify((await host.session('appended-elsewhere')).messages())).toContain('other-host answer 1');
  });

  it('a compaction on a view another host compacted since is refused, recorded, and redone on the fresh view', async () => {
    const { host, compactionRuns, failures } = openHost();
    await seed(host, 'compacted-elsewhere');
    await runWorker('compact', 'compacted-elsewhere', { LABEL: 'other-host', TURNS: '1' });

    const outcome = await host.compact('compacted-elsewhere');
    expect(compactionRuns()).toBe(2);
    expect(failures[0]!.error).toMatch(/out-of-date view.*redone on the fresh view/);
    // The redo compacts the other host's compaction and what followed it: too little to save anything now.
    expect(outcome.status).toBe('unchanged');
    expect(failures.slice(1).map((failure) => failure.error)).toStrictEqual([expect.stringMatching(/^saved nothing/)]);
    const seen = await freshProjectionText('compacted-elsewhere');
    for (const text of ['other-host question 0', 'other-host answer 0']) expect(seen).toContain(text);
    const log = await host.store.read('compacted-elsewhere');
    expect(log.flatMap((event) => (event.type === 'compaction.failed' ? [event.error] : []))).toStrictEqual(
      failures.map((failure) => failure.error),
    );
  });
});

function message(id: string, role: 'user' | 'assistant', text: string): Message {
  return { id, role, parts: [{ id: `${id}-p`, type: 'text', text }] };
}

function runWorker(mode: string, sessionId: string, environment: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ctxhost/source', WORKER, mode], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL: testDatabaseUrl(),
      STORE_SCHEMA: schema,
      SESSION_ID: sessionId,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 && output.includes('done') ? resolve() : reject(new Error(`worker exited with ${code}: ${output}`)),
    ),
  );
}
