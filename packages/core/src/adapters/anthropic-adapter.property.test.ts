import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromAnthropic, toAnthropic } from './anthropic-adapter.js';
import type { AnthropicMessageParam } from './anthropic-wire-types.js';

const text = fc.string({ maxLength: 40 });
const cacheControl = fc.option(
  fc.constantFrom({ type: 'ephemeral' as const }, { type: 'ephemeral' as const, ttl: '1h' as const }),
  { nil: undefined },
);
const withCache = <T extends object>(block: T, cache: { type: 'ephemeral' } | undefined): T =>
  cache === undefined ? block : { ...block, cache_control: cache };

const textBlock = fc
  .record({ text, cache: cacheControl })
  .map(({ text, cache }) => withCache({ type: 'text' as const, text }, cache));
const imageBlock = fc
  .base64String({ maxLength: 16 })
  .map((data) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data } }));
const toolUse = fc
  .record({
    id: fc.stringMatching(/^toolu_[a-z0-9]{4}$/),
    name: fc.stringMatching(/^[a-z_]{1,8}$/),
    input: fc.jsonValue({ maxDepth: 2 }),
  })
  .map((block) => ({ type: 'tool_use' as const, ...block }));
const thinking = fc
  .record({ thinking: text, signature: fc.base64String({ maxLength: 12 }) })
  .map((block) => ({ type: 'thinking' as const, ...block }));
const toolResult = fc
  .record({
    tool_use_id: fc.stringMatching(/^toolu_[a-z0-9]{4}$/),
    content: fc.option(fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 })), { nil: undefined }),
    is_error: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map(({ content, is_error, ...rest }) => ({
    type: 'tool_result' as const,
    ...rest,
    ...(content === undefined ? {} : { content }),
    ...(is_error === undefined ? {} : { is_error }),
  }));

const userTurn: fc.Arbitrary<AnthropicMessageParam> = fc.oneof(
  text.map((content) => ({ role: 'user' as const, content })),
  fc
    .array(fc.oneof(textBlock, imageBlock, toolResult), { minLength: 1, maxLength: 4 })
    .map((content) => ({ role: 'user' as const, content: content })),
);
const assistantTurn: fc.Arbitrary<AnthropicMessageParam> = fc.oneof(
  text.map((content) => ({ role: 'assistant' as const, content })),
  fc
    .array(fc.oneof(textBlock, thinking, toolUse), { minLength: 1, maxLength: 4 })
    .map((content) => ({ role: 'assistant' as const, content: content })),
);
const system = fc.option(fc.oneof(text, fc.array(textBlock, { minLength: 1, maxLength: 2 })), { nil: undefined });

describe('Anthropic round trip (property)', () => {
  it('Anthropic → ctxhost → Anthropic gives back an equal value', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(userTurn, assistantTurn), { maxLength: 8 }), system, (messages, systemPrompt) => {
        const back = toAnthropic(fromAnthropic(messages, systemPrompt));
        expect(back.messages).toEqual(messages);
        expect(back.system).toEqual(systemPrompt);
      }),
      { numRuns: 300 },
    );
  });

  it('ctxhost → Anthropic → ctxhost keeps every part', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(userTurn, assistantTurn), { maxLength: 8 }), (messages) => {
        const model = fromAnthropic(messages);
        const again = fromAnthropic(toAnthropic(model).messages);
        expect(again).toEqual(model);
      }),
      { numRuns: 200 },
    );
  });
});
