import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './create-token-counter.js';
import type { Message } from '../model/message.js';
import { createUsageTracker } from './usage-tracker.js';
import type { Usage } from '../model/usage.js';

function textMessage(id: string, text: string, role: Message['role'] = 'user'): Message {
  return { id, role, parts: [{ id: `${id}-p`, type: 'text', text }] };
}

const usage = (input: number, cacheCreation = 0, cacheRead = 0): Usage => ({
  inputTokens: input,
  outputTokens: 50,
  cacheCreationInputTokens: cacheCreation,
  cacheReadInputTokens: cacheRead,
});
/** One token per character, so expected figures are easy to read. */
const counter = () =>
  createTokenCounter({ estimate: (message) => (message.parts[0]?.type === 'text' ? message.parts[0].text.length : 0) });

const projection = [
  textMessage('s', 'system prompt', 'system'),
  textMessage('u1', 'hello'),
  textMessage('a1', 'hi there', 'assistant'),
];

describe('createUsageTracker', () => {
  const cases: { name: string; after: (reported: Message[]) => Message[]; expected: object }[] = [
    {
      name: 'unchanged projection: the reported size',
      after: (reported) => reported,
      expected: { tokens: 1000, source: 'reported', reportedTokens: 1000, estimatedTokens: 0 },
    },
    {
      name: 'appended messages: reported plus their estimate',
      after: (reported) => [...reported, textMessage('u2', 'four'), textMessage('t1', 'tool output')],
      expected: { tokens: 1015, source: 'reported+estimated', reportedTokens: 1000, estimatedTokens: 15 },
    },
    {
      name: 'equal copies of the reported messages still extend it',
      after: (reported) => [...structuredClone(reported), textMessage('u2', 'abc')],
      expected: { tokens: 1003, source: 'reported+estimated' },
    },
    {
      name: 'compacted (shorter): estimate everything',
      after: (reported) => [reported[0]!, textMessage('sum', 'summary')],
      expected: { tokens: 20, source: 'estimated', estimatedTokens: 20 },
    },
    {
      name: 'replaced then grown past the reported length: estimate everything',
      after: (reported) => [
        reported[0]!,
        textMessage('sum', 'summary'),
        textMessage('u2', 'a'),
        textMessage('u3', 'b'),
      ],
      expected: { tokens: 22, source: 'estimated' },
    },
    {
      name: 'a reported message edited under its id: estimate everything',
      after: (reported) => [reported[0]!, textMessage('u1', 'hello, edited'), reported[2]!],
      expected: { tokens: 34, source: 'estimated' },
    },
  ];

  it.each(cases)('$name', ({ after, expected }) => {
    const tracker = createUsageTracker(counter());
    tracker.report(usage(10, 90, 900), projection);
    expect(tracker.promptSize(after(projection))).toMatchObject(expected);
  });

  it('estimates everything before any report and after reset', () => {
    const tracker = createUsageTracker(counter());
    expect(tracker.promptSize(projection)).toEqual({ tokens: 26, source: 'estimated', estimatedTokens: 26 });
    tracker.report(usage(1000), projection);
    tracker.reset();
    expect(tracker.promptSize(projection).source).toBe('estimated');
  });

  it('uses the latest report', () => {
    const tracker = createUsageTracker(counter());
    tracker.report(usage(1000), projection);
    const longer = [...projection, textMessage('u2', 'next')];
    tracker.report(usage(1200), longer);
    expect(tracker.promptSize([...longer, textMessage('u3', 'xy')])).toMatchObject({
      tokens: 1202,
      reportedTokens: 1200,
      estimatedTokens: 2,
    });
  });

  it('counts only the appended messages, not the reported history', () => {
    const tokenCounter = counter();
    const tracker = createUsageTracker(tokenCounter);
    const history = Array.from({ length: 200 }, (_, index) => textMessage(`m${index}`, 'x'.repeat(index % 7)));
    tracker.report(usage(5000), history);
    tracker.promptSize([...history, textMessage('new1', 'a'), textMessage('new2', 'b')]);
    expect(tokenCounter.stats).toEqual({ hits: 0, misses: 2 });
  });

  it('follows appends to the very list it was given, without comparing old messages', () => {
    const tracker = createUsageTracker(counter());
    const messages = [...projection];
    tracker.report(usage(1000), messages);
    messages.push(textMessage('u2', 'ab'));
    expect(tracker.promptSize(messages)).toMatchObject({ tokens: 1002, source: 'reported+estimated' });
    expect(tracker.promptSize([...projection, textMessage('u3', 'ab')])).toMatchObject({
      tokens: 1002,
      source: 'reported+estimated',
    });
  });

  it('without a report, keeps a running estimate: appends are counted, the history is not looked at again', () => {
    const tokenCounter = counter();
    const tracker = createUsageTracker(tokenCounter);
    const messages = Array.from({ length: 200 }, (_, index) => textMessage(`m${index}`, 'x'.repeat(index % 7)));
    const first = tracker.promptSize(messages).tokens;
    messages.push(textMessage('new1', 'abc'));
    expect(tracker.promptSize(messages)).toEqual({
      tokens: first + 3,
      source: 'estimated',
      estimatedTokens: first + 3,
    });
    expect(tokenCounter.stats).toEqual({ hits: 0, misses: 201 });
  });

  it('recounts the running estimate when the list no longer extends what was estimated', () => {
    const tracker = createUsageTracker(counter());
    tracker.promptSize(projection);
    const edited = [projection[0]!, textMessage('u1', 'hello, edited'), projection[2]!];
    expect(tracker.promptSize(edited)).toEqual({ tokens: 34, source: 'estimated', estimatedTokens: 34 });
    expect(tracker.promptSize(projection.slice(0, 2))).toMatchObject({ tokens: 18 });
  });
});
