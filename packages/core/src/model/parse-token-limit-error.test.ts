import { describe, expect, it } from 'vitest';
import { parseTokenLimitError } from './parse-token-limit-error.js';
import { TOKEN_LIMIT_SAMPLES } from './token-limit-samples.js';

/** The same text, nested the ways real errors nest it. */
const shapes: [string, (text: string) => unknown][] = [
  ['bare string', (text) => text],
  ['Error', (text) => new Error(text)],
  ['API body', (text) => ({ type: 'error', error: { type: 'invalid_request_error', message: text } })],
  [
    'SDK-like error.error.error.message',
    (text) => Object.assign(new Error('400'), { status: 400, error: { type: 'error', error: { message: text } } }),
  ],
  [
    'data.responseBody as JSON',
    (text) => ({ name: 'AI_APICallError', data: { responseBody: JSON.stringify({ error: { message: text } }) } }),
  ],
  [
    'SSE stream',
    (text) => ({
      data: { responseBody: `event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: text } })}\n\n` },
    }),
  ],
  [
    'cause chain',
    (text) => new Error('request failed', { cause: new Error('upstream', { cause: { message: text } }) }),
  ],
];

describe('parseTokenLimitError', () => {
  for (const [shape, wrap] of shapes) {
    it.each(TOKEN_LIMIT_SAMPLES)(`${shape}: %s`, (_name, text, expected) => {
      const parsed = parseTokenLimitError(wrap(text));
      if (expected === null) expect(parsed).toBeNull();
      else expect(parsed).toMatchObject(expected);
    });
  }

  it('reads the numbers of an AI SDK APICallError from its responseBody or data when its message has none', () => {
    const body = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' },
    };
    const apiCallError = (fields: object) =>
      Object.assign(new Error('Prompt is too long'), { name: 'AI_APICallError', statusCode: 400, ...fields });
    const expected = { kind: 'token_limit_exceeded', currentTokens: 212345, maxTokens: 200000 };
    expect(parseTokenLimitError(apiCallError({ responseBody: JSON.stringify(body) }))).toMatchObject(expected);
    expect(parseTokenLimitError(apiCallError({ data: body }))).toMatchObject(expected);
    const fireworks = { error: { message: 'The prompt is too long: 267657, model maximum context length: 262143' } };
    expect(
      parseTokenLimitError(
        Object.assign(new Error('Bad Request'), { name: 'AI_APICallError', responseBody: JSON.stringify(fireworks) }),
      ),
    ).toMatchObject({ currentTokens: 267657, maxTokens: 262143 });
  });

  it('reads a normalised provider error by its kind', () => {
    expect(
      parseTokenLimitError({ kind: 'context_overflow', message: 'x', currentTokens: 10, maxTokens: 5 }),
    ).toMatchObject({ kind: 'token_limit_exceeded', currentTokens: 10, maxTokens: 5 });
    expect(parseTokenLimitError({ kind: 'empty_content', message: 'x', messageIndex: 3 })).toMatchObject({
      kind: 'non_empty_content',
      messageIndex: 3,
    });
    expect(
      parseTokenLimitError({ kind: 'rate_limited', message: 'prompt is too long: 5 tokens > 4 maximum' }),
    ).toMatchObject({ kind: 'token_limit_exceeded' });
    expect(parseTokenLimitError({ kind: 'overloaded', message: 'Overloaded' })).toBeNull();
  });

  it('drops numbers that are not counts: NaN, zero, negative, beyond Infinity (found by fuzzing)', () => {
    expect(
      parseTokenLimitError({ kind: 'context_overflow', message: 'x', currentTokens: Number.NaN, maxTokens: -5 }),
    ).toEqual({ kind: 'token_limit_exceeded' });
    expect(parseTokenLimitError({ kind: 'empty_content', message: 'x', messageIndex: 1.5 })).toEqual({
      kind: 'non_empty_content',
    });
    expect(parseTokenLimitError(`prompt is too long: ${'9'.repeat(400)} tokens > 0 maximum`)).toEqual({
      kind: 'token_limit_exceeded',
      provider: 'anthropic',
    });
    expect(parseTokenLimitError('prompt is too long: , tokens > 200,000 maximum')).toEqual({
      kind: 'token_limit_exceeded',
      provider: 'anthropic',
      maxTokens: 200000,
    });
  });

  it('survives cycles, depth and junk', () => {
    const cyclic: Record<string, unknown> = { message: 'nothing here' };
    cyclic['self'] = cyclic;
    expect(parseTokenLimitError(cyclic)).toBeNull();
    let deep: unknown = 'prompt is too long: 2 tokens > 1 maximum';
    for (let i = 0; i < 100; i++) deep = { error: deep };
    expect(parseTokenLimitError(deep)).toBeNull();
    for (const junk of [undefined, null, 42, Symbol('x'), () => 1, [], '{broken json'])
      expect(parseTokenLimitError(junk)).toBeNull();
  });
});
