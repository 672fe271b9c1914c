/**
 * Token estimator accuracy against real counts. In the corpus's Claude Code sessions
 * (claude-sonnet-4), the growth of the API-reported prompt between two consecutive
 * requests of one thread (the main thread or a subagent's) is the real token count of
 * what was appended between them. Median absolute relative error of the shipped
 * estimator beside chars/4, per session, per content kind (the kind with most of the
 * delta's characters), per delta size and over each thread's whole growth; and the
 * error of a per-kind calibration (a scale per kind on the estimator's text tokens,
 * fitted by least absolute relative error) on threads and on sessions it was not fitted on;
 * and, as a cross-check, the Claude 2 tokenizer (`@anthropic-ai/tokenizer`) with a per-message
 * and per-tool-call overhead fitted the same way, held out by thread.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/estimator-accuracy.ts
 */
import { pathToFileURL } from 'node:url';
import { estimateTokens, messageChars } from '@ctxhost/core';
import type { BenchSize } from './bench.js';
import { countWithClaude2Tokenizer } from './estimator/claude-2-tokenizer.js';
import { CONTENT_KINDS, dominantKind, kindProfile, type KindProfile } from './estimator/content-kinds.js';
import { applyFit, fitLeastRelativeError } from './estimator/linear-fit.js';
import { claudeCodeSessionFiles, readPromptGrowth, type PromptGrowth } from './estimator/prompt-growth.js';

export interface EstimatorRow {
  deltas: string;
  count: number;
  estimator: string;
  charsOver4: string;
  /** The per-kind calibration, each delta estimated by weights fitted on the other threads. */
  heldOutThread: string;
  /** The same, fitted on the other sessions. */
  heldOutSession: string;
  /** The Claude 2 tokenizer's count plus per-message and per-tool-call overheads fitted on the other threads. */
  claude2Tokenizer: string;
}

interface Measured {
  growth: PromptGrowth;
  profile: KindProfile;
  estimator: number;
  charsOver4: number;
  heldOutThread: number;
  heldOutSession: number;
  claude2Tokenizer: number;
}

export async function runEstimatorAccuracy(size: BenchSize = 'full'): Promise<EstimatorRow[]> {
  const files = claudeCodeSessionFiles();
  // smallest: the two short sessions (23 deltas, 6 threads), every row still computed
  const chosen = size === 'smallest' ? files.filter((file) => !file.includes('fe5e1c67')) : files;
  const growths = (await Promise.all(chosen.map(readPromptGrowth))).flat();
  const measured = measure(growths);
  const of = (label: string, keep: (item: Measured) => boolean): EstimatorRow => row(label, measured.filter(keep));
  const sizeOf = (item: Measured) => item.growth.realTokens;
  return [
    ...[...new Set(growths.map((growth) => growth.session))].map((session) =>
      of(`session ${session}`, (item) => item.growth.session === session),
    ),
    of('main threads', (item) => item.growth.thread === 'main'),
    of('subagent threads', (item) => item.growth.thread !== 'main'),
    ...CONTENT_KINDS.map((kind) => of(`mostly ${kind}`, (item) => dominantKind(item.profile) === kind)),
    of('under 500 tokens', (item) => sizeOf(item) < 500),
    of('500 to 2,000 tokens', (item) => sizeOf(item) >= 500 && sizeOf(item) < 2000),
    of('2,000 tokens or more', (item) => sizeOf(item) >= 2000),
    of('all', () => true),
    wholeThreads(measured),
  ];
}

function measure(growths: PromptGrowth[]): Measured[] {
  const profiles = growths.map((growth) => kindProfile(growth.added));
  const perKind = profiles.map((profile) => [
    ...CONTENT_KINDS.map((kind) => profile.textTokens[kind]),
    profile.messages,
    profile.toolCalls,
  ]);
  const claude2 = countWithClaude2Tokenizer(profiles.map((profile) => profile.text)).map((count, index) => [
    count,
    profiles[index]!.messages,
    profiles[index]!.toolCalls,
  ]);
  const sameThread = (left: PromptGrowth, right: PromptGrowth) =>
    left.session === right.session && left.thread === right.thread;
  const sameSession = (left: PromptGrowth, right: PromptGrowth) => left.session === right.session;
  const byThread = heldOutEstimates(growths, perKind, sameThread);
  const bySession = heldOutEstimates(growths, perKind, sameSession);
  const claude2ByThread = heldOutEstimates(growths, claude2, sameThread);
  return growths.map((growth, index) => ({
    growth,
    profile: profiles[index]!,
    estimator: estimateTokens(growth.added),
    charsOver4: growth.added.reduce((sum, message) => sum + messageChars(message), 0) / 4,
    heldOutThread: byThread[index]!,
    heldOutSession: bySession[index]!,
    claude2Tokenizer: claude2ByThread[index]!,
  }));
}

/** Each delta estimated by a fit on the deltas of every other group (NaN when no other group exists). */
function heldOutEstimates(
  growths: PromptGrowth[],
  features: number[][],
  sameGroup: (left: PromptGrowth, right: PromptGrowth) => boolean,
): number[] {
  const estimates = new Array<number>(growths.length).fill(Number.NaN);
  const done = new Set<number>();
  growths.forEach((first, firstIndex) => {
    if (done.has(firstIndex)) return;
    const inGroup = growths.map((growth) => sameGroup(first, growth));
    inGroup.forEach((member, index) => member && done.add(index));
    const training = growths.flatMap((growth, index) =>
      inGroup[index] ? [] : [{ features: features[index]!, realTokens: growth.realTokens }],
    );
    if (training.length === 0) return;
    const coefficients = fitLeastRelativeError(training);
    inGroup.forEach((member, index) => {
      if (member) estimates[index] = applyFit(coefficients, features[index]!);
    });
  });
  return estimates;
}

function row(label: string, items: Measured[]): EstimatorRow {
  const error = (pick: (item: Measured) => number) =>
    percent(median(items.map((item) => Math.abs(pick(item) - item.growth.realTokens) / item.growth.realTokens)));
  return {
    deltas: label,
    count: items.length,
    estimator: error((item) => item.estimator),
    charsOver4: error((item) => item.charsOver4),
    heldOutThread: error((item) => item.heldOutThread),
    heldOutSession: error((item) => item.heldOutSession),
    claude2Tokenizer: error((item) => item.claude2Tokenizer),
  };
}

/** Each thread's growth from its first request to its last: what the threshold decisions add up. */
function wholeThreads(measured: Measured[]): EstimatorRow {
  const threads = new Map<string, Measured[]>();
  for (const item of measured) {
    const key = `${item.growth.session}/${item.growth.thread}`;
    threads.set(key, [...(threads.get(key) ?? []), item]);
  }
  const sum = (items: Measured[], pick: (item: Measured) => number) =>
    items.reduce((total, item) => total + pick(item), 0);
  const error = (pick: (item: Measured) => number) =>
    percent(
      median(
        [...threads.values()].map((items) => {
          const real = sum(items, (item) => item.growth.realTokens);
          return Math.abs(sum(items, pick) - real) / real;
        }),
      ),
    );
  return {
    deltas: 'whole thread (sum of its deltas)',
    count: threads.size,
    estimator: error((item) => item.estimator),
    charsOver4: error((item) => item.charsOver4),
    heldOutThread: error((item) => item.heldOutThread),
    heldOutSession: error((item) => item.heldOutSession),
    claude2Tokenizer: error((item) => item.claude2Tokenizer),
  };
}

function median(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return Number.NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percent(value: number): string {
  return Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runEstimatorAccuracy());
}
