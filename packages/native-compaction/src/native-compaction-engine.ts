import {
  coveredCount,
  coveredSpanOf,
  messageContentHash,
  ORIGINAL_TOOL_NAME,
  withReadableCopy,
  type Covers,
  type CompressContext,
  type CompressResult,
  type ContextEngine,
  type EngineState,
  type Message,
  type SummarySource,
} from '@ctxhost/core';
import { extractiveSummary, summaryInstructions } from '@ctxhost/compressor';
import { NATIVE_SUMMARY_BUDGET_TOKENS } from './summary-prompt.js';
import type { NativeCompactor } from './native-compactor.js';
import { splitForNative } from './split-for-native.js';

export const NATIVE_ENGINE = 'native-compaction';

export interface NativeCompactionEngineOptions {
  /** The provider's compaction endpoint, or a function choosing one per session (undefined: none for it now). */
  compactor: NativeCompactor | ((sessionId: string) => NativeCompactor | undefined);
  /** The client engine that compacts whenever the provider cannot (usually the compressor). */
  fallback: ContextEngine;
  /** Fraction of the window past which to compact ahead of need (default 0.6). */
  trigger?: number;
  /** The end of the conversation kept verbatim (default 16,000 tokens). */
  keepTailTokens?: number;
  focus?: string;
  /** How the readable copy of an opaque compaction is made (default: the configured summarizer, else extractive). */
  readableCopy?: 'configured' | 'extractive';
  /** Told why the client engine compacted instead. */
  onFallback?: (reason: string, sessionId: string) => void;
}

/**
 * A context engine that has the provider compact the span ctxhost chooses
 * (Anthropic on-demand compaction, OpenAI `responses/compact`), keeping the
 * system prompt and the last `keepTailTokens` verbatim, ahead of need: once
 * the prompt passes `trigger` of the window (so a `session.idle` pass, or the
 * next request, does it before the window is tight). Beside every opaque
 * result it keeps a readable copy (the provider's own summary where it has
 * one, else the configured summarizer's or an extractive one), so another
 * provider can take over and `ctxhost_original` resolves the span. When the
 * provider is unavailable, refuses or fails, the fallback engine compacts
 * that request instead and the report says why.
 */
