import type { CompressContext, CompressResult, ContextEngine, ContextEngineFactory, CtxhostConfig, Message, Summarizer } from '@ctxhost/core';
import { assembleProjection } from './assemble-projection.js';
import { COMPRESSOR } from './constants.js';
import { findBoundaries } from './find-boundaries.js';
import { createIneffectiveCompactionBackoff } from './ineffective-compaction-backoff.js';
import { pruneToolOutputs } from './prune-tool-outputs.js';
import { summarizeMiddle } from './summarize-middle.js';
import { summaryBudget } from './summary-budget.js';

export interface CompressorOptions {
  compression?: Partial<CtxhostConfig['compression']>;
  summarizer?: Summarizer;
}

const DEFAULTS = { enabled: true, threshold: 0.5, targetRatio: 0.2, protectLastN: 20 };

/**
 * The default context engine: Hermes Agent's 4-phase compressor. Prune old
 * tool outputs, find head and tail, summarize the middle into a structured
 * summary (iteratively, never silently losing it), and assemble.
 */
export function createCompressor(options: CompressorOptions = {}): ContextEngine & { readonly settings: typeof DEFAULTS } {
  const settings = { ...DEFAULTS, ...options.compression };
  const backoff = createIneffectiveCompactionBackoff();
  return {
    name: COMPRESSOR.name,
    settings,
    shouldCompress(state) {
      if (!settings.enabled || state.contextWindow === undefined) return false;
      if (state.promptTokens < settings.threshold * state.contextWindow) return false;
      if (!backoff.allows(state.sessionId, state.promptTokens, state.contextWindow)) return false;
      backoff.started(state.sessionId, state.promptTokens);
      return true;
    },
    async compress(messages, context) {
      const result = await compress(messages, context, settings, context.summarizer ?? options.summarizer);
      if (context.reason !== 'threshold') {
        backoff.forget(context.sessionId);
        return result;
      }
      const resumeAt = backoff.finished(context.sessionId, result.report.tokensBefore, result.report.tokensAfter, context.contextWindow);
      if (resumeAt === undefined) return result;
      // Reported, not hidden: the effective threshold for this session has moved.
      const note = `saved under ${COMPRESSOR.ineffectiveSavings * 100}%: the next threshold compaction of this session waits until the prompt reaches about ${resumeAt.toLocaleString('en-US')} tokens`;
      return { ...result, report: { ...result.report, notes: [...(result.report.notes ?? []), note] } };
    },
  };
}

/** The factory the host resolves `context.engine: compressor` to. */
export const compressorEngineFactory: ContextEngineFactory = ({ config, summarizer }) =>
  createCompressor({ compression: config.compression, ...(summarizer === undefined ? {} : { summarizer }) });

async function compress(messages: readonly Message[], context: CompressContext, settings: typeof DEFAULTS, summarizer: Summarizer | undefined): Promise<CompressResult> {
  const tokensBefore = context.counter.countAll(messages);
  const thresholdTokens = settings.threshold * context.contextWindow;
  const tailBudgetTokens = context.targetTokens === undefined ? thresholdTokens * settings.targetRatio : Math.min(thresholdTokens * settings.targetRatio, context.targetTokens / 2);
  // A recovery with a size to reach may keep fewer messages at the end than protect_last_n: the session is already over the window.
  const protectLastN = context.targetTokens === undefined ? settings.protectLastN : Math.min(settings.protectLastN, COMPRESSOR.recoveryProtectLastN);
  const firstCut = findBoundaries(messages, { protectFirstN: COMPRESSOR.protectFirstN, protectLastN, tailBudgetTokens, counter: context.counter });
  const pruned = pruneToolOutputs(messages, firstCut.tailStart);
  const bounds = findBoundaries(pruned.messages, { protectFirstN: COMPRESSOR.protectFirstN, protectLastN, tailBudgetTokens, counter: context.counter });
  const tailStart = bounds.tailStart;
  // A previous summary inside the head joins the middle, so it is updated rather than kept beside a new one.
  const summaryInHead = pruned.messages.slice(0, bounds.headEnd).findIndex((message) => message.meta?.summary?.engine === COMPRESSOR.name);
  const headEnd = summaryInHead >= 0 ? summaryInHead : bounds.headEnd;
  const middle = pruned.messages.slice(headEnd, tailStart);
  const report = (projection: Message[], extra: Partial<CompressResult['report']>): CompressResult => ({
    messages: projection,
    report: {
      engine: COMPRESSOR.name,
      reason: context.reason,
      tokensBefore,
      tokensAfter: context.counter.countAll(projection),
      messagesBefore: messages.length,
      messagesAfter: projection.length,
      prunedToolOutputs: pruned.pruned,
      ...extra,
    },
  });
  if (middle.length === 0) return report(pruned.messages, { notes: ['nothing between the protected head and tail to summarize'] });

  const previous = [...middle].reverse().find((message) => message.meta?.summary?.engine === COMPRESSOR.name);
  const middleTokens = context.counter.countAll(middle);
  const budget = summaryBudget(middleTokens, context.contextWindow);
  const summary = await summarizeMiddle(middle, {
    summarizer,
    counter: context.counter,
    budgetTokens: budget,
    previousSummary: previous === undefined ? undefined : summaryBody(previous),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  const covers = middle.flatMap((message) => message.meta?.summary?.covers ?? [message.id]);
  const projection = assembleProjection({
    head: pruned.messages.slice(0, headEnd),
    tail: pruned.messages.slice(tailStart),
    summaryText: summary.text,
    source: summary.source,
    covers,
    iteration: (previous?.meta?.summary?.iteration ?? 0) + 1,
  });
  return report(projection, {
    summary: { tokens: context.counter.countText(summary.text), source: summary.source, messagesCovered: covers.length },
    notes: summary.notes,
    steps: ['prune', 'boundaries', `summarize (${summary.source})`, 'assemble'],
  });
}

function summaryBody(message: Message): string {
  const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return text.startsWith(COMPRESSOR.summaryPrefix) ? text.slice(COMPRESSOR.summaryPrefix.length).trim() : text;
}
