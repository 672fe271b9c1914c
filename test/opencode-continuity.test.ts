import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countTextTokens, type Simulator } from '@ctxhost/simulator';
import type { EventTuiToastShow } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { COMPACTION_MODEL, MODEL, waitFor, type OpencodeServer } from './opencode-server.js';
import { useSimulatedOpencode } from './support/use-simulated-opencode.js';

// Acting before the overflow inside the real opencode, and what survives opencode's compaction. The simulator
// answers a prompt over the window with an empty 200 (`stop_reason: "model_context_window_exceeded"`), the
// silent overflow opencode itself does not notice. opencode's own compaction is off.
const WINDOW = 40_000;
let sim: Simulator;
let server: OpencodeServer;

useSimulatedOpencode(
  {
    contextLimit: WINDOW,
    overflowStyle: 'stop_reason',
    // Holds a prompt marked "[held] " in chat.message until the session compacts (see the plugin).
    plugins: [pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'support/opencode-prompt-holder.ts')).href],
    ctxhostYaml: () =>
      `store:\n  kind: memory\nhooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 50\n  tool-output-truncator:\n    max_tokens: 100000\n  opencode:\n    compaction_model:\n      build: ${COMPACTION_MODEL.providerID}/${COMPACTION_MODEL.modelID}\n`,
  },
  (running) => ({ sim, server } = running),
);

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

