import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel } from '@ctxhost/anthropic';
import { createHost, type SessionErrorEvent, type ToastEvent } from '@ctxhost/core';
import { startSimulator } from '@ctxhost/simulator';

describe('silent overflows in the agent loop (real SDK against the simulator)', () => {
  it('an empty reply at the window is an overflow; an answer over the window is kept with a warning', async () => {
    const simulator = await startSimulator();
    try {
      simulator.script(
        { content: [], stopReason: 'end_turn', usage: { input_tokens: 19_950, output_tokens: 0 } },
        { content: 'an answer', usage: { input_tokens: 25_000, output_tokens: 5 } },
      );
      const host = createHost();
      const errors: SessionErrorEvent[] = [];
      const toasts: ToastEvent[] = [];
      host.hooks.sessionError.tapPromise('t', async (event) => {
        errors.push(event);
      });
      host.hooks.toast.tapPromise('t', async (toast) => {
        toasts.push(toast);
      });
      const client = new Anthropic({ apiKey: 'silent', baseURL: simulator.url, maxRetries: 0 });
      const agent = createAgent({
        host,
        model: createAnthropicModel(client, { model: 'claude-sonnet-4-6', contextWindow: 20_000 }),
      });
      const first = await agent.send('s', 'hello');
      expect(first.status).toBe('error');
      expect(errors[0]?.error).toMatchObject({ kind: 'context_overflow', currentTokens: 19_950, maxTokens: 20_000 });
      const second = await agent.send('s', 'again');
      expect(second.status).toBe('done');
      expect(toasts.find((toast) => toast.title === 'Silent overflow')?.text).toMatch(
        /25000 tokens, over the window of 20000/,
      );
    } finally {
      await simulator.close();
    }
  });
});
