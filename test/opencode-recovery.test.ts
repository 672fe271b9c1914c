import { join } from 'node:path';
import { TRUNCATION_MESSAGE } from '@ctxhost/auto-compact';
import { countTextTokens, type Simulator } from '@ctxhost/simulator';
import type { EventTuiToastShow, ToolPart } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { MODEL, waitFor, type OpencodeServer } from './opencode-server.js';
import { useSimulatedOpencode } from './support/use-simulated-opencode.js';

// An overflow inside the real opencode, recovered by ctxhost's cascade running in the plugin. opencode's own
// compaction is off (OPENCODE_DISABLE_AUTOCOMPACT, set by the server helper), so on "prompt is too long"
// opencode only marks the reply failed and publishes session.error; every step after that is ctxhost's.
const WINDOW = 30_000;
let sim: Simulator;
let server: OpencodeServer;

useSimulatedOpencode(
  {
    contextLimit: WINDOW,
    // The truncator's cap is above the window here, so a big tool output reaches the cascade instead. Preemptive
    // compaction is left out: a session the cascade brought back just under the window would be compacted next, and
    // this file counts the cascade's calls alone (test/opencode-continuity.test.ts has both).
    ctxhostYaml: (scratch) =>
      `store:\n  kind: file\n  path: ${join(scratch, 'sessions')}\ndisabled_hooks: [preemptive-compaction]\nhooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 50\n  tool-output-truncator:\n    max_tokens: 100000\n`,
  },
  (running) => ({ sim, server } = running),
);

