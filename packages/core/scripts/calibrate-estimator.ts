/**
 * Calibrates and measures the token estimator on the Claude Code corpus.
 *
 *   npx tsx --conditions=@ctxhost/source packages/core/scripts/calibrate-estimator.ts [--fit]
 *
 * In a Claude Code session, each API request reports its prompt size
 * (input + cache creation + cache read tokens). Between two consecutive requests of
 * one thread, the prompt grows by the real token count of what was added: the
 * previous assistant reply plus the tool results and user text that followed.
 * For every such delta this prints the median absolute relative error of
 * `estimateTokens` and of plain characters/4, per session and overall, then the
 * cost of counting a 100k-message history with `createTokenCounter`.
 * `--fit` also fits the linear weights (least squares on relative error).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  createTokenCounter,
  estimateTokens,
  ESTIMATOR_WEIGHTS,
  messageChars,
  type Message,
  type Part,
} from '@ctxhost/core';
import {
  addMessageFeatures,
  emptyTokenFeatures,
  type TokenFeatures,
  type TokenWeights,
} from '../src/tokens/estimate-tokens.js';

const corpusDirectory = fileURLToPath(new URL('../../../test/fixtures/corpus/claude-code/', import.meta.url));

interface Line {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
  isSidechain?: boolean;
  message?: { id?: string; role?: string; content?: unknown; usage?: Record<string, number> };
}

interface Delta {
  session: string;
  mainThread: boolean;
  actual: number;
  added: Message[];
}

/** Splits a session's lines into threads: the main thread, and one per sidechain chain root. */
function threadsOf(lines: Line[]): Map<string, Line[]> {
  const threadOfUuid = new Map<string, string>();
  const threads = new Map<string, Line[]>();
  for (const line of lines) {
    if (line.message === undefined || line.uuid === undefined) continue;
    const parentThread = line.parentUuid == null ? undefined : threadOfUuid.get(line.parentUuid);
    const thread = line.isSidechain === true ? (parentThread ?? `side:${line.uuid}`) : 'main';
    threadOfUuid.set(line.uuid, thread);
    threads.set(thread, [...(threads.get(thread) ?? []), line]);
  }
  return threads;
}

let partNumber = 0;
function toParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ id: `p${++partNumber}`, type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: Record<string, unknown>): Part[] => {
    const id = `p${++partNumber}`;
    if (block.type === 'text') return [{ id, type: 'text', text: String(block.text) }];
    if (block.type === 'thinking')
      return [{ id, type: 'reasoning', text: String(block.thinking), signature: String(block.signature ?? '') }];
    if (block.type === 'tool_use')
      return [
        { id, type: 'tool-call', callId: String(block.id), name: String(block.name), input: block.input as never },
      ];
    if (block.type === 'tool_result')
      return [{ id, type: 'tool-result', callId: String(block.tool_use_id), output: toResultOutput(block.content) }];
    if (block.type === 'image')
      return [{ id, type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: '' } }];
    return [];
  });
}

function toResultOutput(content: unknown): string | { type: 'text'; text: string }[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => block?.type === 'text')
    .map((block) => ({ type: 'text' as const, text: String(block.text) }));
}

function promptSize(usage: Record<string, number>): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** Deltas of one thread: assistant lines merged by message id, user lines in between. */
function deltasOf(session: string, thread: string, lines: Line[]): Delta[] {
  const deltas: Delta[] = [];
  let previous: { id: string; prompt: number; message: Message } | undefined;
  let added: Message[] = [];
  for (const line of lines) {
    const { message } = line;
    if (message === undefined) continue;
    if (message.role === 'assistant' && message.id !== undefined && message.usage !== undefined) {
      if (previous?.id === message.id) {
        previous.message.parts.push(...toParts(message.content));
        continue;
      }
      const prompt = promptSize(message.usage);
      if (previous !== undefined)
        deltas.push({
          session,
          mainThread: thread === 'main',
          actual: prompt - previous.prompt,
          added: [previous.message, ...added],
        });
      previous = {
        id: message.id,
        prompt,
        message: { id: message.id, role: 'assistant', parts: toParts(message.content) },
      };
      added = [];
    } else if (message.role === 'user') {
      added.push({ id: line.uuid ?? `u${++partNumber}`, role: 'user', parts: toParts(message.content) });
    }
  }
  return deltas;
}