function lastPromptTokens(): number {
  const usage = sim.requests
    .filter(
      (request) =>
        request.path === '/v1/messages' &&
        request.status === 200 &&
        (request.body as { tools?: unknown[] }).tools?.length,
    )
    .at(-1)?.usage;
  if (usage === undefined) throw new Error('no model call with usage yet');
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** Model calls since `from`: the status, `summary` for a call without tools (opencode's compaction), `empty` for a reply with no content. */
function modelCallsSince(from: number): string[] {
  return sim.requests.slice(from).flatMap((request) => {
    if (request.path !== '/v1/messages') return [];
    const tools = (request.body as { tools?: unknown[] } | undefined)?.tools;
    if (tools === undefined || tools.length === 0) return [`${request.status} summary`];
    const empty =
      request.stopReason === 'model_context_window_exceeded' ||
      (request.stopReason === 'end_turn' && (request.usage?.output_tokens ?? 0) <= 1);
    return [empty ? `${request.status} empty` : `${request.status}`];
  });
}

function toastsSince(from: number, title: string): EventTuiToastShow['properties'][] {
  return server.events
    .slice(from)
    .flatMap((event) =>
      event.type === 'tui.toast.show' && event.properties.title === title ? [event.properties] : [],
    );
}

function untilToast(from: number, title: string): Promise<EventTuiToastShow['properties']> {
  return waitFor(`a "${title}" toast`, () => toastsSince(from, title)[0]);
}

function textsOf(message: Awaited<ReturnType<typeof messagesOf>>[number]): string[] {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

async function lastAnswer(sessionId: string) {
  return waitFor('the last assistant message to complete', async () => {
    const last = (await messagesOf(sessionId)).at(-1);
    return last?.info.role === 'assistant' && last.info.time.completed !== undefined && last.info.summary !== true
      ? last
      : undefined;
  });
}

/** A scripted turn for the agent's own calls, never for opencode's summary call (sent without tools). */
const hasTools = (request: { tools?: unknown[] }) => (request.tools ?? []).length > 0;

/** Grows a text session past the preemptive threshold (80%) and waits for ctxhost's compaction; returns where the calls after the crossing start. */
async function crossTheThreshold(
  sessionId: string,
  word: string,
): Promise<{ from: number; toast: EventTuiToastShow['properties'] }> {
  await ask(sessionId, textOf(WINDOW * 0.5 - lastPromptTokens(), `${word}-first`));
  const from = sim.requests.length;
  const eventsFrom = server.events.length;
  await ask(sessionId, textOf(WINDOW * 0.85 - lastPromptTokens(), `${word}-second`));
  return { from, toast: await untilToast(eventsFrom, 'Context compacted') };
}

describe('ctxhost acts before the overflow inside the real opencode', () => {
  it('compacts when a turn ends past 80%, through opencode’s summarize with ctxhost’s brief, the todo list and the newest request, on the agent’s compaction model; the next prompt is answered with no failed request and nothing sent for the user', async () => {
    const sessionId = await newSession();
    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_todo',
          name: 'todowrite',
          input: {
            todos: [
              {
                id: 'parser-1',
                content: 'add the trailing-comma case to parser.ts',
                status: 'in_progress',
                priority: 'high',
              },
            ],
          },
        },
      ],
    });
    await ask(sessionId, 'plan the parser work');
    expect((await server.client.session.todo({ path: { id: sessionId } })).data?.map((todo) => todo.content)).toEqual([
      'add the trailing-comma case to parser.ts',
    ]);

    const { from, toast } = await crossTheThreshold(sessionId, 'pre');
    expect(toast.message).toMatch(
      /^8\d% of the 40,000-token window was in use, so opencode summarized the \d+ earlier messages before the next request .*nothing was sent for you\.$/,
    );
    const summary = sim.requests
      .slice(from)
      .find((request) => request.path === '/v1/messages' && !(request.body as { tools?: unknown[] }).tools?.length);
    const body = JSON.stringify(summary?.body);
    expect((summary?.body as { model?: string }).model).toBe(COMPACTION_MODEL.modelID);
    expect(body).toContain('## Critical Context');
    expect(body).toContain('## Todo list');
    expect(body).toContain('- [in_progress] add the trailing-comma case to parser.ts (priority high)');
    expect(body).toContain('<current-request>\\npre-second quick brown fox');

    const followUp = 'a short follow-up after the compaction';
    await ask(sessionId, followUp);
    expect(textsOf(await lastAnswer(sessionId))).toEqual([replyTo(followUp)]);
    // The crossing turn, opencode's summary, the follow-up's answer: no failed request.
    expect(modelCallsSince(from)).toEqual(['200', '200 summary', '200']);
    const userTexts = (await messagesOf(sessionId)).flatMap((message) =>
      message.info.role === 'user'
        ? message.parts.flatMap((part) => (part.type === 'text' ? [part.text.split(' ')[0]] : []))
        : [],
    );
    expect(userTexts).toEqual(['hello', 'plan', 'pre-first', 'pre-second', 'a']);
  }, 300_000);

  it('a prompt sent while the between-turn summarize runs is answered once, after the summary', async () => {
    const sessionId = await newSession();
    await ask(sessionId, textOf(WINDOW * 0.5 - lastPromptTokens(), 'during-first'));
    // opencode's summary call (the one without tools) takes 3 s, so the prompt below arrives while it runs.
    sim.faults.when((request) => !hasTools(request), { kind: 'slow', delayMs: 3_000 }, 1);
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    await ask(sessionId, textOf(WINDOW * 0.85 - lastPromptTokens(), 'during-second'));
    await waitFor('opencode’s summary call', () =>
      sim.requests.slice(from).some((request) => !hasTools(request.body as { tools?: unknown[] })) ? true : undefined,
    );
    const prompt = 'a prompt sent while opencode summarizes';
    await ask(sessionId, prompt);

    await untilToast(eventsFrom, 'Context compacted');
    expect(textsOf(await lastAnswer(sessionId))).toEqual([replyTo(prompt)]);
    const followUp = 'and a follow-up once it answered';
    await ask(sessionId, followUp);
    expect(textsOf(await lastAnswer(sessionId))).toEqual([replyTo(followUp)]);
    // The crossing turn, opencode's summary, the prompt's own answer, the follow-up's: nothing asked twice, no failed request.
    expect(modelCallsSince(from)).toEqual(['200', '200 summary', '200', '200']);
    const messages = await messagesOf(sessionId);
    const sent = (text: string) =>
      messages.filter((message) => message.info.role === 'user' && textsOf(message).includes(text));
    const answers = (text: string) =>
      messages.filter((message) => message.info.role === 'assistant' && textsOf(message).includes(replyTo(text)));
    expect([sent(prompt).length, answers(prompt).length]).toEqual([1, 1]);
    expect(toastsSince(eventsFrom, 'Session recovered')).toEqual([]);
  }, 300_000);

  it('a prompt opencode folds into the between-turn summary (it was given its place before the compaction began) is sent again after the summary and answered once', async () => {
    const sessionId = await newSession();
    await ask(sessionId, textOf(WINDOW * 0.5 - lastPromptTokens(), 'folded-first'));
    // The crossing turn's call takes 2 s, so the prompt below is sent while it runs; opencode's summary call takes 3 s.
    sim.faults.when(hasTools, { kind: 'slow', delayMs: 2_000 }, 1);
    sim.faults.when((request) => !hasTools(request), { kind: 'slow', delayMs: 3_000 }, 1);
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    const send = async (text: string) => {
      const result = await server.client.session.promptAsync({
        path: { id: sessionId },
        body: { model: MODEL, parts: [{ type: 'text', text }] },
      });
      if (result.error !== undefined) throw new Error(`promptAsync failed: ${JSON.stringify(result.error)}`);
    };
    await send(textOf(WINDOW * 0.85 - lastPromptTokens(), 'folded-second'));
    await waitFor('the crossing turn’s model call', () =>
      sim.requests.slice(from).some((request) => hasTools(request.body as { tools?: unknown[] })) ? true : undefined,
    );
    // opencode gives it its id and time now, and stores it once the compaction has begun (the holder plugin waits).
    const prompt = '[held] a prompt sent as the turn before it ended';
    await send(prompt);

    const toast = await untilToast(eventsFrom, 'Context compacted');
    expect(toast.message).toContain('opencode folded your message sent meanwhile into the summary');
    expect(textsOf(await lastAnswer(sessionId))).toEqual([replyTo(prompt)]);
    // The crossing turn, opencode's summary, the prompt's answer: the prompt is sent to the model once.
    expect(modelCallsSince(from)).toEqual(['200', '200 summary', '200']);
    const messages = await messagesOf(sessionId);
    const summary = messages.findIndex((message) => message.info.role === 'assistant' && message.info.summary === true);
    const sent = messages.flatMap((message, index) =>
      message.info.role === 'user' && textsOf(message).includes(prompt) ? [index] : [],
    );
    // Once in the history, after the summary: the folded copy is deleted.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeGreaterThan(summary);
  }, 300_000);

  it('a reply that comes back empty after a compaction: one re-summary with the prompt withdrawn, the prompt sent again and answered', async () => {
    const sessionId = await newSession();
    await crossTheThreshold(sessionId, 'empty');
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    sim.script({ content: [], when: hasTools });
    const prompt = 'continue with the parser';
    await ask(sessionId, prompt);

    const toast = await untilToast(eventsFrom, 'Session recovered');
    expect(toast.message).toBe(
      'The first reply after the compaction came back empty, so opencode summarized again (1 time) and your last message was sent again; the session answered.',
    );
    expect(textsOf(await lastAnswer(sessionId))).toEqual([replyTo(prompt)]);
    expect(modelCallsSince(from)).toEqual(['200 empty', '200 summary', '200']);
  }, 300_000);

  it('re-summarizes once only: a second empty reply stops it with one toast', async () => {
    const sessionId = await newSession();
    await crossTheThreshold(sessionId, 'twice');
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    sim.script({ content: [], when: hasTools }, { content: [], when: hasTools });
    await ask(sessionId, 'continue with the parser');

    const toast = await untilToast(eventsFrom, 'Empty reply after compaction');
    expect(toast.message).toMatch(/and again after opencode summarized again \(1 time\).*ctxhost stops here/);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(modelCallsSince(from)).toEqual(['200 empty', '200 summary', '200 empty']);
    expect(toastsSince(eventsFrom, 'Empty reply after compaction')).toHaveLength(1);
    expect(toastsSince(eventsFrom, 'Session recovered')).toEqual([]);
  }, 300_000);

  it('an empty 200 at the window (a silent overflow) is recovered like a 400: the prompt is withdrawn, opencode summarizes, the prompt is sent again and answered', async () => {
    const sessionId = await newSession();
    await ask(sessionId, textOf(WINDOW * 0.55 - lastPromptTokens(), 'first'));
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    const overflowing = textOf(WINDOW * 0.5, 'second');
    await ask(sessionId, overflowing);

    const toast = await untilToast(eventsFrom, 'Session recovered');
    expect(toast.message).toBe('Recovered after summarize; the session answered again.');
    expect(textsOf(await lastAnswer(sessionId))).toEqual([replyTo(overflowing)]);
    expect(modelCallsSince(from)).toEqual(['200 empty', '200 summary', '200']);
  }, 300_000);
});
