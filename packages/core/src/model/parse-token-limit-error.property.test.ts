import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTokenLimitError, type ParsedTokenLimitError } from './parse-token-limit-error.js';
import { TOKEN_LIMIT_SAMPLES } from './token-limit-samples.js';

const KINDS = [
  'token_limit_exceeded',
  'context_length_exceeded',
  'bedrock_input_too_long',
  'non_empty_content',
  'request_too_large',
];

/** A parse result or null; numbers, when present, are finite and non-negative. */
function expectResultOrNull(parsed: ParsedTokenLimitError | null): void {
  if (parsed === null) return;
  expect(KINDS).toContain(parsed.kind);
  for (const key of ['currentTokens', 'maxTokens', 'messageIndex'] as const) {
    const value = parsed[key];
    if (value !== undefined)
      expect(
        Number.isFinite(value) && (key === 'messageIndex' ? Number.isInteger(value) && value >= 0 : value > 0),
        `${key} = ${value}`,
      ).toBe(true);
  }
}

const sampleText = fc.constantFrom(...TOKEN_LIMIT_SAMPLES.map(([, text]) => text));
/** The providers' phrasings with numbers as they are written, and as they should never be (commas only, zero, huge). */
const numeral = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000 }).map((n) => n.toLocaleString('en-US')),
  fc.stringMatching(/^[\d,]{1,12}$/),
  fc.constant('9'.repeat(400)),
);
const templated = fc
  .tuple(
    fc.constantFrom(
      (a: string, b: string) => `prompt is too long: ${a} tokens > ${b} maximum`,
      (a: string, b: string) =>
        `input length and \`max_tokens\` exceed context limit: ${a} + ${b} > ${b}, decrease input length`,
      (a: string, b: string) =>
        `This model's maximum context length is ${a} tokens. However, your messages resulted in ${b} tokens.`,
      (a: string, b: string) => `The input token count (${a}) exceeds the maximum number of tokens allowed (${b}).`,
      (a: string, b: string) =>
        `messages.${a}: all messages must have non-empty content except for the optional final assistant message ${b}`,
    ),
    numeral,
    numeral,
  )
  .map(([format, a, b]) => format(a, b));
const text = fc.oneof(
  sampleText,
  templated,
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  sampleText.map((sample) => `data: ${JSON.stringify({ error: { message: sample } })}`),
);
const KEYS = [
  'error',
  'message',
  'data',
  'responseBody',
  'cause',
  'body',
  'kind',
  'status',
  'statusCode',
  'currentTokens',
  'maxTokens',
  'messageIndex',
  'provider',
  'type',
  'code',
  '__proto__',
  'constructor',
];

/** Errors nested the ways SDKs nest them, with junk and look-alikes in between. */
const errorLike: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
      fc.constantFrom('context_overflow', 'empty_content', 'request_too_large', 'output_budget_overflow', 413),
    ),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 5 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.tuple(text, tie('value')).map(([message, cause]) => new Error(message, { cause })),
    tie('value').map((value) => JSON.stringify(value) ?? 'undefined'),
  ),
})).value;

describe('parseTokenLimitError on arbitrary input (property)', () => {
  it('reads normalised provider errors by kind, whatever numbers they carry', () => {
    const anyNumber = fc.oneof(fc.double(), fc.integer(), fc.constant(undefined), fc.string({ maxLength: 4 }));
    const normalised = fc.record({
      kind: fc.constantFrom(
        'context_overflow',
        'output_budget_overflow',
        'empty_content',
        'request_too_large',
        'rate_limited',
      ),
      message: text,
      currentTokens: anyNumber,
      maxTokens: anyNumber,
      messageIndex: anyNumber,
      provider: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(normalised, (error) => expectResultOrNull(parseTokenLimitError(error))),
      { numRuns: 500, seed: 1504 },
    );
  });

  it('returns a parse result or null for nested errors, JSON and SSE bodies, junk and numbers of every kind', () => {
    fc.assert(
      fc.property(errorLike, (error) => expectResultOrNull(parseTokenLimitError(error))),
      { numRuns: 1500, seed: 1501 },
    );
  });

  it('never throws on cycles, throwing getters, proxies and exotic objects', () => {
    fc.assert(
      fc.property(errorLike, fc.constantFrom('self', 'getter', 'proxy', 'frozen', 'nullProto'), (inner, twist) => {
        const holder: Record<string, unknown> = { error: inner, message: 'request failed' };
        let value: unknown = holder;
        if (twist === 'self') holder['cause'] = holder;
        if (twist === 'getter')
          Object.defineProperty(holder, 'data', {
            enumerable: true,
            get: () => {
              throw new TypeError('no data');
            },
          });
        if (twist === 'proxy')
          value = new Proxy(holder, {
            ownKeys: () => {
              throw new Error('trap');
            },
          });
        if (twist === 'frozen') value = Object.freeze(holder);
        if (twist === 'nullProto') value = Object.assign(Object.create(null) as object, holder);
        expectResultOrNull(parseTokenLimitError(value));
      }),
      { numRuns: 500, seed: 1502 },
    );
  });

  it('finds the overflow however deep it sits within the documented depth, through a cycle', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.constantFrom('error', 'cause', 'data', 'body'), (depth, key) => {
        let value: unknown = { message: 'prompt is too long: 210000 tokens > 200000 maximum' };
        for (let level = 0; level < depth; level++) value = { [key]: value };
        (value as Record<string, unknown>)['loop'] = value;
        expect(parseTokenLimitError(value)).toMatchObject({
          kind: 'token_limit_exceeded',
          currentTokens: 210000,
          maxTokens: 200000,
        });
      }),
      { numRuns: 100, seed: 1503 },
    );
  });
});
