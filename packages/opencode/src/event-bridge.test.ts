import { createHost, type SessionErrorEvent } from '@ctxhost/core';
import type { Event, Part } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createEventBridge, type StoredMessage } from './event-bridge.js';
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

const reply = (completed?: number) => ({
  id: 'msg_a1',
  sessionID: 'ses_1',
  role: 'assistant',
  parentID: 'msg_u1',
  modelID: 'claude-sonnet-4-6',
  providerID: 'anthropic',
  mode: 'build',
  path: { cwd: '/', root: '/' },
  cost: 0,
  tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
  time: completed === undefined ? { created: 1 } : { created: 1, completed },
});

describe('createEventBridge: events are read as opencode sent them', () => {
  it('a reply that arrives completed before any of its parts is read back from opencode, not taken for an empty one', async () => {
    const host = createHost({ enginePlugin: false });
    const registry = createMirrorRegistry();
    const text = { id: 'prt_t1', sessionID: 'ses_1', messageID: 'msg_a1', type: 'text', text: 'the answer' };
    const read: string[] = [];
    const bridge = createEventBridge(host, registry, {
      readParts: async (sessionId, messageId) => {
        read.push(`${sessionId}/${messageId}`);
        return [text] as Part[];
      },
    });
    bridge.accept({ type: 'session.compacted', properties: { sessionID: 'ses_1' } });
    bridge.accept({ type: 'message.updated', properties: { info: reply(2) } } as Event);
    await bridge.settled();
    expect(read).toEqual(['ses_1/msg_a1']);
    expect(registry.peek('ses_1')?.afterCompaction.emptyReplyTo).toBeUndefined();
    expect((await host.session('ses_1')).messages().map((message) => message.parts)).toEqual([
      [{ type: 'text', id: 'prt_t1', text: 'the answer' }],
    ]);
  });

  it('mirrors a reply with its text even when opencode completes the same message object before the queue reaches it', async () => {
    const host = createHost({ enginePlugin: false });
    const bridge = createEventBridge(host, createMirrorRegistry());
    const info = reply();
    const text = { id: 'prt_t1', sessionID: 'ses_1', messageID: 'msg_a1', type: 'text', text: 'the answer' };
    bridge.accept({ type: 'message.updated', properties: { info } } as Event);
    bridge.accept({ type: 'message.part.updated', properties: { part: text } } as Event);
    // opencode sets `time.completed` on the object it already published, then publishes it again.
    Object.assign(info.time, { completed: 2 });
    bridge.accept({ type: 'message.updated', properties: { info } } as Event);
    await bridge.settled();
    const session = await host.session('ses_1');
    expect(session.messages().map((message) => [message.role, message.parts])).toEqual([
      ['assistant', [{ type: 'text', id: 'prt_t1', text: 'the answer' }]],
    ]);
  });
});

describe('createEventBridge: a turn that ends before its reply is seen completed', () => {
  const user = { id: 'msg_u1', sessionID: 'ses_1', role: 'user', time: { created: 1 }, agent: 'build', model: {} };
  const prompt = { id: 'prt_u1', sessionID: 'ses_1', messageID: 'msg_u1', type: 'text', text: 'the question' };
  const answer = { id: 'prt_t1', sessionID: 'ses_1', messageID: 'msg_a1', type: 'text', text: 'the answer' };
  // The turn's end reaching the plugin before the update that completes its reply.
  const turnWithoutItsEnd: Event[] = [
    { type: 'message.updated', properties: { info: user } } as Event,
    { type: 'message.part.updated', properties: { part: prompt } } as Event,
    { type: 'message.updated', properties: { info: reply() } } as Event,
    { type: 'session.idle', properties: { sessionID: 'ses_1' } },
  ];
  const stored = { ...reply(2), tokens: { input: 45_000, output: 5, reasoning: 0, cache: { read: 0, write: 0 } } };

  it('mirrors the reply opencode stored before the idle hooks run, so its usage counts there', async () => {
    const host = createHost({ enginePlugin: false });
    const atIdle: number[] = [];
    host.hooks.sessionIdle.tapPromise('test', async ({ sessionId }) => {
      atIdle.push((await host.session(sessionId)).promptSize().tokens);
    });
    const read: string[] = [];
    const bridge = createEventBridge(host, createMirrorRegistry(), {
      readMessage: async (sessionId, messageId) => {
        read.push(`${sessionId}/${messageId}`);
        return { info: stored, parts: [answer] } as StoredMessage;
      },
    });
    for (const event of turnWithoutItsEnd) bridge.accept(event);
    await bridge.idle();
    expect(read).toEqual(['ses_1/msg_a1']);
    const session = await host.session('ses_1');
    expect(session.messages().map((message) => [message.role, message.parts])).toEqual([
      ['user', [{ type: 'text', id: 'prt_u1', text: 'the question' }]],
      ['assistant', [{ type: 'text', id: 'prt_t1', text: 'the answer' }]],
    ]);
    expect(session.promptSize()).toMatchObject({ source: 'reported+estimated', reportedTokens: 45_000 });
    expect(atIdle).toEqual([session.promptSize().tokens]);

    // The completing update, arriving after all: the reply is mirrored once.
    bridge.accept({ type: 'message.updated', properties: { info: stored } } as Event);
    await bridge.settled();
    expect(session.messages()).toHaveLength(2);
  });

  it('reads nothing when the completing update came before the end of the turn', async () => {
    const host = createHost({ enginePlugin: false });
    const read: string[] = [];
    const bridge = createEventBridge(host, createMirrorRegistry(), {
      readMessage: async (sessionId, messageId) => void read.push(`${sessionId}/${messageId}`),
    });
    const [first, part, update, idle] = turnWithoutItsEnd as [Event, Event, Event, Event];
    const answered = { type: 'message.part.updated', properties: { part: answer } } as Event;
    const completed = { type: 'message.updated', properties: { info: stored } } as Event;
    for (const event of [first, part, update, answered, completed, idle]) bridge.accept(event);
    await bridge.idle();
    expect(read).toEqual([]);
    expect((await host.session('ses_1')).messages()).toHaveLength(2);
  });

  it('still ends the turn when opencode cannot be read', async () => {
    const host = createHost({ enginePlugin: false });
    const idled: string[] = [];
    host.hooks.sessionIdle.tapPromise('test', async ({ sessionId }) => void idled.push(sessionId));
    const bridge = createEventBridge(host, createMirrorRegistry(), {
      readMessage: async () => {
        throw new Error('connection refused');
      },
    });
    for (const event of turnWithoutItsEnd) bridge.accept(event);
    await bridge.idle();
    expect(idled).toEqual(['ses_1']);
  });
});
