import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../host/create-host.js';
import type { ContextEngine } from '../engines/context-engine.js';
import type { Message } from '../model/message.js';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import { createMemoryStore } from '../stores/memory-store.js';
import { createFileStore } from '../stores/file-store.js';
import type { SessionStore } from '../stores/session-store.js';
import { createStatelessContext } from './stateless-context.js';

/** The prompt shape of a tiny framework: role and text. */
interface Item {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

const map = (item: Item, id: string): MappedPromptItem<string> => ({
  ok: true,
  message: { id, role: item.role, parts: [{ id: `${id}:0`, type: 'text', text: item.text }] },
  sourceParts: [item.text],
});

/** Summarizes everything but the last two messages into one user message that quotes them (so a leak is visible). */
function summarizingEngine(options: { invalid?: boolean } = {}): ContextEngine & { options: { invalid?: boolean } } {
  return {
    options,
    name: 'summarize-all',
    shouldCompress: (state) => state.messageCount > 6,
    async compress(messages) {
      const kept = messages.slice(-2);
      const summarized = messages.slice(0, -2).filter((message) => message.role !== 'system');
      const text = summarized
        .map((message) => (message.parts[0]?.type === 'text' ? message.parts[0].text : ''))
        .join(' | ');
      const summary: Message = {
        id: `summary-${summarized.length}`,
        role: options.invalid === true ? 'assistant' : 'user',
        parts: [{ id: `summary-${summarized.length}:0`, type: 'text', text: `summary: ${text}` }],
        meta: {
          summary: {
            covers: { first: summarized[0]!.id, last: summarized.at(-1)!.id, count: summarized.length },
            engine: 'summarize-all',
          },
        },
      };
      const system = messages.filter((message) => message.role === 'system');
      const result = [...system, summary, ...kept];
      return {
        messages: result,
        report: {
          engine: 'summarize-all',
          reason: 'threshold',
          tokensBefore: 1000,
          tokensAfter: 10,
          messagesBefore: messages.length,
          messagesAfter: result.length,
        },
      };
    },
  };
}

function worker(store: SessionStore, engine: ContextEngine = summarizingEngine()) {
  const host = createHost({ store, engine, config: { model: { contextLength: 100_000 } } });
  return { host, context: createStatelessContext<Item, string>({ host: () => host, name: 'test', map }) };
}

function conversation(marker: string, turns: number): Item[] {
  const items: Item[] = [
    { role: 'system', text: 'You are helpful.' },
    { role: 'user', text: 'hello' },
  ];
  for (let turn = 0; turn < turns; turn++)
    items.push({ role: 'assistant', text: `answer ${turn}` }, { role: 'user', text: `${marker} question ${turn}` });
  return items;
}

const texts = (messages: readonly Message[] | undefined) =>
  (messages ?? []).map((message) => (message.parts[0]?.type === 'text' ? message.parts[0].text : '')).join('\n');

const request = { model: 'test-model', maxOutputTokens: 1000 };

describe('createStatelessContext', () => {
  it('never lets one conversation’s summary reach another that opens the same way', async () => {
    const { context } = worker(createMemoryStore());
    const alice = conversation('ALICE-SECRET', 5);
    const compacted = await context.prepare(alice, request);
    expect(texts(compacted.messages)).toContain('summary:');
    const bob = conversation('BOB', 1);
    for (let turns = 1; turns <= 5; turns++) {
      const turn = await context.prepare(conversation('BOB', turns), request);
      expect(texts(turn.messages)).not.toContain('ALICE-SECRET');
      await turn.run(async () => 'ok');
    }
    expect(bob.length).toBe(4);
  });

  it('reuses a live view for a prompt that extends it, appending only the new messages', async () => {
    const { context } = worker(createMemoryStore());
    for (let turns = 1; turns <= 6; turns++) {
      const turn = await context.prepare(conversation('X', turns), request);
      await turn.run(async () => 'ok');
    }
    expect(context.stats().views).toBe(1);
  });

  it('gives two workers on one store the same projection of the same prompt, and each reuses the other’s compaction', async () => {
    const store = createFileStore({ directory: mkdtempSync(join(tmpdir(), 'ctxhost-stateless-')) });
    const first = worker(store);
    const second = worker(store);
    const prompt = conversation('SHARED', 5);
    const a = await first.context.prepare(prompt, request);
    const b = await second.context.prepare(prompt, request);
    expect(JSON.stringify(b.messages)).toBe(JSON.stringify(a.messages));
    const longer = [
      ...prompt,
      { role: 'assistant' as const, text: 'more' },
      { role: 'user' as const, text: 'and more' },
    ];
    const c = await second.context.prepare(longer, request);
    expect(texts(c.messages)).toContain('summary:');
    await store.close();
  });

  it('does not use a summary when the caller deleted a turn it covers', async () => {
    const { context } = worker(createMemoryStore());
    const prompt = conversation('KEEP', 5);
    const compacted = await context.prepare(prompt, request);
    await compacted.run(async () => 'ok');
    expect(texts(compacted.messages)).toContain('KEEP question 0');
    const edited = prompt.filter((item) => item.text !== 'KEEP question 0' && item.text !== 'answer 1');
    const turn = await context.prepare(edited.slice(0, 6), request);
    expect(texts(turn.messages)).not.toContain('KEEP question 0');
  });

  it('sends the caller’s prompt and says so once when the engine returns an invalid projection', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { context } = worker(createMemoryStore(), summarizingEngine({ invalid: true }));
    for (let index = 0; index < 2; index++) {
      const turn = await context.prepare(conversation('Y', 5 + index), request);
      expect(turn.messages).toBeUndefined();
      expect(await turn.run(async (messages) => messages)).toBeUndefined();
    }
    const said = warnings.mock.calls.map((call) => String(call[0]));
    expect(said.filter((line) => line.includes('engine "summarize-all"'))).toHaveLength(1);
    expect(said[0]).toMatch(/first_not_user/);
    warnings.mockRestore();
  });

  it('sends the last valid projection of the prefix plus the new messages when the engine fails later, and says so once', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const store = createMemoryStore();
    const engine = summarizingEngine();
    const { context } = worker(store, engine);
    const compacted = await context.prepare(conversation('V', 5), request);
    await compacted.run(async () => 'ok');
    engine.options.invalid = true;
    // Another worker on the same store: its view opens from the stored compaction, and the engine's next one is invalid.
    const other = worker(store, engine).context;
    for (const turns of [8, 9]) {
      const turn = await other.prepare(conversation('V', turns), request);
      const sent = await turn.run(async (messages) => messages);
      expect(sent).toBe(turn.messages);
      expect(texts(sent).split('\n').slice(0, 2)).toEqual([
        'You are helpful.',
        texts(compacted.messages).split('\n')[1],
      ]);
      expect(texts(sent)).toContain(`V question ${turns - 1}`);
      expect(sent).toHaveLength(4 + 2 * (turns - 5));
    }
    const said = warnings.mock.calls.map((call) => String(call[0]));
    expect(said.filter((line) => line.includes('engine "summarize-all"'))).toHaveLength(1);
    expect(said[0]).toContain('the last valid projection of its prefix');
    warnings.mockRestore();
  });

