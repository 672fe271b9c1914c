/**
 * Issue #15's measure: overflows inside the real opencode (`opencode serve`, the pinned `opencode-ai`)
 * with ctxhost's plugin recovering them, against the simulator. For each scenario: the model calls
 * from the overflowing prompt until the session answers again (the failed one included), the
 * prompt tokens those calls sent, what the cascade did, and whether the session answered.
 * opencode's own compaction is off (OPENCODE_DISABLE_AUTOCOMPACT), the cascade's backoff is 0.
 * Needs the plugin built (`pnpm build`): opencode loads packages/opencode/dist.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/opencode.ts
 */
import { pathToFileURL } from 'node:url';
import { countTextTokens, startSimulator, type Simulator } from '@ctxhost/simulator';
import { MODEL, startOpencodeServer, waitFor, type OpencodeServer } from '../test/opencode-server.js';

export interface OpencodeRecoveryRow {
  scenario: string;
  window: number;
  /** The size of the failed request, as the share of the window it needed (0 when nothing failed). */
  over: string;
  modelCalls: number;
  calls: string;
  tokensSent: number;
  steps: string;
  answered: boolean;
  seconds: number;
}

interface Bench {
  sim: Simulator;
  server: OpencodeServer;
  window: number;
}

async function open(window: number, truncatorCap: number): Promise<Bench> {
  const sim = await startSimulator({ contextLimit: window });
  const server = await startOpencodeServer({
    simulatorUrl: sim.url,
    contextLimit: window,
    ctxhostYaml: () => `store:\n  kind: memory\nhooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 0\n  tool-output-truncator:\n    max_tokens: ${truncatorCap}\n`,
  });
  return { sim, server, window };
}

async function close(bench: Bench): Promise<void> {
  await bench.server.close();
  await bench.sim.close();
}

