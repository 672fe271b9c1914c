import { createHost, createMemoryStore } from '@ctxhost/core';
import { createContextWindowMonitor } from '@ctxhost/context-window-monitor';
import type { Event } from '@opencode-ai/sdk';
import { describe, expect, it, vi } from 'vitest';
import { createEventBridge } from './event-bridge.js';
import { createMirrorRegistry } from './mirror-registry.js';
import type { OpencodeActions } from './opencode-actions.js';
import { createOpencodePreemptiveCompaction } from './opencode-preemptive-compaction.js';
import { createOpencodeSummaryEngine } from './opencode-summary-engine.js';
import { createOpencodeSyncStore } from './opencode-sync-store.js';

const SESSION = 'ses_1';
const WINDOW = 30_000;
const model = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' };

/** opencode's events for one message: the update, then its parts (ids sort in the order opencode made them). */
function userEvents(id: string, text: string): Event[] {
  const info = { id, sessionID: SESSION, role: 'user', time: { created: 1 }, agent: 'build', model };
  const part = { id: `${id}.t`, sessionID: SESSION, messageID: id, type: 'text', text };
  return [
    { type: 'message.updated', properties: { info } },
    { type: 'message.part.updated', properties: { part } },
  ] as Event[];
}

function markerEvents(id: string): Event[] {
  const info = { id, sessionID: SESSION, role: 'user', time: { created: 1 }, agent: 'build', model };
  const part = { id: `${id}.c`, sessionID: SESSION, messageID: id, type: 'compaction', auto: false };
  return [
    { type: 'message.updated', properties: { info } },
    { type: 'message.part.updated', properties: { part } },
  ] as Event[];
}

function replyEvents(
  id: string,
  parentID: string,
  promptTokens: number,
  extra: { completed?: boolean; summary?: boolean } = {},
): Event[] {
  const info = {
    id,
    sessionID: SESSION,
    role: 'assistant',
    parentID,
    modelID: model.modelID,
    providerID: model.providerID,
    mode: 'build',
    path: { cwd: '/', root: '/' },
    cost: 0,
    tokens: { input: promptTokens, output: 20, reasoning: 0, cache: { read: 0, write: 0 } },
    time: extra.completed === false ? { created: 1 } : { created: 1, completed: 2 },
    ...(extra.summary === true ? { summary: true } : {}),
  };
  const part = { id: `${id}.t`, sessionID: SESSION, messageID: id, type: 'text', text: `a reply to ${parentID}` };
  return extra.completed === false
    ? ([{ type: 'message.updated', properties: { info } }] as Event[])
    : ([
        { type: 'message.part.updated', properties: { part } },
        { type: 'message.updated', properties: { info } },
      ] as Event[]);
}

const idle: Event = { type: 'session.idle', properties: { sessionID: SESSION } };
const compacted: Event = { type: 'session.compacted', properties: { sessionID: SESSION } };
const words = (word: string) => `${word} the quick brown fox jumps over the lazy dog `.repeat(200);

/**
 * The plugin's pieces as it wires them (the mirror, the sync store carrying a compaction out as opencode's
 * summarize, the monitor and preemptive compaction on `session.idle`), over an opencode whose first summarize
 * waits until the test lets it answer (`finishSummary`, with the id of the marker opencode made); the later ones answer at once.
 */
function opencodeSession() {
  const registry = createMirrorRegistry();
  let summarizes = 0;
  let finishSummary = (_marker: string) => undefined as void;
  const actions = {
    summarize: () => {
      summarizes++;
      if (summarizes > 1) return Promise.resolve(undefined);
      return new Promise<string>((resolve) => (finishSummary = resolve));
    },
    messages: async () => [],
  } as unknown as OpencodeActions;
  const host = createHost({
    config: { model: { contextLength: WINDOW } },
    store: createOpencodeSyncStore(createMemoryStore(), actions, registry),
    enginePlugin: false,
    engine: createOpencodeSummaryEngine(),
    plugins: [createContextWindowMonitor(), createOpencodePreemptiveCompaction(registry, actions)],
  });
  const toasts: string[] = [];
  host.hooks.toast.tap('test', (toast) => void toasts.push(`${toast.title}: ${toast.text.slice(0, 3)}`));
  const bridge = createEventBridge(host, registry);
  const send = (...events: Event[][]) => {
    for (const event of events.flat()) bridge.accept(event);
  };
  return {
    bridge,
    send,
    summarizes: () => summarizes,
    finishSummary: (marker: string) => finishSummary(marker),
    toasts,
  };
}

describe('createOpencodePreemptiveCompaction: a prompt that reaches opencode just before ctxhost’s summarize', () => {
  it('compacts once: the reply opencode made from the history before the summary does not count as the session’s usage after it', async () => {
    const { bridge, send, summarizes, finishSummary, toasts } = opencodeSession();
    send(userEvents('msg_01', words('first')), replyEvents('msg_02', 'msg_01', 12_000), [idle]);
    await bridge.idle();
    // The crossing turn: 85% of the window when it ends, so ctxhost has opencode summarize.
    send(userEvents('msg_03', words('second')), replyEvents('msg_04', 'msg_03', 25_500), [idle]);
    await vi.waitFor(() => expect(summarizes()).toBe(1));

    // The next prompt got in first: opencode answers it from the whole history, then writes the summary.
    send(
      userEvents('msg_05', 'a prompt sent as the turn ended'),
      replyEvents('msg_06', 'msg_05', 0, { completed: false }),
    );
    send(markerEvents('msg_07'));
    finishSummary('msg_07');
    await bridge.idle();
    // Its reply reaches the plugin after ctxhost's summarize returned (late, as under load).
    send(replyEvents('msg_06', 'msg_05', 25_600), replyEvents('msg_08', 'msg_07', 25_700, { summary: true }));
    send([compacted, idle]);
    await bridge.idle();

    expect(summarizes()).toBe(1);
    expect(toasts).toEqual(['Context window filling up: 85%', 'Context compacted: 85%']);

    // The first turn after the summary is back under the threshold, and a later crossing compacts again.
    send(userEvents('msg_09', 'a short follow-up'), replyEvents('msg_10', 'msg_09', 10_500), [idle]);
    await bridge.idle();
    expect(summarizes()).toBe(1);
    send(userEvents('msg_11', words('third')), replyEvents('msg_12', 'msg_11', 25_500), [idle]);
    await bridge.idle();
    expect(summarizes()).toBe(2);
  });

  it('compacts once when the plugin sees that prompt’s whole turn only after the summarize returned (events late), before the marker', async () => {
    const { bridge, send, summarizes, finishSummary, toasts } = opencodeSession();
    send(userEvents('msg_01', words('first')), replyEvents('msg_02', 'msg_01', 12_000), [idle]);
    await bridge.idle();
    send(userEvents('msg_03', words('second')), replyEvents('msg_04', 'msg_03', 25_500), [idle]);
    await vi.waitFor(() => expect(summarizes()).toBe(1));
    // opencode answered the prompt before it took the summarize (marker msg_07, which summarize's answer names).
    finishSummary('msg_07');
    await bridge.idle();
    send(userEvents('msg_05', 'a prompt sent as the turn ended'), replyEvents('msg_06', 'msg_05', 25_600), [idle]);
    send(markerEvents('msg_07'), replyEvents('msg_08', 'msg_07', 25_700, { summary: true }), [compacted, idle]);
    await bridge.idle();

    expect(summarizes()).toBe(1);
    expect(toasts).toEqual(['Context window filling up: 85%', 'Context compacted: 85%']);
  });
});
