import { describe, expect, it } from 'vitest';
import { applyCompaction } from './apply-compaction.js';
import { createConversation, ids, toolTurns } from './conversation.test-helper.js';
import { CompactionError } from './errors.js';
import { truncation } from './truncation.js';
import { triggers } from './triggers.js';
import { validateProjection } from './validate-projection.js';

describe('truncation', () => {
  const messages = toolTurns(6); // 1 + 24 messages, 1 + 18 groups

  it.each([
    // [name, options, expected messages after]
    ['message metric, compactTo', { maxN: 20, compactTo: 12, metric: 'messages' as const, minimumPreserved: 1 }, 9],
    [
      'trigger only: stops as soon as it no longer fires',
      { trigger: triggers.messagesExceed(20), minimumPreserved: 1 },
      17,
    ],
    ['the floor stops it (32 by default: nothing goes)', { trigger: triggers.messagesExceed(4) }, 25],
    // user 5 stays as the head of its turn (its answer is in the floor); its tool group goes
    ['floor of 4 groups', { trigger: triggers.messagesExceed(4), minimumPreserved: 4 }, 7],
    ['never fires', { trigger: triggers.never, minimumPreserved: 1 }, 25],
  ])('%s', async (_name, options, expected) => {
    const result = await applyCompaction(messages, truncation(options));
    expect(result.messages).toHaveLength(expected);
    expect(result.messages[0]!.role).toBe('system');
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('never splits parallel calls from their results and opens on a user turn', async () => {
    const result = await applyCompaction(
      messages,
      truncation({ trigger: triggers.messagesExceed(10), minimumPreserved: 2 }),
    );
    const kept = new Set(ids(result.messages));
    for (const [call, results] of [
      ['m3', 'm4'],
      ['m7', 'm8'],
      ['m11', 'm12'],
      ['m15', 'm16'],
      ['m19', 'm20'],
      ['m23', 'm24'],
    ])
      expect(kept.has(call!)).toBe(kept.has(results!));
    expect(result.messages[1]!.role).toBe('user');
    expect(result.report.tokensAfter).toBeLessThan(result.report.tokensBefore);
    expect(result.report.steps).toEqual(['truncation']);
  });

  it('keeps the last non-system group even with minimumPreserved 0', async () => {
    const result = await applyCompaction(messages, truncation({ trigger: triggers.always, minimumPreserved: 0 }));
    // the last turn's user message stays as its head; its tool group goes
    expect(ids(result.messages)).toEqual(['m1', 'm22', 'm25']);
  });

  it('pins the first user message when asked', async () => {
    const result = await applyCompaction(
      messages,
      truncation({ trigger: triggers.messagesExceed(6), minimumPreserved: 1, pinFirstUserMessage: true }),
    );
    expect(ids(result.messages).slice(0, 2)).toEqual(['m1', 'm2']);
    expect(result.messages.length).toBeLessThanOrEqual(6);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('keeps a head user message whose turn holds the floor', async () => {
    const c = createConversation();
    const history = [
      c.user(),
      c.calls(['a', '1']),
      c.results(['1', 'x']),
      c.calls(['b', '2']),
      c.results(['2', 'y']),
      c.assistant(),
    ];
    const result = await applyCompaction(history, truncation({ trigger: triggers.always, minimumPreserved: 1 }));
    expect(ids(result.messages)).toEqual(['m1', 'm6']);
  });

  it('rejects options it cannot use', () => {
    expect(() => truncation({})).toThrowError(/needs a trigger/);
    expect(() => truncation({ maxN: -3 })).toThrow(CompactionError);
    expect(() => truncation({ trigger: triggers.always, minimumPreserved: 2.5 })).toThrowError(/minimumPreserved/);
    expect(() => truncation({ maxN: 1_000, compactTo: 2_000 })).toThrowError(
      /compactTo \(2000\) is above maxN \(1000\)/,
    );
  });

  it('says so in its report when its floor stops it from acting', async () => {
    const result = await applyCompaction(messages, truncation({ trigger: triggers.messagesExceed(4) }));
    expect(result.messages).toHaveLength(25);
    expect(result.report.notes).toContainEqual(
      expect.stringMatching(
        /^truncation: over its trigger but every included group is protected \(the floor of 32 groups/,
      ),
    );
  });
});
