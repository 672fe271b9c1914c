import {
  coveredSpanOf,
  createMessage,
  type CompressContext,
  type CompressResult,
  type ContextEngine,
  type Message,
} from '@ctxhost/core';
import { extractiveSummary } from '@ctxhost/compressor';

export const OPENCODE_SUMMARY_ENGINE = 'opencode-summarize';

/**
 * The engine the recovery cascade asks inside opencode. opencode builds its
 * own requests, so a compaction there is opencode's summarize: everything up
 * to the last user prompt becomes opencode's summary, and the prompt is sent
 * again after it. `compress` returns that shape, with an extractive summary
 * standing in for opencode's (no model call here), so the cascade can plan
 * with it; the store then carries the compaction out as opencode's summarize.
 */
export function createOpencodeSummaryEngine(): ContextEngine {
  return {
    name: OPENCODE_SUMMARY_ENGINE,
    shouldCompress: () => false,
    compress: async (messages, context) => summarizeBeforeLastPrompt(messages, context),
  };
}

function summarizeBeforeLastPrompt(messages: readonly Message[], context: CompressContext): CompressResult {
  const prompt = lastPromptIndex(messages);
  const history = messages.slice(0, Math.max(prompt, 0));
  const tokensBefore = context.counter.countAll(messages);
  const report = {
    engine: OPENCODE_SUMMARY_ENGINE,
    reason: context.reason,
    tokensBefore,
    messagesBefore: messages.length,
  };
  const unchanged = (note: string): CompressResult => ({
    messages: [...messages],
    report: { ...report, tokensAfter: tokensBefore, messagesAfter: messages.length, notes: [note] },
  });
  if (history.length < 2) return unchanged('nothing before the last prompt to summarize');
  // What follows the summary is sent as it is: when it alone is over the target, a summary call would be wasted.
  const kept = context.counter.countAll(messages.slice(prompt));
  const room = context.targetTokens ?? context.contextWindow;
  if (kept >= room)
    return unchanged(
      `the last prompt and what follows it are about ${kept} tokens, over the ${room} a summary could make room for`,
    );
  const summary = createMessage('assistant', [{ type: 'text', text: extractiveSummary(history) }], {
    meta: {
      summary: { covers: coveredSpanOf(history) ?? [], engine: OPENCODE_SUMMARY_ENGINE, source: 'extractive' },
    },
  });
  const projection = [summary, ...messages.slice(prompt)];
  return {
    messages: projection,
    report: {
      ...report,
      tokensAfter: context.counter.countAll(projection),
      messagesAfter: projection.length,
      notes: ['carried out as opencode’s summarize; the summary above is ctxhost’s estimate of it'],
    },
  };
}

/** The last user message with text (not tool results): the prompt opencode's summary is followed by. */
function lastPromptIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user' && message.parts.some((part) => part.type === 'text')) return index;
  }
  return messages.length;
}
