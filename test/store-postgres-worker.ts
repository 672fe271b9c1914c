/**
 * A worker process for the multi-process tests and the bench.
 *   node --import tsx --conditions=@ctxhost/source test/store-postgres-worker.ts <mode>
 * Environment: DATABASE_URL, STORE_SCHEMA, SESSION_ID, WORKER_NAME, ITERATIONS.
 * Modes:
 *   hammer  ITERATIONS times: a locked section (recording enter/exit server times in
 *           <schema>.lock_intervals, appending one event and retrying it with the same
 *           event id, reading the log back: no other locked append may follow it), then one
 *           unlocked append.
 *   hold    takes the session lock, appends one event, prints "locked", and waits forever.
 */
import { createPostgresStore } from '@ctxhost/store-postgres';

const mode = process.argv[2];
const schema = requireEnv('STORE_SCHEMA');
const sessionId = requireEnv('SESSION_ID');
const worker = process.env.WORKER_NAME ?? String(process.pid);
const store = createPostgresStore({ url: requireEnv('DATABASE_URL'), schema, maxConnections: 3 });

if (mode === 'hammer') await hammer(Number(process.env.ITERATIONS ?? '20'));
else if (mode === 'hold') await hold();
else throw new Error(`store-worker: unknown mode "${mode}"; use hammer or hold`);

async function hammer(iterations: number): Promise<void> {
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    await store.withSessionLock(sessionId, async () => {
      const entered = await store.pool.query<{ id: number }>(
        `INSERT INTO "${schema}".lock_intervals (worker, iteration, entered_at) VALUES ($1, $2, clock_timestamp()) RETURNING id`,
        [worker, iteration],
      );
      const event = {
        type: 'message.appended' as const,
        message: {
          id: `${worker}-${iteration}`,
          role: 'user' as const,
          parts: [{ id: `${worker}-${iteration}-p`, type: 'text' as const, text: `locked ${iteration}` }],
        },
      };
      const first = await store.append(sessionId, event, { eventId: `${worker}-locked-${iteration}` });
      const retry = await store.append(sessionId, event, { eventId: `${worker}-locked-${iteration}` });
      if (retry.seq !== first.seq) throw new Error(`retried append got seq ${retry.seq}, first had ${first.seq}`);
      const log = await store.read(sessionId);
      const lockedSince = log.filter((stored) => stored.seq > first.seq && stored.eventId.includes('-locked-'));
      if (lockedSince.length > 0)
        throw new Error(`another locked section appended inside this one: ${lockedSince[0]!.eventId}`);
      await store.pool.query(`UPDATE "${schema}".lock_intervals SET exited_at = clock_timestamp() WHERE id = $1`, [
        entered.rows[0]!.id,
      ]);
    });
    const free = {
      type: 'message.appended' as const,
      message: {
        id: `${worker}-free-${iteration}`,
        role: 'assistant' as const,
        parts: [{ id: `${worker}-free-${iteration}-p`, type: 'text' as const, text: 'unlocked' }],
      },
    };
    await store.append(sessionId, free, { eventId: `${worker}-free-${iteration}` });
  }
  await store.close();
  process.stdout.write('done\n');
}

async function hold(): Promise<void> {
  await store.withSessionLock(sessionId, async () => {
    await store.append(
      sessionId,
      {
        type: 'message.appended',
        message: {
          id: 'held',
          role: 'user',
          parts: [{ id: 'held-p', type: 'text', text: 'written by the worker that dies' }],
        },
      },
      { eventId: 'held' },
    );
    process.stdout.write('locked\n');
    await new Promise(() => undefined);
  });
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`store-worker: set ${name}`);
  return value;
}
