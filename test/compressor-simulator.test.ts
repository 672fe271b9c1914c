import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter, type Message, type Summarizer } from '@ctxhost/core';
import { createCompressor } from '@ctxhost/compressor';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

/** A summarizer over the real SDK: the instructions as the system prompt, the span (and previous summary) as text. */
function sdkSummarizer(client: Anthropic): Summarizer {
  return {
    name: 'sdk-test-summarizer',
    async summarize(request) {
      const span = request.messages
        .map(
          (message) =>
            `${message.role}: ${message.parts.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-result' ? String(part.output) : part.type === 'tool-call' ? JSON.stringify(part.input) : '')).join('\n')}`,
        )
        .join('\n\n');
      const previous = request.previousSummary === undefined ? '' : `Previous summary:\n${request.previousSummary}\n\n`;
      const reply = await client.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: request.maxOutputTokens,
        system: request.instructions,
        messages: [{ role: 'user', content: `${previous}Conversation:\n${span}` }],
      });
      return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
  };
}

let counter = 0;
const text = (role: Message['role'], body: string): Message => {
  const id = `c${++counter}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
};
const turns = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    text(
      i % 2 ? 'assistant' : 'user',
      `${topic} step ${i}: edited src/${topic}/file${i}.ts\n$ npm test -- ${topic}${i}\n${'detail '.repeat(80)}`,
    ),
  );

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

describe('compressor against the simulator', () => {
  it('summarizes through the model, then updates its own summary', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const compressor = createCompressor({ compression: { protectLastN: 4 }, summarizer: sdkSummarizer(client) });
    const context = {
      sessionId: 's',
      contextWindow: 8_000,
      counter: createTokenCounter(),
      reason: 'threshold' as const,
    };
    const first = await compressor.compress([text('system', 'You are careful.'), ...turns('parser', 20)], context);
    const summary1 = first.messages.find((message) => message.meta?.summary);
    expect(first.report.summary?.source).toBe('model');
    expect(JSON.stringify(summary1)).toContain('src/parser/file3.ts');
    const second = await compressor.compress([...first.messages, ...turns('lexer', 20)], context);
    const summaries = second.messages.filter((message) => message.meta?.summary);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.meta?.summary?.iteration).toBe(2);
    const body = JSON.stringify(summaries[0]);
    expect(body).toContain('src/lexer/file3.ts');
    const requests = sim.requests.filter((request) => request.path === '/v1/messages');
    expect(JSON.stringify(requests.at(-1)?.body)).toContain('Update the previous summary');
  });

  it('falls back to an extractive summary when the model call fails', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    sim.faults.next(1, 'overloaded');
    const compressor = createCompressor({ compression: { protectLastN: 4 }, summarizer: sdkSummarizer(client) });
    const result = await compressor.compress([text('system', 'sys'), ...turns('cache', 20)], {
      sessionId: 's',
      contextWindow: 8_000,
      counter: createTokenCounter(),
      reason: 'threshold',
    });
    expect(result.report.summary?.source).toBe('extractive');
    expect(JSON.stringify(result.messages)).toContain('src/cache/file3.ts');
  });
});
