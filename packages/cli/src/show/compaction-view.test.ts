import { describe, expect, it } from 'vitest';
import { createMessage, type CompactionReport, type Message, type StoreEvent, type StoredEvent } from '@ctxhost/core';
import { compactionView, renderCompactionView } from './compaction-view.js';

const at = '2026-01-01T00:00:00.000Z';
let seq = 0;
const stored = (event: StoreEvent): StoredEvent => ({ ...event, seq: ++seq, at, eventId: `e${seq}` });

const text = (id: string, role: Message['role'], body: string) =>
  createMessage(role, [{ type: 'text', text: body }], { id });
const report: CompactionReport = {
  engine: 'compressor',
  reason: 'threshold',
  tokensBefore: 900,
  tokensAfter: 300,
  messagesBefore: 4,
  messagesAfter: 3,
  fidelity: {
    score: 1,
    candidateScore: 0.5,
    probes: 2,
    byKind: { constraint: { probes: 2, found: 1, kept: 2 } },
    missed: [{ kind: 'constraint', text: 'never push to main' }],
    added: 1,
  },
};

describe('compactionView', () => {
  it('rebuilds the projection before the compaction and shows the summary, the ledger and the dropped span', () => {
    const summary: Message = {
      id: 'summary-1',
      role: 'user',
      parts: [
        { id: 'summary-1:0', type: 'text', text: 'We set up the repo.' },
        { id: 'summary-1:ctxhost-ledger', type: 'text', text: '## Ledger\n- `git init` → ok' },
      ],
      meta: { summary: { covers: ['u1', 'a1'], engine: 'compressor' } },
    };
    const events = [
      stored({ type: 'message.appended', message: text('s', 'system', 'sys') }),
      stored({ type: 'message.appended', message: text('u1', 'user', 'Set up the repo; never push to main.') }),
      stored({ type: 'message.appended', message: text('a1', 'assistant', 'Done: git init.') }),
      stored({ type: 'message.appended', message: text('u2', 'user', 'Now add CI.') }),
      stored({
        type: 'compaction.applied',
        projection: [text('s', 'system', 'sys'), summary, text('u2', 'user', 'Now add CI.')],
        report,
      }),
    ];
    const view = compactionView(events, 1)!;
    expect(view).toMatchObject({
      number: 1,
      of: 1,
      summary: 'We set up the repo.',
      ledger: '## Ledger\n- `git init` → ok',
    });
    expect(view.dropped.map((message) => message.id)).toEqual(['u1', 'a1']);
    const printed = renderCompactionView(view);
    expect(printed).toContain("fidelity: 100% of 2 probes (the engine's result alone 50%; 1 added beside the summary)");
    expect(printed).toContain('missed by the engine: constraint: never push to main');
    expect(printed).toContain('u1  user      Set up the repo; never push to main.');
    expect(compactionView(events, 2)).toBeUndefined();
  });
});
