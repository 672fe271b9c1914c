import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextEngine } from '../engines/context-engine.js';
import type { Message } from '../model/message.js';
import { createFileStore } from '../stores/file-store.js';
import { createHost } from './create-host.js';
import type { Host } from './host.js';

const text = (id: string, role: Message['role'], body: string): Message => ({
  id,
  role,
  parts: [{ id: `${id}:0`, type: 'text', text: body }],
});

/** Folds everything but the last two messages into one user message naming what it folded. */
function foldingEngine(runs: { count: number }): ContextEngine {
  return {
    name: 'fold',
    shouldCompress: () => false,
    async compress(messages, context) {
      runs.count++;
      const kept = messages.slice(-2);
      const folded = messages.slice(0, -2);
      const result = [text(`fold-${runs.count}`, 'user', `folded ${folded.length} messages`), ...kept];
      return {
        messages: result,
        report: {
          engine: 'fold',
          reason: context.reason,
          tokensBefore: context.counter.countAll(messages),
          tokensAfter: context.counter.countAll(result),
          messagesBefore: messages.length,
          messagesAfter: result.length,
        },
      };
    },
  };
}

const hosts: Host[] = [];
afterEach(async () => {
  // Both hosts share one store: the first dispose closes it.
  for (const host of hosts.splice(0).reverse()) await host.dispose();
});

describe('two hosts sharing one file store', () => {
  it("never applies a compaction computed before the other host's turns; carries them after the result", async () => {
    const store = createFileStore({ directory: mkdtempSync(join(tmpdir(), 'ctxhost-stale-')) });
    const runs = { count: 0 };
    const config = { model: { contextLength: 50_000 } };
    const first = createHost({ config, store, engine: foldingEngine(runs), enginePlugin: false });
    const second = createHost({ config, store, engine: foldingEngine(runs), enginePlugin: false });
    hosts.push(second, first);
    const mine = await first.session('shared');
    for (let index = 0; index < 8; index++)
      await mine.append(text(`m${index}`, index % 2 === 0 ? 'user' : 'assistant', `turn ${index} ${'x'.repeat(400)}`));
    const theirs = await second.session('shared');
    expect(theirs.messages()).toHaveLength(8);
    await theirs.append(text('other-q', 'user', 'the newest question, from the other host'));
    await theirs.append(text('other-a', 'assistant', 'its answer'));

    const outcome = await first.compact('shared');
    expect(outcome.status).toBe('completed');
    expect(runs.count).toBe(1);
    const reopened = createHost({ config, store, engine: foldingEngine(runs), enginePlugin: false });
    hosts.unshift(reopened);
    const seen = (await reopened.session('shared')).messages().map((message) => message.id);
    expect(seen).toStrictEqual(['fold-1', 'm6', 'm7', 'other-q', 'other-a']);
  });

  it('redoes a compaction whose view the other host compacted meanwhile, and keeps what that host appended', async () => {
    const store = createFileStore({ directory: mkdtempSync(join(tmpdir(), 'ctxhost-stale-')) });
    const runs = { count: 0 };
    const config = { model: { contextLength: 50_000 } };
    const first = createHost({ config, store, engine: foldingEngine(runs), enginePlugin: false });
    const second = createHost({ config, store, engine: foldingEngine(runs), enginePlugin: false });
    hosts.push(second, first);
    const mine = await first.session('shared');
    for (let index = 0; index < 8; index++)
      await mine.append(text(`m${index}`, index % 2 === 0 ? 'user' : 'assistant', `turn ${index} ${'x'.repeat(400)}`));
    await second.session('shared');
    expect((await second.compact('shared')).status).toBe('completed');
    const theirs = await second.session('shared');
    for (let index = 0; index < 4; index++)
      await theirs.append(
        text(`o${index}`, index % 2 === 0 ? 'user' : 'assistant', `other ${index} ${'y'.repeat(400)}`),
      );

    const outcome = await first.compact('shared');
    expect(outcome.status).toBe('completed');
    expect(runs.count).toBe(3);
    const failed = (await store.read('shared')).flatMap((event) =>
      event.type === 'compaction.failed' ? [event.error] : [],
    );
    expect(failed).toStrictEqual([expect.stringMatching(/out-of-date view.*redone on the fresh view/)]);
    expect(mine.messages().map((message) => message.id)).toStrictEqual(['fold-3', 'o2', 'o3']);
    expect(mine.messages()[0]!.parts[0]).toMatchObject({ text: 'folded 5 messages' });
  });
});
