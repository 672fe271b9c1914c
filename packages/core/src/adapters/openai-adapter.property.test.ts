import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromOpenAI, toOpenAI } from './openai-adapter.js';
import type { OpenAIMessage } from './openai-wire-types.js';

const text = fc.string({ maxLength: 30 });
const textParts = fc.array(
  text.map((t) => ({ type: 'text' as const, text: t })),
  { minLength: 1, maxLength: 3 },
);
const name = fc.option(fc.stringMatching(/^[a-z]{1,6}$/), { nil: undefined });
const withName = <T extends object>(message: T, n: string | undefined): T =>
  n === undefined ? message : { ...message, name: n };
const callId = fc.stringMatching(/^call_[a-z0-9]{4}$/);
const args = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, 2)),
  fc.constant('{not json'),
);

const system = fc
  .record({
    role: fc.constantFrom('system' as const, 'developer' as const),
    content: fc.oneof(text, textParts),
    n: name,
  })
  .map(({ n, ...m }) => withName(m, n));
const user = fc
  .record({
    content: fc.oneof(
      text,
      fc.array(
        fc.oneof(
          text.map((t) => ({ type: 'text' as const, text: t })),
          fc.webUrl().map((url) => ({ type: 'image_url' as const, image_url: { url } })),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    n: name,
  })
  .map(({ n, content }) => withName({ role: 'user' as const, content }, n));
const assistant = fc
  .record({
    content: fc.option(fc.oneof(text, textParts), { nil: null }),
    calls: fc.array(fc.record({ id: callId, name: fc.stringMatching(/^[a-z_]{1,8}$/), arguments: args }), {
      maxLength: 2,
    }),
  })
  .map(({ content, calls }) => ({
    role: 'assistant' as const,
    content,
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments },
          })),
        }
      : {}),
  }));
const tool = fc
  .record({ tool_call_id: callId, content: fc.oneof(text, textParts) })
  .map((m) => ({ role: 'tool' as const, ...m }));

describe('OpenAI round trip (property)', () => {
  it('OpenAI → ctxhost → OpenAI gives back an equal value', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(system, user, assistant, tool), { maxLength: 8 }), (messages) => {
        expect(toOpenAI(fromOpenAI(messages as OpenAIMessage[]))).toEqual(messages);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the exact text of arguments that are not canonical JSON', () => {
    const messages: OpenAIMessage[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{ "a" : 1 }' } }],
      },
    ];
    const model = fromOpenAI(messages);
    expect(model[0]?.parts[0]).toMatchObject({ type: 'tool-call', input: { a: 1 } });
    expect(toOpenAI(model)).toEqual(messages);
  });

  it('splits a ctxhost tool message with several results into one OpenAI tool message each', () => {
    const out = toOpenAI([
      {
        id: 't',
        role: 'tool',
        parts: [
          { id: 'a', type: 'tool-result', callId: 'c1', output: 'one' },
          { id: 'b', type: 'tool-result', callId: 'c2', output: 'two' },
        ],
      },
    ]);
    expect(out).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
    ]);
  });
});
