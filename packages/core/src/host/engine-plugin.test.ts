import { describe, expect, it } from 'vitest';
import type { ContextEngine } from '../engines/context-engine.js';
import { createHost } from './create-host.js';
import type { CompactionFailedEvent, ToastEvent } from './host-hooks.js';

/** An engine that always wants to compress and never can (a session whose newest messages hold everything). */
const stuckEngine: ContextEngine = {
  name: 'stuck',
  shouldCompress: () => true,
  compress: async (messages) => ({
    messages: [...messages],
    report: {
      engine: 'stuck',
      reason: 'threshold',
      tokensBefore: 100,
      tokensAfter: 100,
      messagesBefore: messages.length,
      messagesAfter: messages.length,
      notes: ['not compacted: it would save under 10%'],
    },
  }),
};

describe('the engine plugin', () => {
  it('says a compaction not done once per session and counts the rest', async () => {
    const host = createHost({ engine: stuckEngine, config: { model: { contextLength: 1_000 } } });
    const toasts: ToastEvent[] = [];
    const failed: CompactionFailedEvent[] = [];
    host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
    host.hooks.compactionFailed.tapPromise('test', async (event) => void failed.push(event));
    for (const sessionId of ['a', 'b']) {
      const session = await host.session(sessionId);
      for (let turn = 0; turn < 5; turn++) {
        await session.append({
          id: `${sessionId}-${turn}`,
          role: 'user',
          parts: [{ id: `${sessionId}-${turn}:0`, type: 'text', text: `turn ${turn}` }],
        });
        await host.hooks.beforeRequest.promise(
          { sessionId, model: 'm', messages: [...session.messages()], maxTokens: 10 },
          { sessionId, contextWindow: 1_000 },
        );
      }
    }
    const notDone = toasts.filter((toast) => toast.title === 'Compaction not done');
    expect(notDone.map((toast) => toast.sessionId)).toEqual(['a', 'b']);
    expect(notDone[0]?.text).toBe(
      'not compacted: it would save under 10% (said once for this session; later ones are counted, not said)',
    );
    expect(failed).toHaveLength(10);
    await host.dispose();
  });
});