/** The prompt size of the last model call, as the simulator counted it. */
function lastPromptTokens(): number {
  const usage = sim.requests
    .filter((request) => request.path === '/v1/messages' && request.usage !== undefined)
    .at(-1)?.usage;
  if (usage === undefined) throw new Error('no model call with usage yet');
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

function textOf(tokens: number, word: string): string {
  const unit = `${word} quick brown fox jumps over the lazy dog `;
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

function replyTo(text: string): string {
  return `Simulated reply about: ${text.replace(/\s+/g, ' ').trim().slice(0, 80)}`;
}

async function ask(sessionId: string, text: string): Promise<void> {
  const result = await server.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

async function messagesOf(sessionId: string) {
  return (await server.client.session.messages({ path: { id: sessionId } })).data ?? [];
}

async function newSession(): Promise<string> {
  const id = (await server.client.session.create({ body: {} })).data?.id;
  if (id === undefined) throw new Error('session.create failed');
  await ask(id, 'hello');
  await waitFor('the session title', async () =>
    (await server.client.session.get({ path: { id } })).data?.title.startsWith('New session') === false
      ? true
      : undefined,
  );
  return id;
}

/** Model calls since `from` (an index into sim.requests): the status, and `summary` for opencode's compaction call (the one request sent without tools, once the title is made). */
function modelCallsSince(from: number): string[] {
  return sim.requests.slice(from).flatMap((request) => {
    if (request.path !== '/v1/messages') return [];
    const tools = (request.body as { tools?: unknown[] } | undefined)?.tools;
    return [`${request.status}${tools === undefined || tools.length === 0 ? ' summary' : ''}`];
  });
}

/** ctxhost's recovery toasts shown since `from` (an index into server.events). */
function recoveryToastsSince(from: number): EventTuiToastShow['properties'][] {
  return server.events
    .slice(from)
    .flatMap((event) =>
      event.type === 'tui.toast.show' &&
      ['Session recovered', 'Manual intervention needed'].includes(event.properties.title ?? '')
        ? [event.properties]
        : [],
    );
}

function untilRecoveryToast(from: number): Promise<EventTuiToastShow['properties']> {
  return waitFor('a recovery toast', () => recoveryToastsSince(from)[0]);
}

async function lastAssistantAnswer(sessionId: string) {
  return waitFor('the last assistant message to complete', async () => {
    const last = (await messagesOf(sessionId)).at(-1);
    return last?.info.role === 'assistant' && last.info.time.completed !== undefined && last.info.summary !== true
      ? last
      : undefined;
  });
}

function textsOf(message: Awaited<ReturnType<typeof messagesOf>>[number]): string[] {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

describe('an overflow inside the real opencode, recovered by the plugin’s cascade', () => {
  it('a prompt that pushes a text history just past the window: the failed prompt is withdrawn, opencode summarizes, the prompt is sent again and answered', async () => {
    const sessionId = await newSession();
    await ask(sessionId, textOf(WINDOW * 0.5, 'first'));
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    const overflowing = textOf(WINDOW * 0.5, 'second');
    await ask(sessionId, overflowing);

    const toast = await untilRecoveryToast(eventsFrom);
    expect(toast).toMatchObject({
      title: 'Session recovered',
      message: 'Recovered after summarize; the session answered again.',
      variant: 'success',
    });
    const answer = await lastAssistantAnswer(sessionId);
    expect(answer.info.role === 'assistant' && answer.info.error).toBeUndefined();
    expect(textsOf(answer)).toEqual([replyTo(overflowing)]);
    // One failed call, opencode's summary, the answer: nothing else.
    expect(modelCallsSince(from)).toEqual(['400', '200 summary', '200']);
    const messages = await messagesOf(sessionId);
    expect(
      messages.filter((message) => message.info.role === 'assistant' && message.info.summary === true),
    ).toHaveLength(1);
    expect(
      messages.flatMap((message) =>
        message.info.role === 'user' ? textsOf(message).map((text) => text.split(' ')[0]) : [],
      ),
    ).toEqual(['hello', 'first', 'second']);
    expect(
      server.events.filter((event) => event.type === 'session.compacted' && event.properties.sessionID === sessionId),
    ).toHaveLength(1);
  }, 300_000);

  it('a big tool output earlier in the session: it is truncated in opencode (original kept), the prompt is sent again and answered', async () => {
    const sessionId = await newSession();
    // opencode itself cuts a tool output at 2,000 lines or 50 KB (keeping the rest in a file): stay under both.
    const lines = 1_900;
    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_big',
          name: 'bash',
          input: { command: `seq -f 'entry %g ok' 1 ${lines}`, description: 'print entries' },
        },
      ],
    });
    await ask(sessionId, 'print the entries');
    const afterTool = lastPromptTokens();
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    const overflowing = textOf(WINDOW - afterTool + 1_000, 'third');
    await ask(sessionId, overflowing);

    const toast = await untilRecoveryToast(eventsFrom);
    expect(toast).toMatchObject({
      title: 'Session recovered',
      message: 'Recovered after truncation; the session answered again.',
    });
    const answer = await lastAssistantAnswer(sessionId);
    expect(textsOf(answer)).toEqual([replyTo(overflowing)]);
    expect(modelCallsSince(from)).toEqual(['400', '200']);
    const bash = (await messagesOf(sessionId))
      .flatMap((message) => message.parts)
      .find((part): part is ToolPart => part.type === 'tool' && part.tool === 'bash');
    expect(bash?.state.status === 'completed' && bash.state.output.startsWith(TRUNCATION_MESSAGE)).toBe(true);
    // The marker leads back to the original: it names the part and the tool that reads it.
    expect(bash?.state.status === 'completed' && bash.state.output).toContain(
      `The full output is kept as part ${bash?.id}: to read it, call the ctxhost_original tool with handle "${bash?.id}"`,
    );

    // The original is still in ctxhost's store: the model can read it back.
    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_back',
          name: 'ctxhost_original',
          input: { partId: bash?.id, fromLine: 1000, toLine: 1002 },
        },
      ],
    });
    await ask(sessionId, 'show me lines 1000 to 1002 of that output');
    const back = (await messagesOf(sessionId))
      .flatMap((message) => message.parts)
      .find((part): part is ToolPart => part.type === 'tool' && part.tool === 'ctxhost_original');
    expect(back?.state.status === 'completed' && back.state.output).toBe(
      `Lines 1000-1002 of ${lines + 1} of the original output of part ${bash?.id}:\nentry 1000 ok\nentry 1001 ok\nentry 1002 ok`,
    );
  }, 300_000);

  it('a prompt bigger than the whole window: nothing can make room, so it says so once, after one model call, and stops', async () => {
    const sessionId = await newSession();
    await ask(sessionId, 'a short second turn');
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    await ask(sessionId, textOf(WINDOW * 3, 'huge'));

    const toast = await untilRecoveryToast(eventsFrom);
    expect(toast.title).toBe('Manual intervention needed');
    // A summary of the short history would be longer than the history: the cascade finds nothing to shorten.
    expect(toast.message).toMatch(
      /is about [\d,]+ tokens by itself, larger than the model's whole window of 30,000 tokens.*after finding nothing to shorten/,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(recoveryToastsSince(eventsFrom)).toHaveLength(1);
    expect(modelCallsSince(from)).toEqual(['400']);
    const last = (await messagesOf(sessionId)).at(-1);
    expect(last?.info.role === 'assistant' && last.info.error?.name).toBe('ContextOverflowError');
  }, 300_000);
});
