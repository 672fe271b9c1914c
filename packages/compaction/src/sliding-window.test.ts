import { describe, expect, it } from 'vitest';
import { applyCompaction } from './apply-compaction.js';
import { createConversation, ids, toolTurns } from './conversation.test-helper.js';
import { slidingWindow } from './sliding-window.js';
import { toolResultCompaction } from './tool-result-compaction.js';
import { triggers } from './triggers.js';
import { validateProjection } from './validate-projection.js';

describe('slidingWindow', () => {
  const messages = toolTurns(5); // turns start at m2, m6, m10, m14, m18

  it.each([
    ['keepLastTurns 2', { keepLastTurns: 2 }, ['m1', 'm14', 'm15', 'm16', 'm17', 'm18', 'm19', 'm20', 'm21']],
    [
      'trigger turnsExceed(4) drops one turn',
      { trigger: triggers.turnsExceed(4) },
      ['m1', ...Array.from({ length: 16 }, (_, i) => `m${i + 6}`)],
    ],
    ['keepLastGroups 4 rounds down to open on a user turn', { keepLastGroups: 4 }, ['m1', 'm18', 'm19', 'm20', 'm21']],
    [
      'floor beats the window',
      { keepLastTurns: 1, minimumPreserved: 6 },
      ['m1', ...Array.from({ length: 8 }, (_, i) => `m${i + 14}`)],
    ],
    ['within the window: nothing', { keepLastTurns: 5 }, ids(messages)],
  ])('%s', async (_name, options, expected) => {
    const result = await applyCompaction(messages, slidingWindow(options));
    expect(ids(result.messages)).toEqual(expected);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('keeps a pinned first user message and slides past its turn', async () => {
    const result = await applyCompaction(messages, slidingWindow({ keepLastTurns: 1, pinFirstUserMessage: true }));
    expect(ids(result.messages)).toEqual(['m1', 'm2', 'm18', 'm19', 'm20', 'm21']);
  });

  it('counts an assistant preamble as part of the first turn', async () => {
    const c = createConversation();
    const history = [c.system(), c.assistant('hello'), c.user(), c.assistant(), c.user(), c.assistant()];
    const result = await applyCompaction(history, slidingWindow({ keepLastTurns: 1 }));
    expect(ids(result.messages)).toEqual(['m1', 'm5', 'm6']);
  });

  it('keeps the user message of a turn whose pinned collapsed line stays (found by the property test)', async () => {
    const c = createConversation();
    const history = [c.user(), c.calls(['tool0', 'c']), c.results(['c', 'ok']), c.user('next')];
    const collapsed = await applyCompaction(
      history,
      toolResultCompaction({ keepLastToolCallGroups: 0, minimumPreserved: 0 }),
    );
    const result = await applyCompaction(
      collapsed.messages,
      slidingWindow({ keepLastTurns: 0, minimumPreserved: 0, pinSummaries: true }),
    );
    expect(ids(result.messages)).toEqual(['m1', 'm2:tool-results', 'm4']);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('needs a window', () => {
    expect(() => slidingWindow({})).toThrowError(/needs keepLastTurns, keepLastGroups or a trigger/);
  });
});
