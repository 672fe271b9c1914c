import { describe, expect, it } from 'vitest';
import { applyCompaction } from './apply-compaction.js';
import { createConversation, ids, toolTurns, words } from './conversation.test-helper.js';
import { selectiveToolCall } from './selective-tool-call.js';
import { toolResultCompaction } from './tool-result-compaction.js';
import { triggers } from './triggers.js';
import { validateProjection } from './validate-projection.js';

const textOf = (message: { parts: { type: string; text?: string }[] }) =>
  message.parts.map((part) => part.text ?? '').join('');

describe('toolResultCompaction', () => {
  it('collapses old tool groups into one line each, keeping the newest intact', async () => {
    const messages = toolTurns(3);
    const result = await applyCompaction(messages, toolResultCompaction());
    expect(ids(result.messages)).toEqual([
      'm1',
      'm2',
      'm3:tool-results',
      'm5',
      'm6',
      'm7:tool-results',
      'm9',
      'm10',
      'm11',
      'm12',
      'm13',
    ]);
    expect(textOf(result.messages[2]!)).toBe('[Tool results: get_weather: sunny, 18°C; search_docs: 3 matches]');
    expect(result.report.prunedToolOutputs).toBe(4);
    expect(result.summaries).toHaveLength(2);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it.each([
    ['keepLastToolCallGroups 0 still keeps the floor of 2 groups', { keepLastToolCallGroups: 0 }, 1],
    ['keepLastToolCallGroups 0, floor 1', { keepLastToolCallGroups: 0, minimumPreserved: 1 }, 2],
    ['keepLastToolCallGroups 2, floor 1', { keepLastToolCallGroups: 2, minimumPreserved: 1 }, 1],
    [
      'stops at its target',
      {
        keepLastToolCallGroups: 0,
        minimumPreserved: 0,
        target: (index: { included: { toolCallGroups: number } }) => index.included.toolCallGroups <= 1,
      },
      2,
    ],
    ['does not fire under its trigger', { trigger: triggers.tokensExceed(1_000_000) }, 0],
  ])('%s → %s groups collapsed', async (_name, options, collapsed) => {
    const c = createConversation();
    const messages = [
      c.user(),
      c.calls(['a', '1']),
      c.results(['1', words(50)]),
      c.calls(['b', '2']),
      c.results(['2', words(50)]),
      c.calls(['c', '3']),
      c.results(['3', words(50)]),
    ];
    const result = await applyCompaction(messages, toolResultCompaction(options));
    expect(result.summaries).toHaveLength(collapsed);
    expect(result.excludedGroups).toBe(collapsed);
  });

  it('shows errors and missing results in the line', async () => {
    const c = createConversation();
    const messages = [
      c.user(),
      c.calls(['ls', '1']),
      c.results(['1', 'a']),
      c.calls(['build', '2'], ['test', '3']),
      {
        ...c.results(['2', `boom\n${words(60)}`]),
        parts: [{ id: 'r', type: 'tool-result' as const, callId: '2', output: `boom\n${words(60)}`, isError: true }],
      },
      c.user('next'),
    ];
    const result = await applyCompaction(
      messages,
      toolResultCompaction({ keepLastToolCallGroups: 0, minimumPreserved: 1 }),
    );
    expect(ids(result.messages)).toEqual(['m1', 'm2:tool-results', 'm4:tool-results', 'm6']);
    expect(textOf(result.messages[1]!)).toBe('[Tool results: ls: a]');
    expect(textOf(result.messages[2]!)).toBe('[Tool results: build: error: boom; test: (no result)]');
  });

  it('never touches user or plain assistant messages', async () => {
    const messages = toolTurns(4);
    const result = await applyCompaction(
      messages,
      toolResultCompaction({ keepLastToolCallGroups: 0, minimumPreserved: 1 }),
    );
    const plain = messages.filter(
      (message) => !message.parts.some((part) => part.type === 'tool-call' || part.type === 'tool-result'),
    );
    for (const message of plain) expect(result.messages).toContain(message);
  });
});

describe('selectiveToolCall', () => {
  it.each([
    ['default keeps the newest tool group', {}, ['m1', 'm2', 'm5', 'm6', 'm9', 'm10', 'm11', 'm12', 'm13']],
    [
      'keepLastToolCallGroups 2',
      { keepLastToolCallGroups: 2 },
      ['m1', 'm2', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11', 'm12', 'm13'],
    ],
    [
      'hasToolCalls trigger with a target',
      { trigger: triggers.hasToolCalls(), target: triggers.never, keepLastToolCallGroups: 0, minimumPreserved: 1 },
      ['m1', 'm2', 'm5', 'm6', 'm9', 'm10', 'm13'],
    ],
  ])('%s', async (_name, options, expected) => {
    const result = await applyCompaction(toolTurns(3), selectiveToolCall(options));
    expect(ids(result.messages)).toEqual(expected);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('removes a call and a result that sat apart (an approval between) together', async () => {
    const c = createConversation();
    const messages = [
      c.user(),
      c.calls(['deploy', 'd']),
      c.user('approve?'),
      c.results(['d', 'ok']),
      c.assistant(),
      c.user(),
      c.assistant(),
    ];
    const result = await applyCompaction(messages, selectiveToolCall({ keepLastToolCallGroups: 0 }));
    expect(ids(result.messages)).toEqual(['m1', 'm3', 'm5', 'm6', 'm7']);
    expect(validateProjection(result.messages)).toEqual([]);
  });
});
