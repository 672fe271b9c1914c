import { describe, expect, it } from 'vitest';
import { countBlockTokens, countTextTokens, countTokens, TOKENIZER } from './tokenizer.js';

describe('the simulator tokenizer', () => {
  it.each([
    ['', 0],
    ['word', 1],
    ['words', 1],
    ['wordsy', 2],
    ['12345', 2],
    ['a, b.', 4],
    ['one two   three', 3],
    ['line\nline', 3],
    ['日本語', 3],
    ['internationalization', 4],
  ])('counts %j as %i tokens', (text, tokens) => {
    expect(countTextTokens(text)).toBe(tokens);
  });

  it('charges images a flat amount and blocks an overhead', () => {
    expect(
      countBlockTokens({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'x'.repeat(9999) } }),
    ).toBe(TOKENIZER.image);
    expect(countBlockTokens({ type: 'text', text: 'hello' })).toBe(TOKENIZER.block + 1);
  });

  it('adds the message, block and tool overheads over the whole prompt', () => {
    const messages = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    ];
    expect(countTokens({ messages })).toBe(2 * (TOKENIZER.message + TOKENIZER.block + 1));
    const withTool = countTokens({ messages, tools: [{ name: 'ls', input_schema: { type: 'object' } }] });
    expect(withTool - countTokens({ messages })).toBeGreaterThan(TOKENIZER.tool);
  });

  it('ignores cache_control when counting', () => {
    const plain = countTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'same words' }] }] });
    const marked = countTokens({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'same words', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(marked).toBe(plain);
  });
});
