import { createHost, type SessionErrorEvent } from '@ctxhost/core';
import type { Event } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createEventBridge } from './event-bridge.js';
import { createMirrorRegistry } from './mirror-registry.js';

const overflow = {
  name: 'ContextOverflowError',
  data: { message: 'prompt is too long: 40184 tokens > 30000 maximum' },
};
const sessionError = (error: object): Event =>
  ({ type: 'session.error', properties: { sessionID: 'ses_1', error } }) as Event;

function bridged(opencodeCompacts: boolean) {
  const host = createHost({ enginePlugin: false });
  const errors: SessionErrorEvent[] = [];
  host.hooks.sessionError.tapPromise('test', async (event) => void errors.push(event));
  const registry = createMirrorRegistry();
  const bridge = createEventBridge(host, registry, { opencodeCompacts: () => opencodeCompacts });
  return { bridge, errors, registry };
}

describe('createEventBridge: session.error', () => {
  it('forwards an overflow to ctxhost’s recovery when opencode’s own compaction is off', async () => {
    const { bridge, errors } = bridged(false);
    bridge.accept(sessionError(overflow));
    await bridge.settled();
    expect(errors.map((event) => event.error)).toMatchObject([
      { kind: 'context_overflow', currentTokens: 40_184, maxTokens: 30_000 },
    ]);
  });

  it('does not forward an overflow while opencode compacts by itself, but still forwards other errors', async () => {
    const { bridge, errors } = bridged(true);
    bridge.accept(sessionError(overflow));
    bridge.accept(sessionError({ name: 'APIError', data: { message: 'overloaded', statusCode: 529 } }));
    await bridge.settled();
    expect(errors.map((event) => event.error.kind)).toEqual(['overloaded']);
  });

  it('remembers which prompt failed, so a summarize can withdraw it first', async () => {
    const { bridge, registry } = bridged(false);
    registry.stateOf('ses_1').lastPrompt = {
      messageId: 'msg_u2',
      texts: ['second'],
      model: undefined,
      agent: undefined,
    };
    bridge.accept(sessionError(overflow));
    await bridge.settled();
    expect(registry.peek('ses_1')?.failedPrompt).toBe('msg_u2');
  });
});
