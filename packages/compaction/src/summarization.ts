import {
  coveredCount,
  coveredSpanOf,
  type Covers,
  type Message,
  type RedactionConfig,
  type SecretRedactor,
  type Summarizer,
  type SummarySource,
} from '@ctxhost/core';
import type { CompactionGroup, CompactionIndex } from './compaction-index.js';
import type { CompactionContext, CompactionStrategy, PreserveOptions } from './compaction-strategy.js';
import { assertCount, COMPACTION_ERROR_CODES, CompactionError, throwIfAborted } from './errors.js';
import { createProtection } from './protection.js';
import { summarizeSpan, toRedactor, type SummarizeFunction } from './summarize-span.js';
import { negate, type CompactionTrigger } from './triggers.js';

export const SUMMARIZATION = 'summarization';

export const DEFAULT_SUMMARIZATION_PROMPT =
  'Summarize the conversation below so the summary can replace it in the context of an ongoing task. ' +
  "Keep the key facts, the decisions made and why, the user's preferences and constraints, and the results of tool calls " +
  '(which tool, what it returned, errors). Keep file paths, identifiers, numbers and quoted values exactly. ' +
  'Mark finished work as done and drop what is obsolete. Write short plain sentences or bullet points; no preamble.';

/** Microsoft Agent Framework: floor 4 (.NET); a summary of at most 1024 tokens, 256 of them reserved while choosing the span. */
export const SUMMARIZATION_DEFAULTS = {
  minimumPreserved: 4,
  maxOutputTokens: 1024,
  summaryTokenReserve: 256,
  threshold: 0,
  onError: 'skip',
} as const;

export interface SummarizationOptions extends PreserveOptions {
  /** A `Summarizer` (core contract, e.g. `createAnthropicSummarizer`) or a plain `(request) => Promise<string>`. */
  summarizer: Summarizer | SummarizeFunction;
  /** Instructions for the summarizer. Default: keep facts, decisions, preferences and tool results. */
  prompt?: string;
  /** Python form: keep the newest `targetCount` non-system messages… */
  targetCount?: number;
  /** …and fire when there are more than `targetCount + threshold`. Default threshold 0. */
  threshold?: number;
  maxOutputTokens?: number;
  /** Tokens counted for the summary while choosing the span, so the target holds once it is written. Default 256. */
  summaryTokenReserve?: number;
  /** On a summarizer failure: restore the span and note it (`skip`, default) or throw CTXHOST_COMPACTION_SUMMARIZER_FAILED. */
  onError?: 'skip' | 'throw';
  /**
   * Secret redaction of the span sent and the summary returned: the config's `redaction` section or a redactor.
   * Default: what `applyCompaction` was given (the compaction plugin passes the host config's), else every built-in pattern.
   */
  redaction?: RedactionConfig | SecretRedactor;
}

/**
 * Sends the older span to a summarizer and puts the result in its place as one
 * `summary` group (a user message). The span's exclusions and the summary are one
 * step: when the summarizer fails, the span is restored and no summary is added.
 */
export function summarization(options: SummarizationOptions): CompactionStrategy {
  const { trigger, target } = resolveSummarizationTriggers(options);
  for (const key of ['minimumPreserved', 'maxOutputTokens', 'summaryTokenReserve'] as const)
    assertCount(options[key], key, SUMMARIZATION);
  return {
    name: SUMMARIZATION,
    trigger,
    async compact(index, context) {
      throwIfAborted(context.signal, SUMMARIZATION);
      if (!trigger(index)) return false;
      const isProtected = createProtection(index, options, SUMMARIZATION_DEFAULTS.minimumPreserved, SUMMARIZATION);
      const candidates = index.ordered().filter((group) => !group.excluded && !isProtected(group));
      if (candidates.length === 0) return false;
      const reserve = options.summaryTokenReserve ?? SUMMARIZATION_DEFAULTS.summaryTokenReserve;
      const placeholder = index.insertSummary(summaryMessage('(summary pending)', [], 'model'), {
        before: candidates[0]!,
        source: 'model',
        tokens: reserve,
      });
      const span: CompactionGroup[] = [];
      for (const group of candidates) {
        if (target(index)) break;
        index.exclude(group);
        span.push(group);
      }
      // No progress: a span that is only this strategy's own summaries would pay a model call to summarize a summary.
      const ownSummariesOnly =
        span.length > 0 &&
        span.every((group) => group.messages.every((message) => message.meta?.summary?.engine === SUMMARIZATION));
      if (span.length === 0 || ownSummariesOnly) {
        for (const group of span) index.include(group);
        index.removeInserted(placeholder);
        if (ownSummariesOnly)
          context.notes.push(`${SUMMARIZATION}: only its own summary is left to summarize; no progress, no model call`);
        return false;
      }
      if (context.dryRun) {
        context.notes.push(`${SUMMARIZATION}: dry run, summary counted as ${reserve} tokens (summaryTokenReserve)`);
      } else if (!(await writeSummary(index, context, options, placeholder, span))) return false;
      context.steps.push(SUMMARIZATION);
      return true;
    },
  };
}

