import { encodeChat } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { createMessage, estimateTokens, fromOpenAI } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import {
  createOpenAITokenCounter,
  loadOpenAIEncoding,
  openAITokenCounterFor,
  TOKENS_PER_MESSAGE,
} from './openai-token-counter.js';

describe('createOpenAITokenCounter', () => {
  it('counts a text chat exactly as gpt-tokenizer encodes it (framing, role, content)', async () => {
    const counter = createOpenAITokenCounter(await loadOpenAIEncoding('o200k_base'));
    const chat = [
      { role: 'system' as const, content: 'You are a careful coding agent. Answer briefly.' },
      {
        role: 'user' as const,
        content: 'Résumé the diff: `- const x = 1;\n+ const x = 2;` — and say why 漢字 matters.',
      },
      { role: 'assistant' as const, content: 'The constant changes from 1 to 2.' },
    ];
    const messages = fromOpenAI(chat);
    // encodeChat adds 3 tokens priming the reply (<|im_start|>assistant<|im_sep|>); a request's messages do not include them.
    expect(counter.countAll(messages)).toBe(encodeChat(chat, 'gpt-4o').length - 3);
  });

  it('uses the model registry to pick the encoding, and none for models without a public one', async () => {
    const gpt4 = await openAITokenCounterFor('gpt-4');
    const text = 'function add(a, b) { return a + b; } // 2026-11-23';
    expect(gpt4?.name).toBe('tiktoken:cl100k_base');
    expect(gpt4?.countText(text)).toBe(countCl100k(text));
    expect((await openAITokenCounterFor('openai/gpt-5-2025-08-07'))?.name).toBe('tiktoken:o200k_base');
    expect(await openAITokenCounterFor('claude-sonnet-4-5')).toBeUndefined();
    expect(await openAITokenCounterFor('my-local-model')).toBeUndefined();
  });

  it('counts tool calls by name and arguments, and images with the estimator', async () => {
    const encoding = await loadOpenAIEncoding('o200k_base');
    const counter = createOpenAITokenCounter(encoding);
    const [call] = fromOpenAI([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls -la"}' } }],
      },
    ]);
    expect(counter.count(call!)).toBe(
      TOKENS_PER_MESSAGE +
        encoding.countText('assistant') +
        3 +
        encoding.countText('bash') +
        encoding.countText('{"command":"ls -la"}'),
    );
    const image = createMessage('user', [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }]);
    expect(counter.count(image)).toBe(estimateTokens(image));
  });
});
