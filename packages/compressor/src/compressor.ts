import {
  coveredCount,
  coveredSpanOf,
  createSecretRedactor,
  secretRedactorFromConfig,
  type CompressContext,
  type CompressResult,
  type ContextEngine,
  type ContextEngineFactory,
  type CtxhostConfig,
  type Message,
  type RedactionConfig,
  type SecretRedactor,
  type Summarizer,
  summaryTextOf,
} from '@ctxhost/core';
import { assembleProjection } from './assemble-projection.js';
import { createBillPolicy, summaryPassDollars, type BillPolicy } from './bill-policy.js';
import { compressorSettings, type CompressorSettings } from './compressor-settings.js';
import { COMPRESSOR } from './constants.js';
import { missingFacts } from './extractive-summary.js';
import { findBoundaries } from './find-boundaries.js';
import { planTail } from './plan-tail.js';
import { createIneffectiveCompactionBackoff } from './ineffective-compaction-backoff.js';
import { pruneToolOutputs } from './prune-tool-outputs.js';
import { summarizeMiddle } from './summarize-middle.js';
import { createSummarizerCooldown, type SummarizerCooldown } from './summarizer-cooldown.js';
import { summaryBudget } from './summary-budget.js';
import {
  collectWorkingState,
  renderWorkingState,
  requestIndexes,
  withCarriedRequests,
  requestText,
  WORKING_STATE_HEADING,
} from './working-state.js';

export interface CompressorOptions {
  /** Checked by the config file's own `compression` schema: what the file rejects is rejected here (CTXHOST_COMPRESSOR_OPTIONS_INVALID). */
  compression?: Partial<CtxhostConfig['compression']>;
  summarizer?: Summarizer;
  /** Secret redaction (the config file's `redaction` section, or a redactor); default: every built-in pattern. */
  redaction?: RedactionConfig | SecretRedactor;
  /** The clock of the summarizer cooldown (tests). */
  now?: () => number;
  /**
   * Weighs dollars (default: `createBillPolicy()`): compacts under the threshold where that costs least per
   * request, and clears old tool outputs alone when that is cheaper than a summary. `false`: the threshold alone.
   */
  billPolicy?: BillPolicy | false;
}

/**
 * The default context engine: Hermes Agent's 4-phase compressor. Prune old
 * tool outputs, find head and tail, summarize the middle into a structured
 * summary (iteratively, never silently losing it), and assemble.
 */
