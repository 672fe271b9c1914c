/**
 * The overflow scenarios of `bench/recovery.ts`, for the framework integrations
 * (`@ctxhost/ai-sdk`, …): one conversation (a build investigation with ten tool
 * outputs, then a question), an API limit that puts it 1%, 50% or 300% over, and
 * what the simulator saw until the caller had its answer. Each integration's
 * bench (bench/integrations/<package>.ts) drives its framework through it.
 */
import {
  countTokens,
  responsesToMessagesRequest,
  startSimulator,
  toMessagesRequest,
  type ChatCompletionRequest,
  type RecordedRequest,
  type ResponsesRequest,
  type Simulator,
} from '@ctxhost/simulator';
import { createDefaultHost, type Host } from 'ctxhost';
import type { BenchSize } from './bench.js';

export const BENCH_MODEL = 'claude-sonnet-4-6';
export const BENCH_SYSTEM = 'You are a careful engineer.';
export const OVERFLOWS = [0.01, 0.5, 3] as const;

/** The overflows a run measures: all three, or the middle one at the smallest size. */
export function overflowsFor(size: BenchSize): readonly number[] {
  return size === 'smallest' ? [0.5] : OVERFLOWS;
}

/** The conversation, framework-neutral: the caller's own history, ending in a question. */
export type NeutralMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; call?: { id: string; name: string; input: { path: string } } }
  | { role: 'tool'; callId: string; name: string; output: string };

export function benchConversation(): NeutralMessage[] {
  const messages: NeutralMessage[] = [{ role: 'user', text: 'Investigate the failing build.' }];
  for (let index = 0; index < 10; index++) {
    const id = `toolu_${index}`;
    messages.push({
      role: 'assistant',
      text: `Reading part ${index}. ${'reasoning about the build '.repeat(30)}`,
      call: { id, name: 'read_file', input: { path: `src/file${index}.ts` } },
    });
    messages.push({
      role: 'tool',
      callId: id,
      name: 'read_file',
      output: `source line ${index}\n`.repeat(60 + index * 40),
    });
  }
  messages.push({ role: 'assistant', text: 'Read everything.' }, { role: 'user', text: 'What failed?' });
  return messages;
}

export interface IntegrationRow {
  integration: string;
  overflow: string;
  /** `told 200k`: the integration plans with a window far above the API's limit, so only recovery can help; `known`: it is told the API's limit. */
  window: string;
  modelCalls: number;
  statuses: string;
  tokensSent: number;
  callerSawError: boolean;
  answered: boolean;
}

export interface ScenarioRun {
  sim: Simulator;
  /** The API's limit for this scenario. */
  limit: number;
  /** The window the integration is told. */
  window: number;
}

/** Prompt tokens of the whole conversation as the simulator counts them (the first request of an unlimited run). */
export async function measureConversation(send: (run: ScenarioRun) => Promise<unknown>): Promise<number> {
  const sim = await startSimulator({ contextLimit: 10_000_000 });
  try {
    await send({ sim, limit: 10_000_000, window: 10_000_000 });
    const first = sim.requests.find(isModelCall);
    return first === undefined ? 0 : promptTokensOf(first);
  } finally {
    await sim.close();
  }
}

/** Runs one scenario: the API limit puts the conversation `overBy` over; `send` returns when the caller has its answer (or throws what the caller saw). */
export async function runScenario(
  integration: string,
  real: number,
  overBy: number,
  knownWindow: boolean,
  send: (run: ScenarioRun) => Promise<string>,
): Promise<IntegrationRow> {
  const limit = Math.floor(real / (1 + overBy));
  const sim = await startSimulator({ contextLimit: limit });
  let answer = '';
  let callerSawError = false;
  try {
    answer = await send({ sim, limit, window: knownWindow ? limit : 200_000 });
  } catch {
    callerSawError = true;
  }
  const calls = sim.requests.filter(isModelCall);
  await sim.close();
  return {
    integration,
    overflow: `${Math.round(overBy * 100)}%`,
    window: knownWindow ? 'known' : 'told 200k',
    modelCalls: calls.length,
    statuses: calls.map((call) => call.status).join(' → '),
    tokensSent: calls.reduce((sum, call) => sum + promptTokensOf(call), 0),
    callerSawError,
    answered: answer.length > 0,
  };
}

/** The host every integration bench drives: the defaults, a memory store, auto-compact retrying at once, nothing logged; disposed after `use`. */
export async function withBenchHost<T>(use: (host: Host) => Promise<T>): Promise<T> {
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  try {
    return await use(host);
  } finally {
    await host.dispose();
  }
}

/** How a framework's bench sends the conversation: through ctxhost or straight to the framework, returning the answer. */
export type BenchSend = (run: ScenarioRun, withCtxhost: boolean) => Promise<string>;

/**
 * The rows of one framework set-up: the conversation measured without ctxhost, then at each
 * overflow the framework alone (when `names.without` is given), with ctxhost told a window far
 * above the API's limit, and with ctxhost told the limit.
 */
export async function recoveryRows(
  names: { without?: string; with: string },
  size: BenchSize,
  send: BenchSend,
): Promise<IntegrationRow[]> {
  const real = await measureConversation((run) => send(run, false));
  const rows: IntegrationRow[] = [];
  for (const overBy of overflowsFor(size)) {
    if (names.without !== undefined)
      rows.push(await runScenario(names.without, real, overBy, false, (run) => send(run, false)));
    rows.push(await runScenario(names.with, real, overBy, false, (run) => send(run, true)));
    rows.push(await runScenario(names.with, real, overBy, true, (run) => send(run, true)));
  }
  return rows;
}

/** A model call on any endpoint (Messages, Chat Completions, Responses). */
export function isModelCall(request: RecordedRequest): boolean {
  return request.path === '/v1/messages' || request.path === '/v1/chat/completions' || request.path === '/v1/responses';
}

/** The prompt's size as the simulator counts it, whatever the endpoint (a rejected call has no usage). */
export function promptTokensOf(request: RecordedRequest): number {
  if (request.body === undefined) return 0;
  const body =
    request.path === '/v1/chat/completions'
      ? toMessagesRequest(request.body as ChatCompletionRequest)
      : request.path === '/v1/responses'
        ? responsesToMessagesRequest(request.body as ResponsesRequest)
        : request.body;
  return countTokens(body as Parameters<typeof countTokens>[0]);
}