export function createNativeCompactionEngine(options: NativeCompactionEngineOptions): ContextEngine {
  const trigger = options.trigger ?? 0.6;
  const keepTailTokens = options.keepTailTokens ?? 16_000;
  const compactorFor = (sessionId: string) =>
    typeof options.compactor === 'function' ? options.compactor(sessionId) : options.compactor;
  const fallback = options.fallback;

  async function fallBack(
    reason: string,
    messages: readonly Message[],
    context: CompressContext,
  ): Promise<CompressResult> {
    options.onFallback?.(reason, context.sessionId);
    const result = await fallback.compress(messages, context);
    return {
      ...result,
      report: {
        ...result.report,
        notes: [...(result.report.notes ?? []), `native compaction: ${reason}; ${fallback.name} compacted instead`],
      },
    };
  }

  return {
    name: NATIVE_ENGINE,
    shouldCompress: (state: EngineState) =>
      (state.contextWindow !== undefined && state.promptTokens >= trigger * state.contextWindow) ||
      fallback.shouldCompress(state),
    async compress(messages, context) {
      const compactor = compactorFor(context.sessionId);
      if (compactor === undefined)
        return fallBack('no native compaction for this session’s provider', messages, context);
      const split = splitForNative(messages, keepTailTokens, context.counter);
      if (split === undefined) return fallBack('too little to compact before the kept tail', messages, context);
      const system = split.head
        .flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
        .join('\n\n');
      const focus = context.focus ?? options.focus;
      let result;
      try {
        result = await compactor.compact(split.span, {
          ...(system === '' ? {} : { system }),
          ...(focus === undefined ? {} : { focus }),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
      } catch (error) {
        return fallBack(
          `${compactor.vendor} ${compactor.model} failed (${error instanceof Error ? error.message : String(error)})`,
          messages,
          context,
        );
      }
      const covers = coveredSpanOf(split.span) ?? [];
      const id = summaryId(compactor.vendor, covers);
      const copy = await readableCopy(
        result.part.text,
        split.span,
        context,
        options.readableCopy ?? 'configured',
        focus,
      );
      // ctxhost's own copy names the handles that read the covered messages back; the provider's own summary is sent as it came.
      const readable =
        copy.source === 'provider'
          ? copy.text
          : `(Covered messages: ${ORIGINAL_TOOL_NAME} handle ${id}#1 … ${id}#${coveredCount(covers)}, oldest first.)\n\n${copy.text}`;
      // Anthropic's block belongs in an assistant message (sent first, it stands for what came before); OpenAI's item
      // has no role, and its readable copy, sent to another provider, must open the conversation as a user message.
      const summary: Message = {
        id,
        role: compactor.vendor === 'anthropic' ? 'assistant' : 'user',
        parts: [{ ...withReadableCopy(result.part, readable), id: `${id}:0` }],
        meta: {
          nativeCompaction: { vendor: compactor.vendor, model: result.model, usage: { ...result.usage } },
          summary: { covers, engine: NATIVE_ENGINE, source: copy.source === 'provider' ? 'model' : copy.source },
        },
      };
      const projection = [...split.head, summary, ...split.tail];
      const tokensAfter = context.counter.countAll(projection);
      return {
        messages: projection,
        report: {
          engine: NATIVE_ENGINE,
          reason: context.reason,
          tokensBefore: context.counter.countAll(messages),
          tokensAfter,
          messagesBefore: messages.length,
          messagesAfter: projection.length,
          summary: {
            tokens: context.counter.countText(readable),
            source: copy.source === 'provider' ? 'model' : copy.source,
            messagesCovered: coveredCount(covers),
          },
          notes: [
            `${compactor.vendor} compaction (${result.model}) of ${split.span.length} messages; readable copy: ${copy.source === 'provider' ? 'the provider’s own summary' : copy.source}`,
          ],
        },
      };
    },
    ...(fallback.tools === undefined ? {} : { tools: () => fallback.tools!() }),
    ...(fallback.callTool === undefined
      ? {}
      : { callTool: (name, input, context) => fallback.callTool!(name, input, context) }),
    ...(fallback.updateFromUsage === undefined
      ? {}
      : { updateFromUsage: (usage, sessionId) => fallback.updateFromUsage!(usage, sessionId) }),
  };
}

/** The summary message's id, which handles name: from the provider and the span, so a replay is repeatable. */
function summaryId(vendor: string, covers: Covers): string {
  const span = Array.isArray(covers)
    ? covers.join('\u0000')
    : `${covers.first}\u0000${covers.last}\u0000${covers.count}`;
  const hash = messageContentHash({
    id: '',
    role: 'assistant',
    parts: [{ id: '', type: 'text', text: `${vendor}\u0000${span}` }],
  });
  return `native-${hash.toString(16).padStart(14, '0').slice(-8)}`;
}

/** The provider's own summary when it gave one; else the summarizer's, else an extractive one (never nothing). */
async function readableCopy(
  provided: string,
  span: readonly Message[],
  context: CompressContext,
  mode: 'configured' | 'extractive',
  focus: string | undefined,
): Promise<{ text: string; source: SummarySource | 'provider' }> {
  if (provided !== '') return { text: provided, source: 'provider' };
  if (mode === 'configured' && context.summarizer !== undefined) {
    try {
      const text = await context.summarizer.summarize({
        messages: span,
        instructions: summaryInstructions(
          NATIVE_SUMMARY_BUDGET_TOKENS,
          false,
          undefined,
          focus === undefined ? {} : { focus },
        ),
        maxOutputTokens: NATIVE_SUMMARY_BUDGET_TOKENS,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      if (text.trim() !== '') return { text, source: 'model' };
    } catch {
      // The extractive copy below never fails: a readable copy is kept either way.
    }
  }
  return { text: extractiveSummary(span), source: 'extractive' };
}
