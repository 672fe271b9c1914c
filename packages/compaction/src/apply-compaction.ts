import {
  coveredCount,
  estimateTextTokens,
  estimateTokens,
  reviewCompaction,
  type CompactionReason,
  type CompactionReport,
  type FidelityConfig,
  type Message,
  type RedactionConfig,
  type SecretRedactor,
  type TokenCounter,
} from '@ctxhost/core';
import { toRedactor } from './summarize-span.js';
import { createCompactionIndex, type CompactionGroup, type CompactionIndex } from './compaction-index.js';
import { createContext, type CompactionContext, type CompactionStrategy } from './compaction-strategy.js';

export interface ApplyCompactionOptions {
  /** Cached per-message counts; pass the same counter every turn so only new messages are counted. Default: the core estimator. */
  counter?: TokenCounter;
  signal?: AbortSignal;
  /** Recorded in the report. Default `strategy`. */
  reason?: CompactionReason;
  /**
   * The config's `fidelity` section: what the result missed of the span it replaced is added beside its summary,
   * and the ledger is attached. Default: the result is only scored (`report.fidelity`), not changed.
   */
  fidelity?: FidelityConfig;
  /**
   * Secret redaction for every summarizer the strategy calls: a config `redaction` section or a redactor.
   * Default: every built-in pattern (a strategy's own `redaction` option wins).
   */
  redaction?: RedactionConfig | SecretRedactor;
}

export interface CompactionResult {
  /**
   * What the model should see: the included groups in order, summaries in place of
   * what they replace. Results that sat apart from their call follow the call.
   */
  messages: Message[];
  /** True when the strategy excluded or inserted anything. */
  changed: boolean;
  report: CompactionReport;
  /** Ids of the original messages left out of the projection. */
  excludedMessageIds: string[];
  /** Groups left out (originals and collapsed lines). */
  excludedGroups: number;
  /** Summary messages the strategy added (model summaries and collapsed tool lines). */
  summaries: Message[];
}

/**
 * Runs a strategy over a message list and returns the projection and a report.
 * The messages are never mutated; the index is built in one linear pass with
 * counts from the counter's cache.
 */
export async function applyCompaction(
  messages: readonly Message[],
  strategy: CompactionStrategy,
  options: ApplyCompactionOptions = {},
): Promise<CompactionResult> {
  return run(messages, strategy, options, false);
}

export interface DryRunResult extends CompactionResult {
  /** Tokens the strategy would save (summaries counted at their reserve). */
  tokensSaved: number;
}

/**
 * What a strategy would do, without calling any model: summaries are counted at
 * their `summaryTokenReserve`. The cascade uses it to pick the first step that is enough.
 */
export async function dryRun(
  messages: readonly Message[],
  strategy: CompactionStrategy,
  options: ApplyCompactionOptions = {},
): Promise<DryRunResult> {
  const result = await run(messages, strategy, options, true);
  return { ...result, tokensSaved: result.report.tokensBefore - result.report.tokensAfter };
}

async function run(
  messages: readonly Message[],
  strategy: CompactionStrategy,
  options: ApplyCompactionOptions,
  dryRunOnly: boolean,
): Promise<CompactionResult> {
  const index = createCompactionIndex(messages, options.counter === undefined ? {} : { counter: options.counter });
  const context = createContext({
    counter: options.counter,
    signal: options.signal,
    dryRun: dryRunOnly,
    redactor: toRedactor(options.redaction),
  });
  const changed = await strategy.compact(index, context);
  const result = buildResult(index, context, strategy, options.reason ?? 'strategy', changed);
  return dryRunOnly || !changed ? result : reviewed(messages, result, options);
}

/** The result checked by probes from what it left out; completed (missed facts, ledger) when `options.fidelity` says so. */
function reviewed(
  messages: readonly Message[],
  result: CompactionResult,
  options: ApplyCompactionOptions,
): CompactionResult {
  const countText = (text: string) => options.counter?.countText(text) ?? estimateTextTokens(text);
  const scoreOnly = {
    probes: true,
    repairMaxTokens: 0,
    ledger: { enabled: false, maxTokens: 0 },
    rehydration: { enabled: false, maxTokens: 0, maxFiles: 0 },
  };
  const review = reviewCompaction(messages, result.messages, { fidelity: options.fidelity ?? scoreOnly, countText });
  if (options.fidelity === undefined) return { ...result, report: { ...result.report, fidelity: review.fidelity } };
  const tokensAfter =
    options.counter?.countAll(review.messages) ??
    review.messages.reduce((total, message) => total + estimateTokens(message), 0);
  return {
    ...result,
    messages: review.messages,
    report: {
      ...result.report,
      fidelity: review.fidelity,
      tokensAfter,
      notes: [...(result.report.notes ?? []), ...review.notes],
    },
  };
}

function buildResult(
  index: CompactionIndex,
  context: CompactionContext,
  strategy: CompactionStrategy,
  reason: CompactionReason,
  changed: boolean,
): CompactionResult {
  const excluded = index.excludedGroups();
  const inserted = index.insertedGroups();
  const summaries = inserted.flatMap((group) => group.messages);
  const modelSummaries = inserted.filter((group) => group.summarySource !== 'tool-results');
  const excludedOriginals = excluded.filter((group) => !group.inserted);
  const report: CompactionReport = {
    engine: strategy.name,
    reason,
    tokensBefore: index.original.tokens,
    tokensAfter: index.included.tokens,
    messagesBefore: index.original.messages,
    messagesAfter: index.included.messages,
    prunedToolOutputs: countCollapsedResults(
      inserted,
      excludedOriginals.flatMap((group) => group.messages),
    ),
    steps: context.steps,
    notes: context.notes,
  };
  const first = modelSummaries[0];
  if (first !== undefined) {
    const covered = modelSummaries.reduce((total, group) => total + coveredCountOf(group.messages[0]), 0);
    report.summary = {
      tokens: modelSummaries.reduce((total, group) => total + group.tokens, 0),
      source: first.summarySource ?? 'model',
      messagesCovered: covered,
    };
  }
  return {
    messages: index.projection(),
    changed,
    report,
    excludedMessageIds: excludedOriginals.flatMap((group) => group.messages.map((message) => message.id)),
    excludedGroups: excludedOriginals.length,
    summaries,
  };
}

/** Tool results now shown only as a collapsed line. */
function countCollapsedResults(inserted: readonly CompactionGroup[], excludedMessages: readonly Message[]): number {
  const covered = new Set(
    inserted
      .filter((group) => group.summarySource === 'tool-results')
      .flatMap((group) => {
        const covers = group.messages[0]?.meta?.summary?.covers;
        return Array.isArray(covers) ? covers : [];
      }),
  );
  let results = 0;
  for (const message of excludedMessages)
    if (covered.has(message.id)) for (const part of message.parts) if (part.type === 'tool-result') results++;
  return results;
}

function coveredCountOf(message: Message | undefined): number {
  const covers = message?.meta?.summary?.covers;
  return covers === undefined ? 0 : coveredCount(covers);
}