/** Calls the summarizer and fills the placeholder; on failure rolls the whole step back. */
async function writeSummary(
  index: CompactionIndex,
  context: CompactionContext,
  options: SummarizationOptions,
  placeholder: CompactionGroup,
  span: CompactionGroup[],
): Promise<boolean> {
  try {
    const request = {
      instructions: options.prompt ?? DEFAULT_SUMMARIZATION_PROMPT,
      maxOutputTokens: options.maxOutputTokens ?? SUMMARIZATION_DEFAULTS.maxOutputTokens,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    };
    const summary = await summarizeSpan(
      options.summarizer,
      span,
      request,
      toRedactor(options.redaction) ?? context.redactor,
    );
    if (summary.text.trim() === '') throw new Error('the summarizer returned an empty summary');
    const covers = coveredSpanOf(span.flatMap((group) => group.messages)) ?? [];
    index.replaceInserted(placeholder, summaryMessage(summary.text, covers, summary.source));
    return true;
  } catch (error) {
    for (const group of span) index.include(group);
    index.removeInserted(placeholder);
    throwIfAborted(context.signal, SUMMARIZATION);
    const failure = new CompactionError(
      COMPACTION_ERROR_CODES.summarizerFailed,
      `${SUMMARIZATION}: the summarizer failed on a span of ${span.length} groups (${error instanceof Error ? error.message : String(error)}); the span was kept unsummarized. Check the summarizer, or place a truncation strategy after this one`,
      { strategy: SUMMARIZATION, cause: error },
    );
    if (options.onError === 'throw') throw failure;
    context.notes.push(`${failure.code}: ${failure.message}`);
    return false;
  }
}

function summaryMessage(text: string, covers: Covers, source: SummarySource): Message {
  const first = Array.isArray(covers) ? covers[0] : covers.first;
  const id = `summary:${first ?? 'pending'}:${coveredCount(covers)}`;
  return {
    id,
    role: 'user',
    parts: [{ id: `${id}:text`, type: 'text', text: `[Summary of earlier conversation]\n${text.trim()}` }],
    meta: { summary: { covers, engine: SUMMARIZATION, source } },
  };
}

function resolveSummarizationTriggers(options: SummarizationOptions): {
  trigger: CompactionTrigger;
  target: CompactionTrigger;
} {
  assertCount(options.targetCount, 'targetCount', SUMMARIZATION);
  assertCount(options.threshold, 'threshold', SUMMARIZATION);
  if (options.targetCount !== undefined) {
    const targetCount = options.targetCount;
    const limit = targetCount + (options.threshold ?? SUMMARIZATION_DEFAULTS.threshold);
    return {
      trigger: options.trigger ?? ((index) => index.included.nonSystemMessages > limit),
      // The summary itself is one of the included messages while the span is chosen.
      target: options.target ?? ((index) => index.included.nonSystemMessages <= targetCount + 1),
    };
  }
  if (options.trigger === undefined) {
    throw new CompactionError(
      COMPACTION_ERROR_CODES.optionsInvalid,
      `${SUMMARIZATION}: needs a trigger (e.g. triggers.tokensExceed(1280)) or targetCount; summarizing on every call costs a model call each time`,
      { strategy: SUMMARIZATION },
    );
  }
  return { trigger: options.trigger, target: options.target ?? negate(options.trigger) };
}
