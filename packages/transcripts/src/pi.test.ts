import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { lastSegmentMessages } from './segments.js';

const entry = (id: string, parentId: string | null, value: Record<string, unknown>) =>
  JSON.stringify({ id, parentId, timestamp: '2026-01-01T00:00:00.000Z', ...value });
const usage = {
  input: 10,
  output: 5,
  cacheRead: 100,
  cacheWrite: 20,
  totalTokens: 135,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = (content: unknown[], model = 'claude-sonnet-4-5') => ({
  type: 'message',
  message: {
    role: 'assistant',
    content,
    api: 'anthropic-messages',
    provider: 'anthropic',
    model,
    usage,
    stopReason: 'stop',
    timestamp: 1,
  },
});

const session = [
  JSON.stringify({ type: 'session', version: 3, id: 'sess-1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/work' }),
  entry('a0', null, { type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' }),
  entry('a1', 'a0', { type: 'message', message: { role: 'user', content: 'list files', timestamp: 1 } }),
  entry(
    'a2',
    'a1',
    assistant([
      { type: 'text', text: 'Listing.' },
      { type: 'toolCall', id: 'call-1', name: 'bash', arguments: { command: 'ls' } },
    ]),
  ),
  entry('a3', 'a2', {
    type: 'message',
    message: {
      role: 'toolResult',
      toolCallId: 'call-1',
      toolName: 'bash',
      content: [{ type: 'text', text: 'a.ts\nb.ts' }],
      isError: false,
      timestamp: 1,
    },
  }),
  entry('a4', 'a3', assistant([{ type: 'text', text: 'Two files.' }])),
  entry('a5', 'a4', {
    type: 'compaction',
    summary: 'The user listed files: a.ts, b.ts.',
    firstKeptEntryId: 'a4',
    tokensBefore: 5000,
  }),
  entry('a6', 'a5', { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' }),
  entry('a7', 'a6', {
    type: 'message',
    message: {
      role: 'user',
      content: [
        { type: 'text', text: 'and now?' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
      timestamp: 2,
    },
  }),
  entry('a8', 'a7', {
    type: 'message',
    message: {
      role: 'bashExecution',
      command: 'pwd',
      output: '/work',
      exitCode: 0,
      cancelled: false,
      truncated: false,
      excludeFromContext: true,
      timestamp: 2,
    },
  }),
  entry('a9', 'a8', assistant([{ type: 'text', text: 'Still two.' }], 'gpt-4o')),
].join('\n');

describe('parseTranscript (pi coding agent)', () => {
  it('follows the tree to the last entry and converts messages, tool results and images', () => {
    const transcript = parseTranscript(session);
    expect(transcript.format).toBe('pi');
    expect(
      transcript.messages.map((message) => [message.role, message.parts.map((part) => part.type).join('+')]),
    ).toEqual([
      ['user', 'text'],
      ['assistant', 'text+tool-call'],
      ['tool', 'tool-result'],
      ['assistant', 'text'],
      ['user', 'text'],
      ['assistant', 'text'],
      ['user', 'text+image'],
      ['assistant', 'text'],
    ]);
    expect(transcript.messages[2]?.parts[0]).toMatchObject({
      type: 'tool-result',
      callId: 'call-1',
      name: 'bash',
      output: 'a.ts\nb.ts',
    });
    expect(transcript.meta).toMatchObject({
      sessionId: 'sess-1',
      cwd: '/work',
      modelChanges: 2,
      excludedFromContext: 1,
      keptMessagesRepeated: 1,
    });
  });

  it("respects pi's own compaction: its summary, then the kept entries, then what follows", () => {
    const transcript = parseTranscript(session);
    expect(transcript.boundaries).toEqual([
      { messageIndex: 4, line: 7, trigger: 'auto', source: 'boundary-line', preTokens: 5000 },
    ]);
    const seen = lastSegmentMessages(transcript);
    expect(seen[0]?.parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(
        /^The conversation history before this point was compacted into the following summary:\n\n<summary>\nThe user listed files/,
      ),
    });
    expect(seen[1]?.meta).toMatchObject({ keptFromCompaction: 'a4' });
    // Usage once per request, with each request's own model: the kept reply is not counted again.
    expect(
      transcript.usage?.map((entry) => [entry.replyIndex, transcript.messages[entry.replyIndex]?.meta?.model]),
    ).toEqual([
      [1, 'claude-sonnet-4-5'],
      [3, 'claude-sonnet-4-5'],
      [7, 'gpt-4o'],
    ]);
    expect(transcript.usage?.[0]?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      cacheCreationInputTokens: 20,
      cacheReadInputTokens: 100,
    });
  });

  it('skips a broken line and links past it', () => {
    const lines = session.split('\n');
    lines[3] = '{"type":"message","id":"a2", broken';
    const transcript = parseTranscript(lines.join('\n'), { skipInvalid: true });
    expect(transcript.skipped).toBe(1);
    expect(transcript.meta.brokenLinks).toBe(1);
    expect(transcript.messages.map((message) => message.role)).toEqual([
      'user',
      'tool',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('fails on a broken line when not told to skip, naming the line', () => {
    const lines = session.split('\n');
    lines[3] = '{"type":"message","id":"a2", broken';
    expect(() => parseTranscript(lines.join('\n'), { file: 'pi.jsonl' })).toThrow(
      /^transcript pi\.jsonl:4: not valid JSON/,
    );
  });
});

describe('pi sessions built to be large', () => {
  it('repeats kept entries at most once per entry: a compaction keeping everything again is refused, not quadratic', () => {
    const lines = [JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00.000Z' })];
    let parent: string | null = null;
    for (let index = 0; index < 2_000; index++) {
      const id = `e${index}`;
      lines.push(
        index % 2 === 0
          ? entry(id, parent, { type: 'message', message: { role: 'user', content: `turn ${index}`, timestamp: 1 } })
          : entry(id, parent, { type: 'compaction', summary: 'so far', firstKeptEntryId: 'e0', tokensBefore: 1 }),
      );
      parent = id;
    }
    expect(() => parseTranscript(lines.join('\n'), { file: 'crafted.jsonl' })).toThrow(
      /crafted\.jsonl:\d+: compaction keeps \d+ entries from "e0", before what the previous compaction kept or more than the session holds/,
    );
    const transcript = parseTranscript(lines.join('\n'), { file: 'crafted.jsonl', skipInvalid: true });
    // 1,000 user messages and 1,000 summaries; without the bound, about 500,000 repeated messages.
    expect(transcript.messages.length).toBeLessThan(6_000);
    expect(transcript.skipped).toBeGreaterThan(0);
  });
});
