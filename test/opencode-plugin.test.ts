import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { countTextTokens, type Simulator } from '@ctxhost/simulator';
import type { EventTuiToastShow, ToolPart } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { MODEL, waitFor, type OpencodeServer } from './opencode-server.js';
import { useSimulatedOpencode } from './support/use-simulated-opencode.js';

const WINDOW = 60_000;
const CAP_TOKENS = 300;
let sim: Simulator;
let server: OpencodeServer;

useSimulatedOpencode(
  {
    contextLimit: WINDOW,
    // Preemptive compaction is left out here: this file checks the monitor's toasts on a session that stays full.
    ctxhostYaml: (scratch) =>
      `store:\n  kind: file\n  path: ${join(scratch, 'sessions')}\ndisabled_hooks: [preemptive-compaction]\nhooks:\n  tool-output-truncator:\n    max_tokens: ${CAP_TOKENS}\n`,
  },
  (running) => ({ sim, server } = running),
);

async function newSession(): Promise<string> {
  const created = await server.client.session.create({ body: {} });
  const id = created.data?.id;
  if (id === undefined) throw new Error(`session.create failed: ${JSON.stringify(created.error)}`);
  await prompt(id, 'hello');
  // The first prompt also asks the model for a title; wait for it so scripted turns go to the session.
  await waitFor('the session title', async () => {
    const session = await server.client.session.get({ path: { id } });
    return session.data?.title.startsWith('New session') === false ? true : undefined;
  });
  return id;
}

async function prompt(sessionId: string, text: string) {
  const result = await server.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
  return result.data;
}

async function messages(sessionId: string) {
  const result = await server.client.session.messages({ path: { id: sessionId } });
  return result.data ?? [];
}

function ctxhostToasts(): EventTuiToastShow['properties'][] {
  return server.events.flatMap((event) =>
    event.type === 'tui.toast.show' && event.properties.message.includes('-token window') ? [event.properties] : [],
  );
}

/** The prompt sizes of the session's model calls, as the simulator counted them (opencode's title calls left out). */
function promptTokensOfTurns(): number[] {
  return sim.requests.flatMap((request) => {
    const usage = request.usage;
    const model = (request.body as { model?: unknown } | undefined)?.model;
    if (request.path !== '/v1/messages' || usage === undefined || model !== MODEL.modelID) return [];
    return [usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)];
  });
}

/** The prompt size of the session's last model call. */
function lastPromptTokens(): number {
  const tokens = promptTokensOfTurns().at(-1);
  if (tokens === undefined) throw new Error('no model call with usage yet');
  return tokens;
}

/** Waits for the monitor's toast titled `title`; a timeout says which toasts came and how full each turn was. */
async function untilToast(title: string): Promise<void> {
  await waitFor(`the "${title}" toast`, () =>
    ctxhostToasts().some((toast) => toast.title === title) ? true : undefined,
  ).catch(async (error: unknown) => {
    const seen = ctxhostToasts().map((toast) => `${toast.title}: ${toast.message.slice(0, 60)}`);
    const turns = promptTokensOfTurns().map((tokens) => `${((tokens / WINDOW) * 100).toFixed(1)}%`);
    const log = await server.logLines('ctxhost');
    const stream = server.eventsEnded ?? 'the event stream is open';
    throw new Error(
      `${String(error)}; toasts: ${JSON.stringify(seen)}; prompt sizes: ${turns.join(', ')}; ${stream}; ctxhost log: ${log.join('\n')}`,
    );
  });
}

