import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/config-defaults.js';
import { createMessage } from '../model/part-ids.js';
import type { Message } from '../model/message.js';
import { estimateTextTokens } from '../tokens/estimate-tokens.js';
import { codingSpan } from './fidelity.test-helper.js';
import { ledgerOf } from './ledger.js';
import { LEDGER_HEADING } from './render-ledger.js';
import { MISSED_HEADING } from './render-missed.js';
import { reviewCompaction, summaryTextOf } from './review-compaction.js';

const options = { fidelity: DEFAULT_CONFIG.fidelity, countText: estimateTextTokens };
const system = createMessage('system', [{ type: 'text', text: 'You are a coding agent.' }], { id: 's' });
const newest = createMessage('user', [{ type: 'text', text: 'Now add a test for the limiter.' }], { id: 'u9' });

function summary(id: string, text: string, covers: string[]): Message {
  return createMessage('user', [{ type: 'text', text }], {
    id,
    meta: { summary: { covers, engine: 'test', source: 'model' } },
  });
}

describe('reviewCompaction', () => {
  it('scores the summary, adds what it missed beside it, and attaches the ledger', () => {
    const span = codingSpan();
    const before = [system, ...span, newest];
    const after = [
      system,
      summary(
        'sum1',
        'We worked on the server.',
        span.map((m) => m.id),
      ),
      newest,
    ];
    const reviewed = reviewCompaction(before, after, options);
    expect(reviewed.fidelity.candidateScore).toBeLessThan(0.2);
    expect(reviewed.fidelity.score).toBe(1);
    expect(reviewed.fidelity.added).toBe(reviewed.fidelity.missed.length);
    const carrier = reviewed.messages[1]!;
    const text = carrier.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    expect(text).toContain(MISSED_HEADING);
    expect(text).toContain('- user said: No, keep the limit at 100 requests per minute, not 60.');
    expect(text).toContain(LEDGER_HEADING);
    expect(text).toMatch(/- src\/server\/rateLimiter\.ts \(Write, sha256:[0-9a-f]{12}\)/);
    expect(text).toContain('- `npx vitest run packages/server` → exit 1');
    expect(summaryTextOf(carrier)).toBe('We worked on the server.');
    expect(ledgerOf(carrier)?.entries.map((entry) => entry.kind)).toEqual([
      'constraint',
      'decision',
      'file',
      'command',
      'constraint',
    ]);
    // The kept messages are the engine's, untouched.
    expect(reviewed.messages[0]).toBe(system);
    expect(reviewed.messages[2]).toBe(newest);
  });

  it('carries the ledger across compactions, moving it to the newest summary', () => {
    const span = codingSpan();
    const first = reviewCompaction(
      [system, ...span, newest],
      [system, summary('sum1', 'Rate limiting work.', []), newest],
      options,
    ).messages;
    const later = createMessage(
      'assistant',
      [{ type: 'tool-call', callId: 'c9', name: 'Bash', input: { command: 'npm run lint' } }],
      { id: 'a9' },
    );
    const result = createMessage('tool', [{ type: 'tool-result', callId: 'c9', output: 'ok' }], { id: 't9' });
    const before = [...first, later, result];
    const after = [system, first[1]!, summary('sum2', 'Linted.', ['u9', 'a9', 't9'])];
    const reviewed = reviewCompaction(before, after, options);
    expect(ledgerOf(reviewed.messages[1]!)).toBeUndefined();
    expect(reviewed.messages[1]!.parts).toHaveLength(1);
    const ledger = ledgerOf(reviewed.messages[2]!)!;
    expect(ledger.entries.map((entry) => (entry.kind === 'command' ? entry.command : entry.kind))).toEqual([
      'constraint',
      'decision',
      'file',
      'npx vitest run packages/server',
      'constraint',
      'npm run lint',
    ]);
  });

  it('folds the oldest entries into counts when over budget, and says so', () => {
    const calls = Array.from({ length: 200 }, (_, index) => [
      createMessage(
        'assistant',
        [{ type: 'tool-call', callId: `c${index}`, name: 'Bash', input: { command: `make target-${index}` } }],
        { id: `a${index}` },
      ),
      createMessage('tool', [{ type: 'tool-result', callId: `c${index}`, output: `exit code ${index % 2}` }], {
        id: `t${index}`,
      }),
    ]).flat();
    const small = { ...options, fidelity: { ...options.fidelity, ledger: { enabled: true, maxTokens: 300 } } };
    const reviewed = reviewCompaction([system, ...calls, newest], [system, summary('s1', 'make', []), newest], small);
    expect(reviewed.ledger!.tokens).toBeLessThanOrEqual(300);
    expect(reviewed.ledger!.folded.command).toBeGreaterThan(150);
    expect(reviewed.ledger!.entries.at(-1)).toMatchObject({ kind: 'command', command: 'make target-199' });
    const text = reviewed.messages[1]!.parts.at(-1);
    expect(text?.type === 'text' ? text.text : '').toMatch(
      /folded into counts .*command runs \(\d+ of the commands failed\)/,
    );
  });

  it('reports a score with no summary to carry anything (a sliding window)', () => {
    const span = codingSpan();
    const reviewed = reviewCompaction([system, ...span, newest], [system, newest], options);
    expect(reviewed.fidelity.score).toBe(reviewed.fidelity.candidateScore);
    expect(reviewed.fidelity.score).toBeLessThan(0.2);
    expect(reviewed.notes[0]).toMatch(/no summary message to carry/);
  });

  it('checks nothing and adds no ledger when both are off', () => {
    const off = {
      ...options,
      fidelity: { ...options.fidelity, probes: false, ledger: { enabled: false, maxTokens: 2000 } },
    };
    const after = [system, summary('s1', 'x', []), newest];
    const reviewed = reviewCompaction([system, ...codingSpan(), newest], after, off);
    expect(reviewed.fidelity).toMatchObject({ score: 1, probes: 0 });
    expect(reviewed.messages[1]).toStrictEqual(after[1]);
  });
});
