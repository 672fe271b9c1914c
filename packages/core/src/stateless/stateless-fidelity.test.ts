import { describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { ContextEngine } from '../engines/context-engine.js';
import type { CompactionReport } from '../model/compaction-report.js';
import type { Message } from '../model/message.js';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { SessionStore } from '../stores/session-store.js';
import { ledgerOf } from '../fidelity/ledger.js';
import { createStatelessContext } from './stateless-context.js';

interface Item {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

const map = (item: Item, id: string): MappedPromptItem<string> => ({
  ok: true,
  message: { id, role: item.role, parts: [{ id: `${id}:0`, type: 'text', text: item.text }] },
  sourceParts: [item.text],
});

/** Replaces all but the last two messages with a summary that says nothing of them: the check and the ledger must. */
const forgetfulEngine: ContextEngine = {
  name: 'forgetful',
  shouldCompress: (state) => state.messageCount > 6,
  async compress(messages) {
    const kept = messages.slice(-2);
    const span = messages.slice(0, -2).filter((message) => message.role !== 'system');
    const summary: Message = {
      id: `summary-${span.at(-1)!.id}`,
      role: 'user',
      parts: [{ id: `summary-${span.at(-1)!.id}:0`, type: 'text', text: 'Earlier turns happened.' }],
      meta: {
        summary: { covers: { first: span[0]!.id, last: span.at(-1)!.id, count: span.length }, engine: 'forgetful' },
      },
    };
    const result = [...messages.filter((message) => message.role === 'system'), summary, ...kept];
    const report: CompactionReport = {
      engine: 'forgetful',
      reason: 'threshold',
      tokensBefore: 1000,
      tokensAfter: 10,
      messagesBefore: messages.length,
      messagesAfter: result.length,
    };
    return { messages: result, report };
  },
};

function worker(store: SessionStore) {
  const host = createHost({ store, engine: forgetfulEngine, config: { model: { contextLength: 100_000 } } });
  const reports: CompactionReport[] = [];
  host.hooks.compactionCompleted.tapPromise('test', async ({ report }) => void reports.push(report));
  return { reports, context: createStatelessContext<Item, string>({ host: () => host, name: 'test', map }) };
}

function conversation(turns: number): Item[] {
  const items: Item[] = [
    { role: 'system', text: 'You are helpful.' },
    { role: 'user', text: 'Fix the parser. Never change the public API of the tokenizer module.' },
  ];
  for (let turn = 0; turn < turns; turn++)
    items.push(
      { role: 'assistant', text: `I will keep the lexer table in src/lexer-${turn}.ts for now.` },
      { role: 'user', text: `go on with step ${turn}` },
    );
  return items;
}

const request = { model: 'test-model', maxOutputTokens: 1000 };
const summaryOf = (messages: readonly Message[] | undefined) =>
  (messages ?? []).find((message) => message.meta?.summary !== undefined);

describe('the stateless path: fidelity check and ledger', () => {
  it('checks every compaction and carries the ledger on its summary, into the next compaction and on another worker', async () => {
    const store = createMemoryStore();
    const first = worker(store);
    const turn = await first.context.prepare(conversation(3), request);
    const summary = summaryOf(turn.messages)!;
    const text = summary.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    // The user's constraint, missed by the summary, is in what the model sees: as a missed fact and in the ledger.
    expect(text).toContain('Never change the public API of the tokenizer module');
    expect(ledgerOf(summary)?.entries.some((entry) => entry.kind === 'constraint')).toBe(true);
    expect(first.reports[0]?.fidelity?.probes).toBeGreaterThan(0);
    expect(first.reports[0]?.ledger?.entries).toBeGreaterThan(0);
    await turn.run(async () => 'ok');
    // Another worker, a longer prompt: it starts from the stored compaction and compacts again; the first
    // summary is in the span, and its ledger is carried over.
    const second = worker(store);
    const later = await second.context.prepare(conversation(8), request);
    expect(second.reports.filter((report) => report.engine === 'forgetful')).toHaveLength(1);
    const newest = summaryOf(later.messages)!;
    expect(newest.id).not.toBe(summary.id);
    const carried = ledgerOf(newest);
    expect(carried?.entries.some((entry) => entry.kind === 'constraint' && entry.text.includes('public API'))).toBe(
      true,
    );
    // A third worker sharing the store sends the same summary, ledger included.
    const same = await worker(store).context.prepare(conversation(8), request);
    expect(ledgerOf(summaryOf(same.messages)!)).toEqual(carried);
  });
});
