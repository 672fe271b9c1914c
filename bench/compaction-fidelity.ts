/**
 * Compaction fidelity: what the agent needs survives a compaction, and no
 * secret leaks into a summary. Long sessions (generateLongSession: the real
 * agent loop over the simulator, tool outputs and requests from the corpus)
 * with planted secrets (an Anthropic key in a user request, a GitHub token in a
 * command, AWS keys and a database password in a tool output) and a planted
 * user constraint, cut at many points and compressed at 16k and 32k windows the
 * way the engine plugin does at the threshold (to the low-water mark). Both
 * summary paths: the extractive one, and the simulator's summary responder
 * through the real SDK over HTTP. Seeds 9001–9003 are held out (never tuned on)
 * and reported apart.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/compaction-fidelity.ts
 */
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropicSummarizer } from '@ctxhost/anthropic';
import { createCompressor } from '@ctxhost/compressor';
import {
  coveredIds,
  createSecretRedactor,
  createTokenCounter,
  lowWaterMark,
  type Message,
  type Summarizer,
} from '@ctxhost/core';
import { startSimulator } from '@ctxhost/simulator';
import { generateLongSession, HELD_OUT_SEEDS } from '../test/support/long-session.js';
import type { BenchSize } from './bench.js';
import { pathsTouched } from './paths-touched.js';

export interface FidelityRow {
  sessions: string;
  window: number;
  path: 'extractive' | 'simulator';
  cuts: number;
  newestRequestKept: string;
  taskKept: string;
  pathsNamed: string;
  failingCommandsNamed: string;
  constraintNamed: string;
  secretsInSummaries: number;
  /** Mean tokens of the summary message (summary, working state, facts it re-adds). */
  summaryTokens: number;
}

const TUNING_SEEDS = [1, 2, 3];
const WINDOWS = [16_000, 32_000];
const CUTS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const REQUESTS = 30;
const SECRETS = {
  user: 'sk-ant-api03-PlantedUserKey0123456789abcdefghijKLMN',
  command: 'ghp_PlantedCommandToken0123456789abcdefghij',
  accessKey: 'AKIAPLANTEDEXAMPLE12',
  secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTEDKEY1',
  password: 'Planted-db-pass-77',
};
const CONSTRAINT = 'Constraint: never modify anything under vendor/legacy-billing/.';

/** Smallest: one tuning session of 8 requests, 16k, both summaries (its cuts under half the window skipped as always). */
export async function runCompactionFidelity(size: BenchSize = 'full'): Promise<FidelityRow[]> {
  const simulator = await startSimulator();
  try {
    const client = new Anthropic({ apiKey: 'bench', baseURL: simulator.url, maxRetries: 0 });
    const rows: FidelityRow[] = [];
    const groups =
      size === 'smallest'
        ? ([['tuning seed 1', [1]]] as const)
        : ([
            ['tuning seeds 1-3', TUNING_SEEDS],
            ['held out 9001-9003', HELD_OUT_SEEDS],
          ] as const);
    const requests = size === 'smallest' ? 8 : REQUESTS;
    for (const [label, seeds] of groups) {
      const sessions = await Promise.all(
        seeds.map(async (seed) => plant((await generateLongSession({ seed, requests })).messages)),
      );
      for (const window of size === 'smallest' ? WINDOWS.slice(0, 1) : WINDOWS) {
        for (const path of ['extractive', 'simulator'] as const) {
          const summarizer =
            path === 'simulator'
              ? createAnthropicSummarizer(client, { model: 'claude-haiku-4-5', maxInputTokens: window })
              : undefined;
          rows.push({ sessions: label, window, path, ...(await measure(sessions, window, summarizer)) });
        }
      }
    }
    return rows;
  } finally {
    await simulator.close();
  }
}

type Tally = Omit<FidelityRow, 'sessions' | 'window' | 'path'>;

