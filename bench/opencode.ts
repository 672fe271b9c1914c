/**
 * Overflows inside opencode: nine scenarios inside the real opencode (`opencode serve`, the pinned
 * `opencode-ai`) with ctxhost's plugin, against the simulator, with opencode's own compaction off and on.
 * For each: the model calls from the first request past 80% of the window (or the first that failed) until
 * the session answered the user's prompt (or stopped), the failed ones among them (a 400, or an empty 200 at
 * the window), the prompt tokens they sent, whether the user's prompt was answered, and how many of the
 * tool outputs ctxhost cut can no longer be read back with `ctxhost_original` (originals lost).
 * One opencode process serves every configuration (one project per simulator and setting). The cascade's
 * backoff is 0. Needs the plugin built (`pnpm build`): opencode loads packages/opencode/dist.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/opencode.ts
 */
import { pathToFileURL } from 'node:url';
import { countTextTokens, startSimulator, type OverflowStyle, type Simulator } from '@ctxhost/simulator';
import type { ToolPart } from '@opencode-ai/sdk';
import {
  MODEL,
  startOpencodeServer,
  waitFor,
  type OpencodeProject,
  type OpencodeServer,
} from '../test/opencode-server.js';
import type { BenchSize } from './bench.js';

export interface OpencodeRecoveryRow {
  scenario: string;
  /** opencode's own compaction (`compaction.auto`). */
  opencodeCompaction: 'off' | 'on';
  window: number;
  /** From the first request past 80% (or the first failed one) to the end. */
  modelCalls: number;
  calls: string;
  failed: number;
  tokensSent: number;
  answered: boolean;
  originalsLost: number;
  seconds: number;
}

/** More calls than this from one prompt is a loop (opencode's own compaction replays a big prompt without end). */
const LOOP_CALLS = 12;

interface Bench {
  server: OpencodeServer;
  sims: Map<string, Simulator>;
  projects: Map<string, OpencodeProject>;
}

interface Setup {
  window: number;
  style: OverflowStyle;
  compaction: boolean;
}

interface Run {
  sim: Simulator;
  project: OpencodeProject;
  window: number;
  sessionId: string;
  /** Index into sim.requests where this session's measured part starts. */
  start: number;
}

async function simulatorFor(bench: Bench, window: number, style: OverflowStyle): Promise<Simulator> {
  const key = `${window}/${style}`;
  let sim = bench.sims.get(key);
  if (sim === undefined) {
    sim = await startSimulator({ contextLimit: window, overflowStyle: style });
    bench.sims.set(key, sim);
  }
  return sim;
}

async function open(bench: Bench, setup: Setup): Promise<Run> {
  const sim = await simulatorFor(bench, setup.window, setup.style);
  const key = `${setup.window}/${setup.style}/${setup.compaction}`;
  let project = bench.projects.get(key);
  if (project === undefined) {
    project = await bench.server.openProject({
      simulatorUrl: sim.url,
      contextLimit: setup.window,
      opencodeCompaction: setup.compaction,
      ctxhostYaml: () => 'store:\n  kind: memory\nhooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 0\n',
    });
    bench.projects.set(key, project);
  }
  const { client } = project;
  const sessionId = (await client.session.create({ body: {} })).data?.id;
  if (sessionId === undefined) throw new Error('session.create failed');
  const run = { sim, project, window: setup.window, sessionId, start: 0 };
  await ask(run, 'hello');
  await waitFor('the session title', async () =>
    (await client.session.get({ path: { id: sessionId } })).data?.title.startsWith('New session') === false
      ? true
      : undefined,
  );
  run.start = sim.requests.length;
  return run;
}

