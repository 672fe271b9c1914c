import type { Message } from '@ctxhost/core';
import { countTokens } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { MAX_PREFIX_TOKENS, reconstructPrefix } from './reconstruct-prefix.js';

const messages: Message[] = [
  { id: 'u', role: 'user', parts: [{ id: 'u.0', type: 'text', text: 'hi' }] },
  { id: 'a', role: 'assistant', parts: [{ id: 'a.0', type: 'text', text: 'ok' }] },
];
const reported = (inputTokens: number) => [
  {
    usage: { inputTokens, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    messageIndex: 0,
    replyIndex: 1,
  },
];

describe('reconstructPrefix', () => {
  it('never sizes the stand-in by a reported count past the window (a transcript reporting 1e9 input tokens)', () => {
    const input = { messages, system: undefined, tools: [], sidechain: false };
    expect(reconstructPrefix({ ...input, usage: reported(1e9), maxTokens: 50_000 })?.tokens).toBe(50_000);
    expect(reconstructPrefix({ ...input, usage: reported(1e12) })?.tokens).toBe(MAX_PREFIX_TOKENS);
    expect(reconstructPrefix({ ...input, usage: reported(Number.POSITIVE_INFINITY) })).toBeUndefined();
  });

  it('splits the stand-in where the recorded warm prefix ends: tools and first block within it, the rest after', () => {
    const warm = (cacheReadInputTokens: number) =>
      reconstructPrefix({
        messages,
        system: undefined,
        tools: [],
        sidechain: false,
        usage: [{ ...reported(3_000)[0]!, usage: { ...reported(3_000)[0]!.usage, cacheReadInputTokens } }],
      })!;
    const half = warm(1_000);
    expect(half.warmTokens).toBe(1_000);
    expect(half.warmSplit).toHaveLength(2);
    expect(half.warmSplit.join(' ')).toBe(half.system);
    const first = countTokens({ messages: [], system: [{ type: 'text', text: half.warmSplit[0]! }] });
    expect(first).toBeLessThanOrEqual(1_000);
    expect(first).toBeGreaterThan(990);
    expect(warm(0).warmTokens).toBe(0);
    const all = warm(1e9);
    expect(all.warmTokens).toBe(all.headTokens);
    expect(all.warmSplit).toEqual([all.system]);
  });
});