function readDeltas(): Delta[] {
  const files = readdirSync(corpusDirectory)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  return files.flatMap((file) => {
    const lines = readFileSync(join(corpusDirectory, file), 'utf8')
      .split('\n')
      .filter((text) => text.trim() !== '')
      .map((text) => JSON.parse(text) as Line);
    const session = basename(file, '.jsonl').slice(0, 8);
    return [...threadsOf(lines)].flatMap(([thread, threadLines]) => deltasOf(session, thread, threadLines));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2 === 1
      ? sorted[middle]!
      : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const charsOver4 = (messages: Message[]) => messages.reduce((sum, message) => sum + messageChars(message), 0) / 4;

function report(label: string, deltas: Delta[], estimate: (messages: Message[]) => number): void {
  const ours = deltas.map((delta) => Math.abs(estimate(delta.added) - delta.actual) / delta.actual);
  const naive = deltas.map((delta) => Math.abs(charsOver4(delta.added) - delta.actual) / delta.actual);
  console.log(
    `${label.padEnd(28)} deltas ${String(deltas.length).padStart(4)}   estimator ${percent(median(ours)).padStart(6)}   chars/4 ${percent(median(naive)).padStart(6)}`,
  );
}

function featuresOf(messages: Message[]): TokenFeatures {
  const features = emptyTokenFeatures();
  for (const message of messages) addMessageFeatures(features, message);
  return features;
}

/** Least squares on relative error: minimize Σ ((w·f − actual) / actual)². */
function fitWeights(deltas: Delta[], keys: (keyof TokenFeatures)[]): TokenWeights {
  const size = keys.length;
  const normal = Array.from({ length: size }, () => new Array<number>(size + 1).fill(0));
  for (const delta of deltas) {
    const features = featuresOf(delta.added);
    const row = keys.map((key) => features[key] / delta.actual);
    for (let left = 0; left < size; left++) {
      for (let right = 0; right < size; right++) normal[left]![right]! += row[left]! * row[right]!;
      normal[left]![size]! += row[left]!;
    }
  }
  const solution = solve(normal);
  const weights = { ...ESTIMATOR_WEIGHTS };
  keys.forEach((key, index) => (weights[key] = solution[index]!));
  return weights;
}

function solve(matrix: number[][]): number[] {
  const size = matrix.length;
  for (let column = 0; column < size; column++) {
    let pivot = column;
    for (let row = column + 1; row < size; row++)
      if (Math.abs(matrix[row]![column]!) > Math.abs(matrix[pivot]![column]!)) pivot = row;
    [matrix[column], matrix[pivot]] = [matrix[pivot]!, matrix[column]!];
    const lead = matrix[column]![column]! || 1e-12;
    for (let row = 0; row < size; row++) {
      if (row === column) continue;
      const factor = matrix[row]![column]! / lead;
      for (let cell = column; cell <= size; cell++) matrix[row]![cell]! -= factor * matrix[column]![cell]!;
    }
  }
  return matrix.map((row, index) => row[size]! / (row[index]! || 1e-12));
}

function measureCountingCost(sample: Message[]): void {
  const history = Array.from({ length: 100_000 }, (_, index) => ({
    ...structuredClone(sample[index % sample.length]!),
    id: `h${index}`,
  }));
  const counter = createTokenCounter();
  let started = performance.now();
  const total = counter.countAll(history);
  const first = performance.now() - started;
  started = performance.now();
  counter.countAll(history);
  const again = performance.now() - started;
  for (let index = 0; index < 10; index++)
    history.push({ ...structuredClone(sample[index % sample.length]!), id: `new${index}` });
  const missesBefore = counter.stats.misses;
  started = performance.now();
  counter.countAll(history);
  const appended = performance.now() - started;
  console.log(
    `\ncounting 100k messages (${total} tokens): first ${first.toFixed(0)} ms, unchanged again ${again.toFixed(1)} ms, after appending 10: ${appended.toFixed(1)} ms (${counter.stats.misses - missesBefore} re-counted)`,
  );
  const totalChars = history.reduce((sum, message) => sum + messageChars(message), 0);
  started = performance.now();
  estimateTokens(history);
  console.log(
    `uncached estimateTokens over the same ${(totalChars / 1e6).toFixed(0)}M characters: ${(performance.now() - started).toFixed(0)} ms`,
  );
}

const deltas = readDeltas().filter((delta) => delta.actual > 0);
const main = deltas.filter((delta) => delta.mainThread);
const estimateAll = (messages: Message[]) => estimateTokens(messages);
console.log('median absolute relative error per prompt-growth delta\n');
for (const session of new Set(deltas.map((delta) => delta.session))) {
  report(
    `${session} main thread`,
    main.filter((delta) => delta.session === session),
    estimateAll,
  );
  report(
    `${session} all threads`,
    deltas.filter((delta) => delta.session === session),
    estimateAll,
  );
}
report('overall main thread', main, estimateAll);
report('overall all threads', deltas, estimateAll);
console.log(`(${readDeltas().length - deltas.length} non-positive deltas skipped)`);

if (process.argv.includes('--fit')) {
  const keys = (process.argv
    .find((argument) => argument.startsWith('--keys='))
    ?.slice(7)
    .split(',') ?? Object.keys(ESTIMATOR_WEIGHTS)) as (keyof TokenFeatures)[];
  const weights = fitWeights(deltas, keys);
  console.log(
    '\nfitted weights (all threads):',
    Object.fromEntries(Object.entries(weights).map(([key, value]) => [key, Number(value.toFixed(3))])),
  );
  const fitted = (messages: Message[]) =>
    Object.entries(featuresOf(messages)).reduce(
      (sum, [key, value]) => sum + weights[key as keyof TokenFeatures] * value,
      0,
    );
  report('fitted, main thread', main, fitted);
  report('fitted, all threads', deltas, fitted);
  console.log('\nleave one session out (fit on the others, measure on this one):');
  for (const session of new Set(deltas.map((delta) => delta.session))) {
    const heldOut = fitWeights(
      deltas.filter((delta) => delta.session !== session),
      keys,
    );
    const estimate = (messages: Message[]) =>
      Object.entries(featuresOf(messages)).reduce(
        (sum, [key, value]) => sum + heldOut[key as keyof TokenFeatures] * value,
        0,
      );
    report(
      `${session} main thread`,
      main.filter((delta) => delta.session === session),
      estimate,
    );
    report(
      `${session} all threads`,
      deltas.filter((delta) => delta.session === session),
      estimate,
    );
  }
}

measureCountingCost(deltas.flatMap((delta) => delta.added));