  it('still answers when the store fails, keeping compactions in memory, and says so once', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const broken = createMemoryStore();
    broken.putEntry = () => Promise.reject(new Error('connection refused'));
    broken.entryHeads = () => Promise.reject(new Error('connection refused'));
    const { context } = worker(broken);
    for (let turns = 5; turns <= 7; turns++) {
      const turn = await context.prepare(conversation('Z', turns), request);
      expect(texts(turn.messages)).toContain('summary:');
      expect(await turn.run(async () => 'answered')).toBe('answered');
    }
    const said = warnings.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('store'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('connection refused');
    warnings.mockRestore();
  });

  it('gives a concurrent request on a busy conversation a view of its own, so neither waits for the other', async () => {
    const { context } = worker(createMemoryStore());
    const first = await context.prepare(conversation('C', 2), request);
    const second = await context.prepare(conversation('C', 3), request);
    let release: () => void = () => undefined;
    const pending = first.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    expect(await second.run(async () => 'second')).toBe('second');
    release();
    expect(await pending).toBe('first');
    expect(context.stats().views).toBe(2);
  });

  it('reads back what a summary covers by its handle, during the turn and after its view was evicted', async () => {
    const host = createHost({
      store: createMemoryStore(),
      engine: summarizingEngine(),
      config: { model: { contextLength: 100_000 } },
    });
    const context = createStatelessContext<Item, string>({ host: () => host, name: 'test', map, maxViews: 1 });
    const turn = await context.prepare(conversation('ORIG', 5), request);
    const summary = turn.messages?.find((message) => message.meta?.summary !== undefined);
    expect(summary).toBeDefined();
    const handle = `${summary!.id}#2`;
    const during = await turn.readOriginal({ handle });
    expect(during.output).toMatch(/^Lines 1-2 of 2 of the original message p-\w+:\nassistant:\nanswer 0$/);
    await turn.run(async () => 'ok');
    // Another conversation takes the only slot: this turn's view is evicted, and the handle still resolves.
    const other = await context.prepare(conversation('OTHER', 1), request);
    await other.run(async () => 'ok');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(context.stats().views).toBe(1);
    expect(await turn.readOriginal({ handle })).toEqual(during);
    expect(await turn.readOriginal({ handle: `${summary!.id}#3`, fromLine: 2 })).toEqual({
      output: expect.stringMatching(/^Lines 2-2 of 2 of the original message p-\w+:\nORIG question 0$/),
    });
    expect((await turn.readOriginal({ handle: 'no-such-handle' })).isError).toBe(true);
    expect((await turn.readOriginal('not an object')).isError).toBe(true);
  });

