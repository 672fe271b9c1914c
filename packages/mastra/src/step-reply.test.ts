import { describe, expect, it } from 'vitest';
import { stepReply, type StepChunk } from './step-reply.js';

const usage = {
  inputTokens: 1_200,
  outputTokens: 40,
  cachedInputTokens: 1_000,
  cacheCreationInputTokens: 100,
};

describe('stepReply: a Mastra step’s chunks as a ctxhost reply', () => {
  it('joins text and reasoning deltas by id, in the order the model produced them, with the tool calls', () => {
    const chunks: StepChunk[] = [
      { type: 'step-start', payload: {} },
      { type: 'reasoning-delta', payload: { id: 'r', text: 'think' } },
      { type: 'text-delta', payload: { id: 't', text: 'Reading ' } },
      { type: 'reasoning-delta', payload: { id: 'r', text: 'ing' } },
      { type: 'text-delta', payload: { id: 't', text: 'a.ts.' } },
      {
        type: 'tool-call',
        payload: { toolCallId: 'call_1', toolName: 'read_file', args: { path: 'a.ts', __mastraMetadata: { x: 1 } } },
      },
      { type: 'tool-call', payload: { toolCallId: 'srv_1', toolName: 'web_search', args: {}, providerExecuted: true } },
      { type: 'step-finish', payload: { output: { usage } } },
    ];
    const reply = stepReply(chunks);
    expect(reply.message.role).toBe('assistant');
    expect(reply.message.parts.map(({ id: _id, ...part }) => part)).toEqual([
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: 'Reading a.ts.' },
      { type: 'tool-call', callId: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
    ]);
    expect(reply.message.parts.map((part) => part.id)).toEqual(
      [0, 1, 2].map((index) => `${reply.message.id}:${index}`),
    );
  });

  it.each([
    ['Mastra’s v2 fields: input without the cache reads and writes', usage, 100],
    ['an AI SDK 7 model’s raw usage: its noCache count', { ...usage, raw: { inputTokens: { noCache: 97 } } }, 97],
  ])('reads the usage from %s', (_case, reported, inputTokens) => {
    const reply = stepReply([{ type: 'finish', payload: { output: { usage: reported } } }]);
    expect(reply.usage).toEqual({
      inputTokens,
      outputTokens: 40,
      cacheReadInputTokens: 1_000,
      cacheCreationInputTokens: 100,
    });
  });

  it('leaves out empty texts and has no usage when the step reported none', () => {
    const reply = stepReply([{ type: 'text-delta', payload: { id: 't', text: '' } }]);
    expect(reply.message.parts).toEqual([]);
    expect(reply.usage).toBeUndefined();
  });
});
