import { createHost, createMemoryStore, type Host, type SessionErrorEvent } from '@ctxhost/core';
import {
  createEventBridge,
  createMirrorRegistry,
  createOpencodeActions,
  createOpencodeBridgePlugin,
  createOpencodeSyncStore,
  toolMessageId,
  type EventBridge,
} from '@ctxhost/opencode/bridge';
import { countTextTokens, startSimulator, type Simulator } from '@ctxhost/simulator';
import type { ToolPart } from '@opencode-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL, startOpencodeServer, waitFor, type OpencodeServer } from './opencode-server.js';

// The bridge's actions against the real opencode: a host in this process mirrors opencode's
// sessions from its event stream (as the plugin does inside opencode) and the test makes the
// decisions a recovery hook would make, so each opencode-side effect can be checked.
const WINDOW = 60_000;
let sim: Simulator;
let server: OpencodeServer;
let host: Host;
let bridge: EventBridge;
const errors: SessionErrorEvent[] = [];

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: WINDOW });
  // The plugin inside opencode must not recover the overflow itself: this test makes the decisions.
  server = await startOpencodeServer({
    simulatorUrl: sim.url,
    contextLimit: WINDOW,
    ctxhostYaml: () => 'store:\n  kind: memory\ndisabled_hooks: [anthropic-auto-compact]\n',
  });
  const registry = createMirrorRegistry();
  const actions = createOpencodeActions(server.client, new URL(server.url), server.directory);
  host = createHost({
    config: { model: { contextLength: WINDOW } },
    store: createOpencodeSyncStore(createMemoryStore(), actions, registry),
    enginePlugin: false,
    plugins: [createOpencodeBridgePlugin(actions, registry)],
  });
  host.hooks.sessionError.tapPromise('test', async (event) => void errors.push(event));
  bridge = createEventBridge(host, registry);
  const subscription = await server.client.event.subscribe();
  void (async () => {
    for await (const event of subscription.stream) bridge.accept(event);
  })().catch(() => undefined);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await host?.dispose();
  await sim?.close();
}, 60_000);

async function ask(sessionId: string, text: string): Promise<void> {
  const result = await server.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

async function opencodeMessages(sessionId: string) {
  return (await server.client.session.messages({ path: { id: sessionId } })).data ?? [];
}

function textOf(tokens: number, word: string): string {
  const unit = `${word} quick brown fox jumps over the lazy dog `;
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

describe('the opencode bridge against the real opencode', () => {
  let sessionId = '';

  it('mirrors a session with a tool call and carries a tool-output update to opencode, keeping the original', async () => {
    sessionId = (await server.client.session.create({ body: {} })).data?.id ?? '';
    await ask(sessionId, 'hello');
    await waitFor('the session title', async () =>
      (await server.client.session.get({ path: { id: sessionId } })).data?.title.startsWith('New session') === false
        ? true
        : undefined,
    );
    sim.script({
      content: [
        { type: 'tool_use', id: 'toolu_b', name: 'bash', input: { command: 'seq 1 300', description: 'numbers' } },
      ],
    });
    await ask(sessionId, 'print 300 numbers');
    const bash = (await opencodeMessages(sessionId))
      .flatMap((message) => message.parts)
      .find((part): part is ToolPart => part.type === 'tool');
    if (bash === undefined) throw new Error('no tool part');
    const session = await host.session(sessionId);
    await waitFor('the tool result in ctxhost', async () => {
      await bridge.settled();
      return session.messages().find((message) => message.id === toolMessageId(bash.messageID));
    });

    await session.update(bash.id, { output: 'shortened by a recovery step' }, 'test');
    const updated = (await opencodeMessages(sessionId))
      .flatMap((message) => message.parts)
      .find((part) => part.id === bash.id);
    expect(updated?.type === 'tool' && updated.state.status === 'completed' && updated.state.output).toBe(
      'shortened by a recovery step',
    );
    const original = await session.original(bash.id);
    expect(original?.type === 'tool-result' && original.output).toMatch(/^1\n2\n3\n[\s\S]*\n300\n?$/);
  }, 300_000);

  it('forwards an overflow as session.error, then a revert and a resend make the session answer again', async () => {
    await ask(sessionId, textOf(WINDOW * 0.55, 'first'));
    const overflowing = textOf(WINDOW * 0.55, 'second');
    await ask(sessionId, overflowing);
    const error = await waitFor('the overflow error', async () => {
      await bridge.settled();
      return errors.find((event) => event.sessionId === sessionId);
    });
    expect(error.error).toMatchObject({ kind: 'context_overflow', maxTokens: WINDOW });

    const session = await host.session(sessionId);
    const projection = session.messages();
    const firstBig = projection.findIndex(
      (message) =>
        message.role === 'user' && message.parts.some((part) => part.type === 'text' && part.text.startsWith('first')),
    );
    await session.revert(projection[firstBig - 1]?.id ?? '');
    const handled = await host.hooks.resend.promise({ sessionId, reason: 'test recovery' });
    expect(handled).toBe(true);

    const answered = await waitFor('the answer to the re-sent prompt', async () => {
      const last = (await opencodeMessages(sessionId)).at(-1);
      return last?.info.role === 'assistant' && last.info.time.completed !== undefined && last.info.error === undefined
        ? last
        : undefined;
    });
    expect(answered.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []))).toEqual([
      `Simulated reply about: ${overflowing.replace(/\s+/g, ' ').trim().slice(0, 80)}`,
    ]);
    const userTexts = (await opencodeMessages(sessionId)).flatMap((message) =>
      message.info.role === 'user'
        ? message.parts.flatMap((part) => (part.type === 'text' ? [part.text.slice(0, 6)] : []))
        : [],
    );
    expect(userTexts).toEqual(['hello', 'print ', 'second']);
  }, 300_000);

  it('carries a compaction to opencode as its summarize', async () => {
    const session = await host.session(sessionId);
    const before = session.messages();
    await session.applyCompaction(before.slice(-1), {
      engine: 'test',
      reason: 'manual',
      tokensBefore: 1,
      tokensAfter: 1,
      messagesBefore: before.length,
      messagesAfter: 1,
    });
    const summary = await waitFor('opencode’s summary message', async () =>
      (await opencodeMessages(sessionId)).find(
        (message) => message.info.role === 'assistant' && message.info.summary === true,
      ),
    );
    expect(summary.info.sessionID).toBe(sessionId);
  }, 300_000);
});
