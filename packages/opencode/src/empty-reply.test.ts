import type { AssistantMessage, Part } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { isEmptyReply, silentOverflowError } from './empty-reply.js';

const info: AssistantMessage = {
  id: 'msg_a',
  sessionID: 'ses_1',
  role: 'assistant',
  time: { created: 0, completed: 1 },
  parentID: 'msg_u',
  modelID: 'claude-sonnet-4-5',
  providerID: 'anthropic',
  mode: 'build',
  path: { cwd: '/p', root: '/p' },
  cost: 0,
  tokens: { input: 0, output: 1, reasoning: 0, cache: { read: 10_000, write: 35_000 } },
};
const at = { sessionID: 'ses_1', messageID: 'msg_a' };

describe('isEmptyReply', () => {
  it('is true for a completed reply with only step markers', () => {
    const parts: Part[] = [
      { ...at, id: 'p1', type: 'step-start' },
      { ...at, id: 'p2', type: 'text', text: '  ' },
    ];
    expect(isEmptyReply(info, parts)).toBe(true);
  });

  it('is false for a reply with text, a tool call, an error, a summary or not yet completed', () => {
    expect(isEmptyReply(info, [{ ...at, id: 'p', type: 'text', text: 'done' }])).toBe(false);
    expect(isEmptyReply({ ...info, summary: true }, [])).toBe(false);
    expect(isEmptyReply({ ...info, time: { created: 0 } }, [])).toBe(false);
    expect(isEmptyReply({ ...info, error: { name: 'UnknownError', data: { message: 'x' } } }, [])).toBe(false);
  });
});

describe('silentOverflowError', () => {
  const usage = (prompt: number) => ({
    inputTokens: 0,
    outputTokens: 1,
    cacheCreationInputTokens: prompt,
    cacheReadInputTokens: 0,
  });

  it('is an overflow with the window when the empty reply’s prompt reached the window', () => {
    expect(silentOverflowError(usage(29_800), 30_000)).toEqual(
      expect.objectContaining({ kind: 'context_overflow', maxTokens: 30_000 }),
    );
    expect(silentOverflowError(usage(29_800), 30_000)?.currentTokens).toBe(29_800);
    expect(silentOverflowError(usage(45_000), 30_000)?.currentTokens).toBe(45_000);
    expect(silentOverflowError(usage(45_000), 30_000)?.message).toMatch(
      /prompt of 45000 tokens at its window of 30000/,
    );
  });

  it('is nothing below the window, or without a window or usage', () => {
    expect(silentOverflowError(usage(20_000), 30_000)).toBeUndefined();
    expect(silentOverflowError(usage(45_000), undefined)).toBeUndefined();
    expect(silentOverflowError(undefined, 30_000)).toBeUndefined();
  });
});