/** A user text of about `tokens` tokens by the simulator's tokenizer. */
function textOf(tokens: number): string {
  const unit = 'the quick brown fox jumps over the lazy dog while reading logs ';
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

async function toolParts(sessionId: string, tool: string): Promise<ToolPart[]> {
  return (await messages(sessionId)).flatMap((message) =>
    message.parts.filter((part): part is ToolPart => part.type === 'tool' && part.tool === tool),
  );
}

describe('ctxhost inside the real opencode (opencode serve against the simulator)', () => {
  let usageSession = '';

  it('answers through the simulator with the plugin loaded', async () => {
    // Without ctxhost's plugin (a missing build, a failed start) opencode still answers: its tool shows it is in.
    const tools = await server.client.tool.ids();
    expect(tools.data).toContain('ctxhost_original');
    usageSession = await newSession();
    const texts = (await messages(usageSession)).flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
    );
    expect(texts).toContain('Simulated reply about: hello');
  }, 180_000);

  it('fires the 70% and the 80% toast once each, however many turns stay above them', async () => {
    expect(ctxhostToasts()).toEqual([]);
    await prompt(usageSession, textOf(WINDOW * 0.74 - lastPromptTokens()));
    await untilToast('Context usage');
    await prompt(usageSession, 'a short follow-up');
    await prompt(usageSession, textOf(WINDOW * 0.85 - lastPromptTokens()));
    await untilToast('Context window filling up');
    await prompt(usageSession, 'another short follow-up');
    await waitFor('the last turn to be mirrored', async () =>
      (await messages(usageSession)).length >= 10 ? true : undefined,
    );
    const toasts = ctxhostToasts();
    expect(toasts.map((toast) => toast.title)).toEqual(['Context usage', 'Context window filling up']);
    expect(toasts[0]?.message).toMatch(/^7\d% of the 60,000-token window/);
    expect(toasts[1]?.message).toMatch(/^8\d% of the 60,000-token window/);
  }, 300_000);

  it('truncates a tool output over the cap on tool.execute.after, keeping head and tail, and keeps the original retrievable', async () => {
    const sessionId = await newSession();
    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_seq',
          name: 'bash',
          input: { command: 'seq 1 1500', description: 'print numbers' },
        },
      ],
    });
    await prompt(sessionId, 'print the numbers from 1 to 1500');
    const [bash] = await toolParts(sessionId, 'bash');
    if (bash?.state.status !== 'completed') throw new Error(`bash did not complete: ${JSON.stringify(bash?.state)}`);
    const stored = bash.state.output;
    expect(stored).toContain(
      `cut from the middle of this output by ctxhost to fit the context window. The full output is kept as part ${bash.id}: to read the missing lines, call the ctxhost_original tool with handle "${bash.id}"`,
    );
    expect(stored.startsWith('1\n2\n3\n')).toBe(true);
    expect(stored.trimEnd().endsWith('1499\n1500')).toBe(true);
    expect(stored).not.toContain('\n750\n');
    const sent = sim.requests.filter((request) => JSON.stringify(request.body).includes('toolu_seq')).at(-1);
    expect(JSON.stringify(sent?.body)).toContain('cut from the middle of this output by ctxhost');

    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_original',
          name: 'ctxhost_original',
          input: { partId: bash.id, fromLine: 749, toLine: 751 },
        },
      ],
    });
    await prompt(sessionId, 'show me the lines that were cut');
    const [original] = await toolParts(sessionId, 'ctxhost_original');
    if (original?.state.status !== 'completed')
      throw new Error(`ctxhost_original did not complete: ${JSON.stringify(original?.state)}`);
    expect(original.state.output).toBe(
      `Lines 749-751 of 1501 of the original output of part ${bash.id}:\n749\n750\n751`,
    );
  }, 300_000);

  it('drops the session state when opencode deletes the session', async () => {
    const sessionsFolder = join(server.scratch, 'sessions');
    const logOf = async () =>
      (await readdir(sessionsFolder)).filter((name) => name.startsWith(usageSession) && name.endsWith('.jsonl'));
    expect(await logOf()).toHaveLength(1);
    const deleted = await server.client.session.delete({ path: { id: usageSession } });
    expect(deleted.data).toBe(true);
    await waitFor('the session log to be removed', async () => ((await logOf()).length === 0 ? true : undefined));
  }, 120_000);
});