function textOf(tokens: number, word: string): string {
  const unit = `${word} quick brown fox jumps over the lazy dog `;
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

async function ask(bench: Bench, sessionId: string, text: string): Promise<void> {
  const result = await bench.server.client.session.prompt({ path: { id: sessionId }, body: { model: MODEL, parts: [{ type: 'text', text }] } });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

async function newSession(bench: Bench): Promise<string> {
  const { client } = bench.server;
  const id = (await client.session.create({ body: {} })).data?.id;
  if (id === undefined) throw new Error('session.create failed');
  await ask(bench, id, 'hello');
  await waitFor('the session title', async () => ((await client.session.get({ path: { id } })).data?.title.startsWith('New session') === false ? true : undefined));
  return id;
}

/** The prompt size of a model call: the usage it reported, or the count in its "prompt is too long" error. */
function promptTokens(request: Simulator['requests'][number]): number {
  const usage = request.usage;
  if (usage !== undefined) return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  return Number(/prompt is too long: (\d+) tokens/.exec(request.error ?? '')?.[1] ?? 0);
}

function lastPromptTokens(bench: Bench): number {
  const last = bench.sim.requests.filter((request) => request.path === '/v1/messages' && request.status === 200).at(-1);
  return last === undefined ? 0 : promptTokens(last);
}

/** Grows the session with text turns until its last prompt is about `share` of the window. */
async function growTo(bench: Bench, sessionId: string, share: number): Promise<void> {
  const step = bench.window * 0.3;
  for (let turn = 0; lastPromptTokens(bench) < bench.window * share - 500 && turn < 10; turn++) {
    await ask(bench, sessionId, textOf(Math.min(step, bench.window * share - lastPromptTokens(bench)), `history${turn}`));
  }
}

/** Sends `text`, then waits for the session to answer or for ctxhost to say it cannot. */
async function measure(bench: Bench, sessionId: string, scenario: string, send: () => Promise<void>): Promise<OpencodeRecoveryRow> {
  const { sim, server } = bench;
  const from = sim.requests.length;
  const eventsFrom = server.events.length;
  const started = performance.now();
  await send();
  const outcome = await waitFor('an answer or a recovery toast', async () => {
    const toast = server.events.slice(eventsFrom).find((event) => event.type === 'tui.toast.show' && ['Session recovered', 'Manual intervention needed'].includes(event.properties.title ?? ''));
    const last = ((await server.client.session.messages({ path: { id: sessionId } })).data ?? []).at(-1)?.info;
    const answered = last?.role === 'assistant' && last.time.completed !== undefined && last.error === undefined && last.summary !== true;
    if (toast?.type !== 'tui.toast.show') return answered && sim.requests.slice(from).every((request) => request.status === 200) ? { toast: undefined, answered } : undefined;
    if (toast.properties.title === 'Manual intervention needed') return { toast: toast.properties.message, answered: false };
    return answered ? { toast: toast.properties.message, answered } : undefined;
  }, 300_000);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const calls = sim.requests.slice(from).filter((request) => request.path === '/v1/messages');
  const failed = calls.find((request) => request.status !== 200);
  return {
    scenario,
    window: bench.window,
    over: failed === undefined ? '—' : `${Math.round((promptTokens(failed) / bench.window - 1) * 100)}%`,
    modelCalls: calls.length,
    calls: calls.map(callKind).join(' → '),
    tokensSent: calls.reduce((sum, request) => sum + promptTokens(request), 0),
    steps: outcome.toast === undefined ? 'none needed' : (/after (.*?)[;(.]/.exec(outcome.toast)?.[1] ?? outcome.toast.slice(0, 60)),
    answered: outcome.answered,
    seconds,
  };
}

function callKind(request: Simulator['requests'][number]): string {
  if (request.status !== 200) return String(request.status);
  if (!(request.body as { tools?: unknown[] }).tools?.length) return 'summary';
  return request.stopReason === 'tool_use' ? 'tool call' : 'answer';
}

/** A prompt that takes a text-only session from `history` of the window to `total` of it. */
async function promptOver(bench: Bench, history: number, total: number): Promise<OpencodeRecoveryRow> {
  const sessionId = await newSession(bench);
  await growTo(bench, sessionId, history);
  const overBy = Math.round((total - 1) * 100);
  return measure(bench, sessionId, `prompt ${overBy}% over (text history at ${Math.round(history * 100)}%)`, () => ask(bench, sessionId, textOf(bench.window * total - lastPromptTokens(bench), 'overflowing')));
}

const printLog = (bench: Bench) => bench.sim.script({ content: [{ type: 'tool_use', id: 'toolu_bench', name: 'bash', input: { command: 'seq -f "entry %g of the build log: ok" 1 1900', description: 'print the log' } }] });

/** A big bash output in an earlier turn, then a prompt that takes the session `over` the window. */
async function toolOutputThenPrompt(bench: Bench, over: number): Promise<OpencodeRecoveryRow> {
  const sessionId = await newSession(bench);
  printLog(bench);
  await ask(bench, sessionId, 'print the build log');
  return measure(bench, sessionId, `tool output earlier, then a prompt ${Math.round(over * 100)}% over`, () => ask(bench, sessionId, textOf(bench.window * (1 + over) - lastPromptTokens(bench), 'overflowing')));
}

/** One bash output that does not fit in the room the window has left, in the turn that asked for it. */
async function toolOutputNow(bench: Bench, cap: number): Promise<OpencodeRecoveryRow> {
  const sessionId = await newSession(bench);
  return measure(bench, sessionId, `one tool output bigger than the room left (truncator cap ${cap.toLocaleString('en-US')})`, async () => {
    printLog(bench);
    await ask(bench, sessionId, 'print the build log');
  });
}

export async function runOpencode(): Promise<OpencodeRecoveryRow[]> {
  const rows: OpencodeRecoveryRow[] = [];
  const text = await open(60_000, 100_000);
  try {
    rows.push(await promptOver(text, 0.55, 1.01));
    rows.push(await promptOver(text, 0.9, 1.5));
    rows.push(await promptOver(text, 0.55, 4));
    rows.push(await toolOutputThenPrompt(text, 0.01));
  } finally {
    await close(text);
  }
  // A window where one bash output (opencode caps outputs at 2,000 lines / 50 KB) is more than the room left.
  for (const cap of [100_000, 4_000]) {
    const small = await open(20_000, cap);
    try {
      rows.push(await toolOutputNow(small, cap));
    } finally {
      await close(small);
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runOpencode());
}
