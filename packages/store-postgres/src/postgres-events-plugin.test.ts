import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '@ctxhost/core';
import { textMessage } from '../../core/src/stores/store-contract.test-helper.js';
import { createPostgresEventsPlugin } from './postgres-events-plugin.js';
import { createPostgresStore } from './postgres-store.js';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './test-database.test-helper.js';

const schema = uniqueSchemaName('events');
const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.dispose()));
});
afterAll(() => dropSchema(schema));

/** A worker: a host on its own store instance, with the events plugin, recording what its hooks see. */
async function startWorker(events?: ('session.deleted' | 'compaction.completed')[]) {
  const store = createPostgresStore({ url: testDatabaseUrl(), schema });
  const plugin = createPostgresEventsPlugin(store, events === undefined ? {} : { events });
  const host = createHost({ store, plugins: [plugin] });
  hosts.push(host);
  const seen: string[] = [];
  host.hooks.sessionDeleted.tap('recorder', (event) => void seen.push(`deleted ${event.sessionId}`));
  host.hooks.compactionCompleted.tap(
    'recorder',
    (event) => void seen.push(`compacted ${event.sessionId} ${event.report.tokensAfter}`),
  );
  await plugin.ready;
  return { host, seen };
}

describe('createPostgresEventsPlugin', () => {
  it("re-emits another worker's session.deleted and compaction.completed, and never repeats a worker's own", async () => {
    const [left, right] = [await startWorker(), await startWorker()];
    const session = await left.host.session('chat-1');
    await session.append(textMessage('m1', 'hello'));
    await session.applyCompaction([textMessage('sum', 'summary')], {
      engine: 'test',
      reason: 'manual',
      tokensBefore: 50,
      tokensAfter: 5,
      messagesBefore: 1,
      messagesAfter: 1,
    });
    await session.delete();
    await waitFor(() => right.seen.length >= 2);
    expect(right.seen).toStrictEqual(['compacted chat-1 5', 'deleted chat-1']);
    // A notification of left's own would arrive after right's; give it the same time, then check left saw each event once.
    await (await right.host.session('chat-2')).delete();
    await waitFor(() => left.seen.length >= 3);
    expect(left.seen).toStrictEqual(['compacted chat-1 5', 'deleted chat-1', 'deleted chat-2']);
  });

  it('re-emits only the events it is asked to', async () => {
    const [left, right] = [await startWorker(), await startWorker(['session.deleted'])];
    const session = await left.host.session('chat-3');
    await session.applyCompaction([textMessage('sum', 'summary')], {
      engine: 'test',
      reason: 'manual',
      tokensBefore: 50,
      tokensAfter: 7,
      messagesBefore: 1,
      messagesAfter: 1,
    });
    await session.delete();
    await waitFor(() => right.seen.length >= 1);
    expect(right.seen).toStrictEqual(['deleted chat-3']);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 20));
}
