import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_ERROR_CODES, TranscriptError } from './errors.js';
import { parseTranscript } from './parse-transcript.js';

function line(value: Record<string, unknown>): string {
  return JSON.stringify({ sessionId: 's1', timestamp: '2025-01-01T00:00:00Z', isSidechain: false, ...value });
}

const claudeCode = [
  JSON.stringify({ type: 'summary', summary: 'Setup', leafUuid: 'u4' }),
  line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'list files' } }),
  line({
    type: 'assistant',
    uuid: 'u2',
    parentUuid: 'u1',
    requestId: 'r1',
    message: {
      id: 'm1',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'Sure.' }],
      usage: { input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 10, cache_read_input_tokens: 100 },
    },
  }),
  line({
    type: 'assistant',
    uuid: 'u3',
    parentUuid: 'u2',
    requestId: 'r1',
    message: {
      id: 'm1',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'LS', input: { path: '.' } }],
      usage: { input_tokens: 3, output_tokens: 20, cache_creation_input_tokens: 10, cache_read_input_tokens: 100 },
    },
  }),
  line({
    type: 'user',
    uuid: 'u4',
    parentUuid: 'u3',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt', is_error: false }] },
  }),
  line({
    type: 'user',
    uuid: 's1',
    parentUuid: null,
    isSidechain: true,
    message: { role: 'user', content: 'sub task' },
  }),
  line({ type: 'system', uuid: 'x1', content: 'hook ran' }),
].join('\n');

describe('parseTranscript (Claude Code)', () => {
  it('merges streamed lines by message id and keeps the final usage', () => {
    const transcript = parseTranscript(claudeCode);
    expect(transcript.format).toBe('claude-code');
    expect(
      transcript.messages.map((message) => [message.id, message.role, message.parts.map((part) => part.type)]),
    ).toEqual([
      ['u1', 'user', ['text']],
      ['m1', 'assistant', ['text', 'tool-call']],
      ['u4', 'tool', ['tool-result']],
    ]);
    expect(transcript.usage).toEqual([
      {
        usage: { inputTokens: 3, outputTokens: 20, cacheCreationInputTokens: 10, cacheReadInputTokens: 100 },
        messageIndex: 0,
        replyIndex: 1,
        requestId: 'r1',
      },
    ]);
    expect(transcript.meta).toMatchObject({
      summaries: [{ summary: 'Setup', leafUuid: 'u4' }],
      ignoredLines: { system: 1 },
      excludedSidechainLines: 1,
    });
  });

  it('counts ignored line types named like Object.prototype members as plain keys (found by fuzzing)', () => {
    const text = [
      claudeCode,
      ...['constructor', 'toString', '__proto__', 'constructor'].map((type) => line({ type, uuid: `x-${type}` })),
    ].join('\n');
    const ignored = parseTranscript(text).meta.ignoredLines as Record<string, unknown>;
    expect(Object.entries(ignored)).toEqual([
      ['system', 1],
      ['constructor', 2],
      ['toString', 1],
      ['__proto__', 1],
    ]);
    expect(Object.prototype).not.toHaveProperty('__proto__', 1);
  });

  it('refuses a tool input nested 100,000 levels deep with a located TranscriptError, not a stack overflow', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const text = `{"type":"assistant","uuid":"u1","sessionId":"s","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"x","input":${deep}}]}}`;
    expect(() => parseTranscript(text, { file: 'deep.jsonl' })).toThrow(
      /^transcript deep\.jsonl:1: imported message 0 \(m1\) nests more than 256 levels deep at parts\.0\.input\.a/,
    );
  });

  it('includes sidechains on request, marked in meta', () => {
    const transcript = parseTranscript(claudeCode, { includeSidechains: true });
    expect(transcript.messages.at(-1)?.meta).toMatchObject({ sidechain: true, thread: 'side:s1' });
  });

  it('gives the same messages on a re-import', () => {
    expect(parseTranscript(claudeCode)).toEqual(parseTranscript(claudeCode));
  });
});

describe('parseTranscript errors', () => {
  const broken = [claudeCode.split('\n')[1], '{"type": "user", nope', claudeCode.split('\n')[2]].join('\n');

  it.each([
    ['bad JSON', broken, /x\.jsonl:2: not valid JSON/],
    [
      'a line without uuid',
      [claudeCode.split('\n')[1], line({ type: 'user', message: { role: 'user', content: 'hi' } })].join('\n'),
      /x\.jsonl:2: user line has no "uuid"/,
    ],
    [
      'an unknown block',
      [
        claudeCode.split('\n')[1],
        line({ type: 'user', uuid: 'u9', message: { role: 'user', content: [{ type: 'hologram' }] } }),
      ].join('\n'),
      /x\.jsonl:2: unknown content block type "hologram"/,
    ],
  ])('names the file and line for %s', (_name, text, pattern) => {
    const error = catchError(() => parseTranscript(text, { file: 'x.jsonl' }));
    expect(TranscriptError.isInstance(error)).toBe(true);
    expect((error as TranscriptError).code).toBe(TRANSCRIPT_ERROR_CODES.invalid);
    expect((error as TranscriptError).line).toBe(2);
    expect((error as Error).message).toMatch(pattern);
  });

  it('skips and counts malformed lines with skipInvalid', () => {
    const transcript = parseTranscript(broken, { skipInvalid: true });
    expect(transcript.skipped).toBe(1);
    expect(transcript.messages.map((message) => message.id)).toEqual(['u1', 'm1']);
  });

  it.each([
    ['plain text', 'hello world'],
    ['an empty file', ''],
    ['a JSON object of another kind', '{"name": "x"}'],
  ])('rejects %s saying which formats were tried', (_name, text) => {
    const error = catchError(() => parseTranscript(text, { file: 'mystery.txt' }));
    expect((error as TranscriptError).code).toBe(TRANSCRIPT_ERROR_CODES.unknownFormat);
    expect((error as Error).message).toMatch(
      /mystery\.txt: not a known transcript format; tried claude-code \(.+\); openhands \(.+\); swe-agent \(.+\)/,
    );
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