  it('takes back the view of a turn prepared and dropped without being sent, so the pool stays bounded and the prompt reuses it', async () => {
    const host = createHost({ store: createMemoryStore(), engine: summarizingEngine(), config: {} });
    const opened = vi.spyOn(host, 'ephemeralSession');
    const context = createStatelessContext<Item, string>({ host: () => host, name: 'test', map, maxViews: 4 });
    // A framework that prepares and never sends (the caller aborted, it threw before the call) drops the turn.
    const prepareAndDrop = async (prompt: Item[]) => void (await context.prepare(prompt, request));
    for (let index = 0; index < 40; index++) await prepareAndDrop(conversation(`DROPPED-${index}`, 1));
    for (let index = 0; index < 10; index++) await prepareAndDrop(conversation('SAME', 1));
    await collectGarbageUntil(() => context.stats().views <= 4);
    expect(context.stats().views).toBeLessThanOrEqual(4);
    const before = opened.mock.calls.length;
    const turn = await context.prepare(conversation('SAME', 2), request);
    expect(await turn.run(async () => 'ok')).toBe('ok');
    expect(opened.mock.calls.length).toBe(before);
    expect(context.stats().views).toBeLessThanOrEqual(4);
  });
  it('never hands a view made under one window to a request under another: each window gets its own projection', async () => {
    const engine: ContextEngine = {
      ...summarizingEngine(),
      shouldCompress: (state) => state.contextWindow !== undefined && state.promptTokens > state.contextWindow / 2,
    };
    const store = createMemoryStore();
    const host = createHost({ store, engine, config: {} });
    const context = createStatelessContext<Item, string>({ host: () => host, name: 'test', map });
    const large = { model: 'large-window', contextWindow: 1_000_000, maxOutputTokens: 1000 };
    const small = { model: 'small-window', contextWindow: 2_000, maxOutputTokens: 1000 };
    const long = (turns: number): Item[] =>
      conversation('W', turns).map((item) => ({ ...item, text: `${item.text} ${'filler '.repeat(60)}` }));
    const sent = async (prompt: Item[], settings: typeof large) => {
      const turn = await context.prepare(prompt, settings);
      await turn.run(async () => 'ok');
      return texts(turn.messages);
    };
    expect(await sent(long(8), large)).not.toContain('summary:');
    expect(await sent(long(9), small)).toContain('summary:');
    expect(await sent(long(10), large)).not.toContain('summary:');
    expect(await sent(long(11), small)).toContain('summary:');
    // Another worker on the same store, under the large window: the small window's stored compaction is not its.
    const other = createStatelessContext<Item, string>({
      host: () => createHost({ store, engine, config: {} }),
      name: 'test',
      map,
    });
    expect(texts((await other.prepare(long(11), large)).messages)).not.toContain('summary:');
    expect(texts((await other.prepare(long(11), small)).messages)).toContain('summary:');
  });
});

/** A full collection, then the turns' finalizers (they run in a task of their own after it). */
/**
 * Collects until `done` (at most 50 rounds): a dropped turn's view is taken back by a FinalizationRegistry callback,
 * which V8 runs some time after the collection that found the turn dead, later when other test files share the
 * worker and the cores (three fixed rounds saw 50 views left once, with two workers on two cores).
 */
async function collectGarbageUntil(done: () => boolean): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let round = 0; round < 50 && !done(); round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
