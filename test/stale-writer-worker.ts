/**
 * A second host, in a process of its own, on a PostgreSQL session another host has open (test/stale-writers.test.ts).
 *   node --import tsx --conditions=@ctxhost/source test/stale-writer-worker.ts <mode>
 * Environment: DATABASE_URL, STORE_SCHEMA, SESSION_ID, TURNS (how many user/assistant pairs), LABEL (their text).
 * Modes:
 *   append   opens the session and appends TURNS turns labelled LABEL.
 *   compact  opens the session, compacts it, then appends TURNS turns labelled LABEL.
 * Prints "done" and exits.
 */
import { createCompressor } from '@ctxhost/compressor';
import { createHost, type Message } from '@ctxhost/core';
import { createPostgresStore } from '@ctxhost/store-postgres';

const mode = process.argv[2];
const sessionId = requireEnv('SESSION_ID');
const label = requireEnv('LABEL');
const turns = Number(process.env.TURNS ?? '1');
const host = createHost({
  config: { model: { contextLength: 20_000 } },
  store: createPostgresStore({
    url: requireEnv('DATABASE_URL'),
    schema: requireEnv('STORE_SCHEMA'),
    maxConnections: 2,
  }),
  engine: createCompressor({ compression: { protectLastN: 2 } }),
});
const session = await host.session(sessionId);
if (mode === 'compact') {
  const outcome = await host.compact(sessionId);
  if (outcome.status !== 'completed') throw new Error(`worker compaction ${outcome.status}`);
} else if (mode !== 'append') throw new Error(`stale-writer-worker: unknown mode "${mode}"; use append or compact`);
for (let turn = 0; turn < turns; turn++) {
  await session.append(message(`${label}-q${turn}`, 'user', `${label} question ${turn}`));
  await session.append(message(`${label}-a${turn}`, 'assistant', `${label} answer ${turn}`));
}
await host.dispose();
process.stdout.write('done\n');

function message(id: string, role: 'user' | 'assistant', text: string): Message {
  return { id, role, parts: [{ id: `${id}-p`, type: 'text', text }] };
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`stale-writer-worker: set ${name}`);
  return value;
}