async function measure(
  sessions: readonly Message[][],
  window: number,
  summarizer: Summarizer | undefined,
): Promise<Tally> {
  const counts = {
    summaryTokens: 0,
    cuts: 0,
    newest: 0,
    task: 0,
    paths: [0, 0],
    failing: [0, 0],
    constraint: [0, 0],
    secrets: 0,
  };
  const redactor = createSecretRedactor();
  for (const messages of sessions) {
    for (const at of CUTS) {
      const cut = messages.slice(0, Math.max(8, Math.floor(messages.length * at)));
      const counter = createTokenCounter();
      if (counter.countAll(cut) < window * 0.5) continue;
      const compressor = createCompressor(summarizer === undefined ? {} : { summarizer });
      const { messages: projection } = await compressor.compress(cut, {
        sessionId: 'bench',
        contextWindow: window,
        counter,
        reason: 'threshold',
        targetTokens: lowWaterMark(0.5, window),
      });
      const summary = projection.find((message) => message.meta?.summary !== undefined);
      if (summary === undefined) continue;
      counts.cuts++;
      const summaryText = textOf(summary);
      counts.summaryTokens += counter.countText(summaryText);
      const shown = projection.map(textOf).join('\n');
      const kept = (message: Message | undefined) =>
        message !== undefined &&
        (projection.some((candidate) => candidate.id === message.id) ||
          summaryText.includes(redactor.redactText(requestText(message))));
      const requests = cut.filter((message) => message.role === 'user' && requestText(message).length > 0);
      if (kept(requests.at(-1))) counts.newest++;
      if (kept(requests[0])) counts.task++;
      const covered = new Set(coveredIds(summary.meta!.summary!.covers, cut));
      const span = cut.filter((message) => covered.has(message.id));
      const paths = pathsTouched(span);
      counts.paths[0]! += paths.filter((path) => shown.includes(path)).length;
      counts.paths[1]! += paths.length;
      const failing = failingCommands(span);
      counts.failing[0]! += failing.filter((command) => shown.includes(command.slice(0, 60))).length;
      counts.failing[1]! += failing.length;
      if (span.some((message) => textOf(message).includes(CONSTRAINT))) {
        counts.constraint[1]!++;
        if (shown.includes('vendor/legacy-billing/')) counts.constraint[0]!++;
      }
      counts.secrets += Object.values(SECRETS).filter((secret) => summaryText.includes(secret)).length;
    }
  }
  return {
    cuts: counts.cuts,
    newestRequestKept: share(counts.newest, counts.cuts),
    taskKept: share(counts.task, counts.cuts),
    pathsNamed: share(counts.paths[0]!, counts.paths[1]!),
    failingCommandsNamed: share(counts.failing[0]!, counts.failing[1]!),
    constraintNamed: share(counts.constraint[0]!, counts.constraint[1]!),
    secretsInSummaries: counts.secrets,
    summaryTokens: counts.cuts === 0 ? 0 : Math.round(counts.summaryTokens / counts.cuts),
  };
}

/** Plants the secrets and the constraint in the first fifth of a session: a user request, a command, a tool output. */
function plant(messages: Message[]): Message[] {
  const copy = structuredClone(messages);
  const early = Math.floor(copy.length / 5);
  const user = copy.findIndex(
    (message, index) => index >= early && message.role === 'user' && requestText(message).length > 0,
  );
  const call = copy.findIndex(
    (message, index) => index > user && message.parts.some((part) => part.type === 'tool-call'),
  );
  const result = copy.findIndex(
    (message, index) => index > call && message.parts.some((part) => part.type === 'tool-result'),
  );
  const userPart = copy[user]!.parts.find((part) => part.type === 'text');
  if (userPart?.type === 'text') userPart.text += `\n${CONSTRAINT} Use the key ${SECRETS.user} for the API.`;
  const callPart = copy[call]!.parts.find((part) => part.type === 'tool-call');
  if (callPart?.type === 'tool-call')
    callPart.input = {
      command: `curl -H "Authorization: token ${SECRETS.command}" https://api.github.com/repos/acme/app`,
    };
  const resultPart = copy[result]!.parts.find((part) => part.type === 'tool-result');
  if (resultPart?.type === 'tool-result')
    resultPart.output = `AWS_ACCESS_KEY_ID=${SECRETS.accessKey}\naws_secret_access_key = ${SECRETS.secretKey}\nDATABASE_URL=postgres://billing:${SECRETS.password}@db.internal:5432/billing\n${typeof resultPart.output === 'string' ? resultPart.output : ''}`;
  return copy;
}

function requestText(message: Message): string {
  return message.meta?.summary !== undefined
    ? ''
    : message.parts
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n')
        .trim();
}

function textOf(message: Message): string {
  return message.parts
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool-call') return JSON.stringify(part.input);
      if (part.type === 'tool-result')
        return typeof part.output === 'string'
          ? part.output
          : part.output.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      return '';
    })
    .join('\n');
}

/** Commands whose result was an error: the `command` argument of calls answered with isError. */
function failingCommands(messages: readonly Message[]): string[] {
  const commands = new Map<string, string>();
  const failing = new Set<string>();
  for (const message of messages)
    for (const part of message.parts) {
      if (
        part.type === 'tool-call' &&
        typeof part.input === 'object' &&
        part.input !== null &&
        !Array.isArray(part.input) &&
        typeof part.input['command'] === 'string'
      )
        commands.set(part.callId, part.input['command'].replace(/\s+/g, ' '));
      if (part.type === 'tool-result' && part.isError === true && commands.has(part.callId))
        failing.add(commands.get(part.callId)!);
    }
  return [...failing];
}

function share(found: number, total: number): string {
  return total === 0 ? 'n/a' : `${Math.round((found / total) * 1000) / 10}% (${found}/${total})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runCompactionFidelity());