export function createCompressor(
  options: CompressorOptions = {},
): ContextEngine & { readonly settings: CompressorSettings } {
  const settings = compressorSettings(options.compression);
  const policy =
    options.billPolicy === false || !settings.billPolicy ? undefined : (options.billPolicy ?? createBillPolicy());
  const backoff = createIneffectiveCompactionBackoff();
  const redactor =
    options.redaction === undefined
      ? createSecretRedactor()
      : 'redact' in options.redaction
        ? options.redaction
        : secretRedactorFromConfig(options.redaction);
  const cooldown = createSummarizerCooldown({
    compactions: settings.summarizerCooldownCompactions,
    minutes: settings.summarizerCooldownMinutes,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return {
    name: COMPRESSOR.name,
    settings,
    shouldCompress(state) {
      if (!settings.enabled || state.contextWindow === undefined) return false;
      const thresholdTokens = settings.threshold * state.contextWindow;
      const tailTokens = thresholdTokens * settings.targetRatio;
      const early =
        policy?.compactEarly({
          sessionId: state.sessionId,
          promptTokens: state.promptTokens,
          ...(state.model === undefined ? {} : { model: state.model }),
          thresholdTokens,
          tailRatio: settings.targetRatio,
          summaryTokens: summaryBudget(Math.max(0, state.promptTokens - tailTokens), state.contextWindow),
        }) === true;
      if (state.promptTokens < thresholdTokens && !early) return false;
      if (!backoff.allows(state.sessionId, state.promptTokens, state.contextWindow)) return false;
      backoff.started(state.sessionId, state.promptTokens);
      return true;
    },
    async compress(messages, context) {
      const result = await compress(messages, context, {
        settings,
        summarizer: context.summarizer ?? options.summarizer,
        redactor,
        cooldown,
        policy,
      });
      const { tokensBefore, tokensAfter } = result.report;
      if (tokensAfter < tokensBefore)
        policy?.compacted(context.sessionId, { tokensBefore, tokensAfter, tailRatio: settings.targetRatio });
      const sizes = { tokensBefore, tokensAfter, contextWindow: context.contextWindow, threshold: settings.threshold };
      // A recovery or a manual compaction that got the session under the line resets what the backoff learned.
      const resumeAt = backoff.finished(context.sessionId, sizes, context.reason === 'threshold');
      if (resumeAt === undefined) return result;
      // Reported, not hidden: the effective threshold for this session has moved. Said once: a compaction not done has already said why.
      const waits = `the next threshold compaction of this session waits until the prompt reaches about ${resumeAt.toLocaleString('en-US')} tokens`;
      const weak = tokensBefore > 0 && (tokensBefore - tokensAfter) / tokensBefore < COMPRESSOR.ineffectiveSavings;
      const note =
        tokensAfter >= tokensBefore
          ? waits
          : weak
            ? `saved under ${COMPRESSOR.ineffectiveSavings * 100}%: ${waits}`
            : `still at or over the threshold (${tokensAfter.toLocaleString('en-US')} tokens): ${waits}`;
      return { ...result, report: { ...result.report, notes: [...(result.report.notes ?? []), note] } };
    },
  };
}

/** The factory the host resolves `context.engine: compressor` to. */
export const compressorEngineFactory: ContextEngineFactory = ({ config, summarizer }) =>
  createCompressor({
    compression: config.compression,
    redaction: config.redaction,
    billPolicy: createBillPolicy({ models: config.models }),
    ...(summarizer === undefined ? {} : { summarizer }),
  });

interface Run {
  settings: CompressorSettings;
  summarizer: Summarizer | undefined;
  redactor: SecretRedactor;
  cooldown: SummarizerCooldown;
  policy: BillPolicy | undefined;
}

async function compress(messages: readonly Message[], context: CompressContext, run: Run): Promise<CompressResult> {
  const { settings } = run;
  const tokensBefore = context.counter.countAll(messages);
  const thresholdTokens = settings.threshold * context.contextWindow;
  // A threshold compaction the bill policy made early keeps the tail share of the size it compacts at.
  const compactsAt = context.reason === 'threshold' ? Math.min(thresholdTokens, tokensBefore) : thresholdTokens;
  const asked = {
    tailBudgetTokens:
      context.targetTokens === undefined
        ? compactsAt * settings.targetRatio
        : Math.min(compactsAt * settings.targetRatio, context.targetTokens / 2),
    // A caller with a size to reach may keep fewer messages at the end than protect_last_n: the session is over its line.
    protectLastN:
      context.targetTokens === undefined
        ? settings.protectLastN
        : Math.min(settings.protectLastN, COMPRESSOR.recoveryProtectLastN),
  };
  const pinFrom = pinnedRequest(messages, context, thresholdTokens);
  const plan = planTail({
    messages,
    counter: context.counter,
    contextWindow: context.contextWindow,
    tokensBefore,
    ...asked,
    ...(context.targetTokens === undefined ? {} : { targetTokens: context.targetTokens }),
    ...(context.reason === 'threshold' ? {} : { narrowest: 2 }),
    ...(pinFrom === undefined ? {} : { pinFrom }),
  });
  // No churn: a compaction that would save under a tenth even widened is not done (a recovery still does what it can).
  if (plan.weak && context.reason !== 'recovery')
    return unchanged(
      messages,
      context,
      tokensBefore,
      `not compacted: it would save under ${COMPRESSOR.ineffectiveSavings * 100}% (about ${tokensBefore.toLocaleString('en-US')} → ${plan.predictedTokens.toLocaleString('en-US')} tokens) even with the tail cut to ${plan.protectLastN} messages`,
    );
  const { tailBudgetTokens, protectLastN } = plan;
  const boundaryOptions = {
    protectFirstN: COMPRESSOR.protectFirstN,
    protectLastN,
    tailBudgetTokens,
    counter: context.counter,
    ...(pinFrom === undefined ? {} : { pinFrom }),
  };
  // Pruning never reaches the protected tail, even when head and tail overlap (the tail then starts after the head, past the floor).
  const floor = Math.max(0, messages.length - protectLastN);
  const firstCut = findBoundaries(messages, boundaryOptions);
  const pruned = pruneToolOutputs(messages, Math.min(firstCut.tailStart, floor));
  // With old outputs cleared the tail budget reaches further back; what it gains was outside the protected tail.
  const bounds = findBoundaries(pruned.messages, boundaryOptions);
  const tailStart = bounds.tailStart;
  // A previous summary inside the head joins the middle, so it is updated rather than kept beside a new one.
  const summaryInHead = pruned.messages.slice(0, bounds.headEnd).findIndex(isCompressorSummary);
  const headEnd = summaryInHead >= 0 ? summaryInHead : bounds.headEnd;
  const middle = pruned.messages.slice(headEnd, tailStart);
  const early =
    context.reason === 'threshold' && tokensBefore < thresholdTokens
      ? [
          `compacted at ${tokensBefore.toLocaleString('en-US')} tokens, under the threshold (${Math.round(thresholdTokens).toLocaleString('en-US')}): the size at which the bill policy predicts the fewest dollars per request`,
        ]
      : [];
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
  if (middle.length === 0)
    return report(pruned.messages, { notes: [...early, 'nothing between the protected head and tail to summarize'] });
  const cleared = clearingIsCheaper(pruned, middle, {
    messages,
    context,
    run,
    tokensBefore,
    predicted: plan.predictedTokens,
  });
  if (cleared !== undefined) return report(pruned.messages, { notes: [...early, cleared], steps: ['prune'] });

  const previous = [...middle].reverse().find(isCompressorSummary);
  // The previous summary reaches the summarizer once: as the summary to update, not also as a message of the span.
  const span = middle.filter((message) => !isCompressorSummary(message));
  const collected = collectWorkingState(messages, headEnd, tailStart);
  const state = withCarriedRequests(collected, messages, headEnd, tailStart, (message) =>
    isCompressorSummary(message) ? summaryTextOf(message) : undefined,
  );
  const carried = state !== collected;
  const newest = requestIndexes(messages).newest;
  const currentRequest = carried ? state.currentRequest : newest >= 0 ? requestText(messages[newest]!) : undefined;
  const summary = await summarizeMiddle(span, {
    summarizer: run.summarizer,
    counter: context.counter,
    budgetTokens: summaryBudget(context.counter.countAll(middle), context.contextWindow),
    previousSummary: previous === undefined ? undefined : summaryBody(previous),
    redactor: run.redactor,
    cooldown: run.cooldown,
    ...(currentRequest === undefined ? {} : { currentRequest, currentRequestKept: !carried && newest >= tailStart }),
    ...(context.focus === undefined ? {} : { focus: context.focus }),
    ...(context.instructions === undefined ? {} : { instructions: context.instructions }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  // A model summary that dropped a constraint, a failed command or a path does not make the compaction silently lossy.
  if (summary.source !== 'extractive') state.notInSummary = missingFacts(span, summary.text);
  const workingState = run.redactor.redactText(renderWorkingState(state));
  // A bounded reference (first, last, count), the previous summary's span taken whole: nothing here grows with the session.
  const covers = coveredSpanOf(middle) ?? [];
  const projection = assembleProjection({
    head: pruned.messages.slice(0, headEnd),
    tail: pruned.messages.slice(tailStart),
    summaryText: workingState.length === 0 ? summary.text : `${summary.text}\n\n${workingState}`,
    source: summary.source,
    covers,
    iteration: (previous?.meta?.summary?.iteration ?? 0) + 1,
  });
  const widened = plan.widened
    ? [
        `widened to save at least ${COMPRESSOR.ineffectiveSavings * 100}%${context.targetTokens === undefined ? '' : ` and reach ${context.targetTokens.toLocaleString('en-US')} tokens`}: the tail keeps ${protectLastN} messages at least, within ${Math.round(tailBudgetTokens).toLocaleString('en-US')} tokens`,
      ]
    : [];
  const notes = [
    ...early,
    ...widened,
    ...summary.notes,
    ...(state.currentRequest === undefined
      ? []
      : ['the newest request did not fit the tail: quoted verbatim in the summary']),
  ];
  return report(projection, {
    summary: {
      tokens: context.counter.countText(summary.text),
      source: summary.source,
      messagesCovered: coveredCount(covers),
    },
    notes,
    steps: ['prune', 'boundaries', `summarize (${summary.source})`, 'assemble'],
  });
}

/**
 * Clearing old tool outputs alone, when the bill policy predicts it costs less per request than a
 * summary (it has no summarizer call, but leaves a longer prompt) and it saves at least a tenth on its
 * own: the note that says so, else undefined (a summary follows). Only at the threshold: a recovery
 * or a manual compaction needs the size a summary reaches.
 */
function clearingIsCheaper(
  pruned: { messages: Message[]; pruned: number },
  middle: readonly Message[],
  at: { messages: readonly Message[]; context: CompressContext; run: Run; tokensBefore: number; predicted: number },
): string | undefined {
  const { context, run, tokensBefore } = at;
  if (run.policy === undefined || context.reason !== 'threshold' || pruned.pruned === 0) return undefined;
  const prices = run.policy.pricesOf(context.sessionId);
  if (prices === undefined) return undefined;
  const clearedTokens = context.counter.countAll(pruned.messages);
  // Clearing can be done once: it stands in for a summary only when it reaches the size a summary aims for,
  // else the summary follows a few requests later and the clearing only added a rewritten prefix.
  if (clearedTokens > (context.targetTokens ?? at.predicted)) return undefined;
  if ((tokensBefore - clearedTokens) / tokensBefore < COMPRESSOR.ineffectiveSavings) return undefined;
  const middleTokens = context.counter.countAll(middle);
  const summaryTokens = summaryBudget(middleTokens, context.contextWindow);
  const ranked = run.policy.rank(context.sessionId, tokensBefore, [
    { mechanism: 'clear-tool-outputs', passDollars: 0, nextPromptTokens: clearedTokens },
    {
      mechanism: 'summary',
      passDollars: summaryPassDollars(middleTokens, summaryTokens, prices),
      nextPromptTokens: at.predicted,
    },
  ]);
  const [best, next] = ranked ?? [];
  if (best?.mechanism !== 'clear-tool-outputs') return undefined;
  const against = next === undefined ? '' : ` against $${next.dollarsPerRequest.toFixed(4)} for a summary`;
  return `old tool outputs cleared, no summary: the bill policy predicts $${best.dollarsPerRequest.toFixed(4)} per request${against}`;
}

/**
 * The index the tail must start at or before: the newest user request, when
 * it and everything after it fit under the threshold (under the target size in
 * a recovery). Otherwise undefined: the request is quoted in the summary instead.
 */
function pinnedRequest(
  messages: readonly Message[],
  context: CompressContext,
  thresholdTokens: number,
): number | undefined {
  const newest = requestIndexes(messages).newest;
  if (newest < 0) return undefined;
  const limit = context.targetTokens === undefined ? thresholdTokens : context.targetTokens * 0.75;
  return context.counter.countAll(messages.slice(newest)) <= limit ? newest : undefined;
}

function isCompressorSummary(message: Message): boolean {
  return message.meta?.summary?.engine === COMPRESSOR.name;
}

function unchanged(
  messages: readonly Message[],
  context: CompressContext,
  tokens: number,
  note: string,
): CompressResult {
  return {
    messages: [...messages],
    report: {
      engine: COMPRESSOR.name,
      reason: context.reason,
      tokensBefore: tokens,
      tokensAfter: tokens,
      messagesBefore: messages.length,
      messagesAfter: messages.length,
      notes: [note],
    },
  };
}

/** A summary message's own summary: without the prefix and without the working-state block (re-collected on every compaction). */
function summaryBody(message: Message): string {
  const text = summaryTextOf(message);
  const body = (
    text.startsWith(COMPRESSOR.summaryPrefix) ? text.slice(COMPRESSOR.summaryPrefix.length).trim() : text
  ).replace(/^\(Covered messages: [^\n]*\)\s*/, '');
  const stateAt = body.indexOf(WORKING_STATE_HEADING);
  return (stateAt >= 0 ? body.slice(0, stateAt) : body).trim();
}