function textOf(tokens: number, word: string): string {
  const unit = `${word} quick brown fox jumps over the lazy dog `;
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

function replyTo(text: string): string {
  return `Simulated reply about: ${text.replace(/\s+/g, ' ').trim().slice(0, 80)}`;
}

/** Sends a prompt without waiting for the turn (promptAsync): a looping turn must not hang the bench. */
async function send(run: Run, text: string): Promise<void> {
  const result = await run.project.client.session.promptAsync({
    path: { id: run.sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

/** Sends a prompt and waits until its turn is over (asynchronously: a loaded machine can keep a first turn past fetch's 300 s header timeout). */
async function ask(run: Run, text: string): Promise<void> {
  const before = (await messagesOf(run)).length;
  await send(run, text);
  await waitFor(
    'the turn to end',
    async () => {
      const messages = await messagesOf(run);
      const last = messages.at(-1)?.info;
      const over =
        messages.length > before + 1 &&
        last?.role === 'assistant' &&
        (last.time.completed !== undefined || last.error !== undefined);
      if (!over) return undefined;
      const status = (await run.project.client.session.status()).data?.[run.sessionId];
      return status === undefined || status.type === 'idle' ? true : undefined;
    },
    900_000,
  );
}

/** The prompt size of a model call: the usage it reported, or the count in its error text. */
function promptTokens(request: Simulator['requests'][number]): number {
  const usage = request.usage;
  if (usage !== undefined)
    return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  return Number(/(?:prompt is too long: |resulted in )(\d+) tokens/.exec(request.error ?? '')?.[1] ?? 0);
}

const isModelCall = (request: Simulator['requests'][number]) => request.path === '/v1/messages';
const hasTools = (request: Simulator['requests'][number]) =>
  ((request.body as { tools?: unknown[] } | undefined)?.tools ?? []).length > 0;
const isFailed = (request: Simulator['requests'][number]) =>
  request.status !== 200 || request.stopReason === 'model_context_window_exceeded';

function lastPromptTokens(run: Run): number {
  const last = run.sim.requests
    .filter((request) => isModelCall(request) && hasTools(request) && !isFailed(request))
    .at(-1);
  return last === undefined ? 0 : promptTokens(last);
}

/** Grows the session with text turns until its last prompt is about `share` of the window. */
async function growTo(run: Run, share: number): Promise<void> {
  for (let turn = 0; lastPromptTokens(run) < run.window * share - 500 && turn < 10; turn++) {
    await ask(run, textOf(Math.min(run.window * 0.3, run.window * share - lastPromptTokens(run)), `history${turn}`));
  }
}

const printLog = (run: Run) =>
  run.sim.script({
    content: [
      {
        type: 'tool_use',
        id: `toolu_log_${run.sessionId}`,
        name: 'bash',
        input: { command: 'seq -f "entry %g of the build log: ok" 1 1900', description: 'print the log' },
      },
    ],
    when: hasToolsBody,
  });
const hasToolsBody = (request: { tools?: unknown[] }) => (request.tools ?? []).length > 0;

async function messagesOf(run: Run) {
  return (await run.project.client.session.messages({ path: { id: run.sessionId } })).data ?? [];
}

/** Sends `text` and waits for its answer, ctxhost's "cannot" toast, a loop, or a session that went quiet. */
async function finish(run: Run, scenario: string, setup: Setup, text: string): Promise<OpencodeRecoveryRow> {
  const { sim, project } = run;
  const eventsFrom = project.events.length;
  const started = performance.now();
  await send(run, text);
  let quietSince = Date.now();
  let seen = sim.requests.length;
  await waitFor(
    'an answer, a stop or a loop',
    async () => {
      if (sim.requests.length !== seen) {
        seen = sim.requests.length;
        quietSince = Date.now();
      }
      const calls = sim.requests.slice(run.start).filter(isModelCall);
      if (calls.length > LOOP_CALLS + 10) return true;
      if (
        project.events
          .slice(eventsFrom)
          .some((event) => event.type === 'tui.toast.show' && event.properties.title === 'Manual intervention needed')
      )
        return true;
      const last = (await messagesOf(run)).at(-1)?.info;
      const answered =
        last?.role === 'assistant' &&
        last.time.completed !== undefined &&
        last.error === undefined &&
        last.summary !== true;
      if (answered && Date.now() - quietSince > 2_000) return true;
      return Date.now() - quietSince > 15_000 ? true : undefined;
    },
    600_000,
  );
  await project.client.session.abort({ path: { id: run.sessionId } }).catch(() => undefined);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const all = sim.requests.slice(run.start).filter(isModelCall);
  const first = all.findIndex(
    (request) => isFailed(request) || (hasTools(request) && promptTokens(request) >= run.window * 0.8),
  );
  const calls = first < 0 ? all.slice(-1) : all.slice(first);
  const last = (await messagesOf(run))
    .filter((message) => message.info.role === 'assistant' && message.info.summary !== true)
    .at(-1);
  const answered = last?.parts.some((part) => part.type === 'text' && part.text === replyTo(text)) === true;
  return {
    scenario,
    opencodeCompaction: setup.compaction ? 'on' : 'off',
    window: run.window,
    modelCalls: calls.length,
    calls:
      calls.length > LOOP_CALLS
        ? `${calls.slice(0, 6).map(callKind).join(' → ')} → … (loop, stopped)`
        : calls.map(callKind).join(' → '),
    failed: calls.filter(isFailed).length,
    tokensSent: calls.reduce((sum, request) => sum + promptTokens(request), 0),
    answered,
    originalsLost: await originalsLost(run),
    seconds,
  };
}

function callKind(request: Simulator['requests'][number]): string {
  if (request.stopReason === 'model_context_window_exceeded') return 'empty 200';
  if (request.status !== 200) return String(request.status);
  if (!hasTools(request)) return 'summary';
  return request.stopReason === 'tool_use' ? 'tool call' : 'answer';
}

/** Tool outputs in the session whose marker says ctxhost kept the original, and which `ctxhost_original` cannot read back. */
async function originalsLost(run: Run): Promise<number> {
  const kept = (await messagesOf(run))
    .flatMap((message) => message.parts)
    .filter(
      (part): part is ToolPart =>
        part.type === 'tool' && part.state.status === 'completed' && /kept as part \S+?[:;]/.test(part.state.output),
    );
  let lost = 0;
  for (const part of kept) {
    run.sim.script({
      content: [
        {
          type: 'tool_use',
          id: `toolu_back_${part.id}`,
          name: 'ctxhost_original',
          input: { partId: part.id, fromLine: 1, toLine: 1 },
        },
      ],
      when: hasToolsBody,
    });
    await ask(run, `read back the first line of ${part.id}`).catch(() => undefined);
    const back = (await messagesOf(run))
      .flatMap((message) => message.parts)
      .findLast(
        (candidate): candidate is ToolPart => candidate.type === 'tool' && candidate.tool === 'ctxhost_original',
      );
    if (!(back?.state.status === 'completed' && back.state.output.startsWith('Lines 1-1 of'))) lost++;
  }
  return lost;
}

type Scenario = { name: string; window: number; style: OverflowStyle; run: (run: Run) => Promise<string> };

/** Each scenario prepares its session and returns the prompt it measures. */
const SCENARIOS: Scenario[] = [
  {
    name: 'prompt 1% over (text history at 55%)',
    window: 60_000,
    style: 'prompt_too_long',
    run: async (run) => (await growTo(run, 0.55), textOf(run.window * 1.01 - lastPromptTokens(run), 'overflowing')),
  },
  {
    name: 'prompt 50% over (text history at 90%)',
    window: 60_000,
    style: 'prompt_too_long',
    run: async (run) => (await growTo(run, 0.9), textOf(run.window * 1.5 - lastPromptTokens(run), 'overflowing')),
  },
  {
    name: 'prompt 300% over (text history at 55%)',
    window: 60_000,
    style: 'prompt_too_long',
    run: async (run) => (await growTo(run, 0.55), textOf(run.window * 4 - lastPromptTokens(run), 'overflowing')),
  },
  {
    name: 'tool output earlier, then a prompt 1% over',
    window: 60_000,
    style: 'prompt_too_long',
    run: async (run) => {
      printLog(run);
      await ask(run, 'print the build log');
      return textOf(run.window * 1.01 - lastPromptTokens(run), 'overflowing');
    },
  },
  {
    name: 'one tool output bigger than the room left (default truncator cap)',
    window: 20_000,
    style: 'prompt_too_long',
    run: async (run) => {
      printLog(run);
      return 'print the build log';
    },
  },
  {
    name: 'crossing 70% (then a short prompt)',
    window: 60_000,
    style: 'prompt_too_long',
    run: async (run) => (
      await growTo(run, 0.55),
      await ask(run, textOf(run.window * 0.74 - lastPromptTokens(run), 'crossing')),
      'a short follow-up'
    ),
  },
  {
    name: 'crossing 80% (then a prompt of 20%)',
    window: 60_000,
    style: 'prompt_too_long',
    run: async (run) => (
      await growTo(run, 0.55),
      await ask(run, textOf(run.window * 0.85 - lastPromptTokens(run), 'crossing')),
      textOf(run.window * 0.2, 'follow-up')
    ),
  },
  {
    name: "another provider's error text (OpenAI's), prompt 1% over",
    window: 60_000,
    style: 'openai_text',
    run: async (run) => (await growTo(run, 0.55), textOf(run.window * 1.01 - lastPromptTokens(run), 'overflowing')),
  },
  {
    name: 'an empty 200 at the window, prompt 1% over',
    window: 60_000,
    style: 'stop_reason',
    run: async (run) => (await growTo(run, 0.55), textOf(run.window * 1.01 - lastPromptTokens(run), 'overflowing')),
  },
];

/** Smallest: the first scenario with opencode's compaction off. */
export async function runOpencode(size: BenchSize = 'full'): Promise<OpencodeRecoveryRow[]> {
  const first = await startSimulator({ contextLimit: 60_000 });
  const server = await startOpencodeServer({
    simulatorUrl: first.url,
    contextLimit: 60_000,
    ctxhostYaml: () => 'store:\n  kind: memory\n',
  });
  const bench: Bench = { server, sims: new Map([['60000/prompt_too_long', first]]), projects: new Map() };
  const rows: OpencodeRecoveryRow[] = [];
  try {
    for (const compaction of size === 'smallest' ? [false] : [false, true]) {
      for (const scenario of size === 'smallest' ? SCENARIOS.slice(0, 1) : SCENARIOS) {
        const setup = { window: scenario.window, style: scenario.style, compaction };
        const run = await open(bench, setup);
        const text = await scenario.run(run);
        rows.push(await finish(run, scenario.name, setup, text));
      }
    }
  } finally {
    await server.close();
    for (const sim of bench.sims.values()) await sim.close();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await runOpencode();
  console.table(rows);
  console.log(JSON.stringify(rows));
}
