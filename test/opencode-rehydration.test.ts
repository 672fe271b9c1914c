import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEDGER_HEADING, REHYDRATED_HEADING, type CompactionReport, type StoreEvent } from '@ctxhost/core';
import { countTextTokens, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { MODEL, waitFor, type OpencodeProject, type OpencodeServer } from './opencode-server.js';
import { useSimulatedOpencode } from './support/use-simulated-opencode.js';

// The compaction check and rehydration inside the real opencode (opencode serve against the simulator): after one of
// opencode's compactions, ctxhost checks its summary against the span it replaced (a fidelity score in
// ctxhost's store) and the next request carries the files the span touched as they are on disk now.

const WINDOW = 60_000;
let sim: Simulator;
let server: OpencodeServer;

useSimulatedOpencode(
  {
    contextLimit: WINDOW,
    ctxhostYaml: (scratch) => `store:\n  kind: file\n  path: ${join(scratch, 'sessions')}\n`,
  },
  (running) => ({ sim, server } = running),
);

async function prompt(sessionId: string, text: string, on: OpencodeProject = server): Promise<void> {
  const result = await on.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

/** The prompt size of the session's last model call (opencode's title and summary calls carry no tools). */
function lastPromptTokens(): number {
  const usage = sim.requests.findLast(
    (request) => request.path === '/v1/messages' && (request.body as { tools?: unknown[] }).tools?.length,
  )?.usage;
  if (usage === undefined) throw new Error('no model call with usage yet');
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

function textOf(tokens: number): string {
  const unit = 'GET /ready 200 in 4 ms from the load balancer; ';
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

async function newSession(on: OpencodeProject = server): Promise<string> {
  const created = await on.client.session.create({ body: {} });
  const id = created.data?.id;
  if (id === undefined) throw new Error(`session.create failed: ${JSON.stringify(created.error)}`);
  await prompt(id, 'hello', on);
  // The first prompt also asks the model for a title; wait for it so scripted turns go to the session.
  await waitFor('the session title', async () => {
    const session = await on.client.session.get({ path: { id } });
    return session.data?.title.startsWith('New session') === false ? true : undefined;
  });
  return id;
}

/** The last model call whose body carries `marker` (a turn of the session, not opencode's title call). */
function lastRequestWith(marker: string): MessagesRequest | undefined {
  return sim.requests.findLast(
    (request) => request.path === '/v1/messages' && JSON.stringify(request.body).includes(marker),
  )?.body as MessagesRequest | undefined;
}

function textsOf(message: MessagesRequest['messages'][number]): string[] {
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((block) => (typeof block.text === 'string' ? [block.text] : []));
}

/** The compactions of opencode's summaries in ctxhost's store (its session log; the plugin holds the session open). */
async function opencodeCompactions(sessionId: string, on: OpencodeProject = server): Promise<CompactionReport[]> {
  const log = await readFile(join(on.scratch, 'sessions', `${sessionId}.jsonl`), 'utf8').catch(() => '');
  const events = log
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StoreEvent);
  return events.flatMap((event) =>
    event.type === 'compaction.applied' && event.report.engine === 'opencode' ? [event.report] : [],
  );
}

describe("ctxhost checks opencode's compactions and re-reads the files they replaced", () => {
  it('after opencode summarizes, the next request carries the files the span read as they are now, and a vanished one is named', async () => {
    const project = server.directory;
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'AGENTS.md'), '# Rules\nAlways run npm test before saying a change works.\n');
    await writeFile(join(project, 'src/config.ts'), 'export const PORT = 3000;\n');
    await writeFile(join(project, 'src/legacy.ts'), 'export const legacy = true;\n');
    const sessionId = await newSession();
    sim.script({
      content: [
        { type: 'tool_use', id: 'toolu_agents', name: 'read', input: { filePath: join(project, 'AGENTS.md') } },
        { type: 'tool_use', id: 'toolu_config', name: 'read', input: { filePath: join(project, 'src/config.ts') } },
        { type: 'tool_use', id: 'toolu_legacy', name: 'read', input: { filePath: join(project, 'src/legacy.ts') } },
      ],
    });
    await prompt(sessionId, 'read the rules, src/config.ts and src/legacy.ts');
    // What happens on disk after the agent read them: the port changes, the legacy file goes.
    await writeFile(join(project, 'src/config.ts'), 'export const PORT = 8080; // moved off 3000\n');
    await rm(join(project, 'src/legacy.ts'));
    // A long turn after the reads: the compaction saves enough that the re-read files fit its budget (half the saving at most).
    await prompt(sessionId, `here are the logs: ${'GET /health 200 in 3 ms from the load balancer; '.repeat(700)}`);

    const summarized = await server.client.session.summarize({ path: { id: sessionId }, body: MODEL });
    if (summarized.error !== undefined) throw new Error(`summarize failed: ${JSON.stringify(summarized.error)}`);
    await prompt(sessionId, 'which port does the server use now?');

    const request = await waitFor('the turn after the compaction', () =>
      lastRequestWith('which port does the server use now?'),
    );
    const withFiles = request.messages.find((message) =>
      textsOf(message).some((text) => text.includes(REHYDRATED_HEADING)),
    );
    expect(withFiles?.role).toBe('assistant');
    const block = textsOf(withFiles!).find((text) => text.includes(REHYDRATED_HEADING))!;
    // The instruction file the agent read comes first, then the files it touched, newest first.
    expect(block.startsWith(`${REHYDRATED_HEADING}\n### AGENTS.md\n`)).toBe(true);
    expect(block).toContain('export const PORT = 8080; // moved off 3000');
    expect(block).toContain('### src/legacy.ts: no longer on disk (deleted or moved since the agent touched it)');

    const [report] = await waitFor('the compaction recorded with its fidelity', async () => {
      const reports = await opencodeCompactions(sessionId);
      return reports.length > 0 ? reports : undefined;
    });
    expect(report?.reason).toBe('manual');
    expect(report?.fidelity?.probes).toBeGreaterThan(0);
    expect(report?.fidelity?.score).toBeGreaterThanOrEqual(report?.fidelity?.candidateScore ?? 1);
    expect(report?.rehydrated).toMatchObject({ files: ['AGENTS.md', 'src/legacy.ts', 'src/config.ts'], skipped: [] });
  }, 300_000);

  it("ctxhost's own compaction (preemptive, at 80%) is checked the same way: the file the agent wrote is offered as it is now, beside the ledger", async () => {
    const project = server.directory;
    const sessionId = await newSession();
    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_write',
          name: 'write',
          input: { filePath: join(project, 'src/server.ts'), content: 'listen(3000);\n' },
        },
      ],
    });
    await prompt(sessionId, 'create src/server.ts listening on 3000');
    await writeFile(join(project, 'src/server.ts'), 'listen(8080); // the user changed it by hand\n');
    await prompt(sessionId, `the logs so far: ${textOf(WINDOW * 0.5 - lastPromptTokens())}`);
    await prompt(sessionId, `and the rest: ${textOf(WINDOW * 0.85 - lastPromptTokens())}`);
    await waitFor("ctxhost's compaction", () =>
      server.events.some((event) => event.type === 'session.compacted' && event.properties.sessionID === sessionId)
        ? true
        : undefined,
    );
    await prompt(sessionId, 'what does the server listen on?');

    const request = await waitFor('the turn after the compaction', () =>
      lastRequestWith('what does the server listen on?'),
    );
    const texts = request.messages.flatMap(textsOf);
    const block = texts.find((text) => text.includes(REHYDRATED_HEADING));
    expect(block).toContain('### src/server.ts\n```\nlisten(8080); // the user changed it by hand');
    expect(texts.some((text) => text.startsWith(LEDGER_HEADING) && text.includes('src/server.ts'))).toBe(true);
    const [report] = await waitFor('the compaction recorded with its fidelity', async () => {
      const reports = await opencodeCompactions(sessionId);
      return reports.length > 0 ? reports : undefined;
    });
    expect(report?.reason).toBe('preemptive');
    expect(report?.fidelity?.probes).toBeGreaterThan(0);
    expect(report?.rehydrated?.files).toContain('src/server.ts');
  }, 300_000);

  it("opencode's own compaction after an overflow: the prompt it replays already carries the file as it is now", async () => {
    const own = await server.openProject({
      // ctxhost's preemptive compaction off, so the compaction is opencode's own.
      ctxhostYaml: (scratch) =>
        `store:\n  kind: file\n  path: ${join(scratch, 'sessions')}\ndisabled_hooks: [preemptive-compaction]\n`,
      opencodeCompaction: true,
    });
    await writeFile(join(own.directory, 'notes.md'), 'deploy on friday\n');
    const sessionId = await newSession(own);
    sim.script({
      content: [
        { type: 'tool_use', id: 'toolu_notes', name: 'read', input: { filePath: join(own.directory, 'notes.md') } },
      ],
    });
    await prompt(sessionId, 'read notes.md', own);
    await writeFile(join(own.directory, 'notes.md'), 'deploy on monday, not friday\n');
    // As in opencode-config.test.ts: a first turn under opencode's own threshold, then one that overflows the window.
    await prompt(sessionId, `first ${textOf(WINDOW * 0.68)}`, own);
    const second = `second ${textOf(WINDOW * 0.3)}`;
    await prompt(sessionId, second, own);
    await waitFor('opencode’s own recovery', async () => {
      const last = ((await own.client.session.messages({ path: { id: sessionId } })).data ?? []).at(-1);
      return last?.info.role === 'assistant' && last.info.time.completed !== undefined && last.info.summary !== true
        ? true
        : undefined;
    });
    // The agent's calls carrying the prompt (opencode's summary call has no tools): the one that overflowed, then the replay.
    const calls = sim.requests.filter(
      (request) =>
        request.path === '/v1/messages' &&
        (request.body as MessagesRequest).tools?.length &&
        JSON.stringify(request.body).includes(second.slice(0, 40)),
    );
    expect(calls.map((request) => request.status)).toEqual([400, 200]);
    const replayed = calls[1]!.body as MessagesRequest;
    expect(own.events.filter((event) => event.type === 'session.compacted')).toHaveLength(1);
    const block = replayed.messages.flatMap(textsOf).find((text) => text.includes(REHYDRATED_HEADING));
    expect(block).toContain('### notes.md\n```\ndeploy on monday, not friday');
    const [report] = await waitFor('the compaction recorded with its fidelity', async () => {
      const reports = await opencodeCompactions(sessionId, own);
      return reports.length > 0 ? reports : undefined;
    });
    expect(['recovery', 'threshold']).toContain(report?.reason);
    expect(report?.fidelity?.probes).toBeGreaterThan(0);
  }, 300_000);
});
