import { priceRequests } from '@ctxhost/cli';
import { promptTokens, type Usage } from '@ctxhost/core';
import type { Transcript } from '@ctxhost/transcripts';

/** A thread kind's head: the agent's system prompt and tools, and how much of it the recording found cached. */
export interface RecordedHead {
  headTokens: number;
  warmTokens: number;
}

/**
 * The least any context manager could pay for a recorded session while sending the agent's own
 * system prompt and tools (the head) on every request and producing the same outputs: the recorded
 * output; the head read from the cache on every request, except each thread kind's first request,
 * which writes what the recording did not find warm; and every token a request adds to its thread's
 * prompt (the previous reply, tool results, user text) sent once, uncached (cheaper than a cache
 * write; a manager that kept it would pay more, one that dropped it would lose it). Anything kept
 * beyond that costs more, so the floor is a bound, not a plan.
 */
export function billFloor(
  transcript: Transcript,
  heads: { main?: RecordedHead | undefined; subagents?: RecordedHead | undefined },
  model: string,
): number {
  const previous = new Map<string, number>();
  const headWritten = new Set<string>();
  const usages: Usage[] = (transcript.usage ?? []).map((entry) => {
    const kind = entry.sidechain === true ? 'subagents' : 'main';
    const head = heads[kind] ?? { headTokens: 0, warmTokens: 0 };
    const thread = kind === 'main' ? kind : String(transcript.messages[entry.replyIndex]?.meta?.thread ?? kind);
    const prompt = promptTokens(entry.usage);
    const added = Math.max(0, prompt - (previous.get(thread) ?? head.headTokens));
    previous.set(thread, prompt);
    const cold = headWritten.has(kind) ? 0 : head.headTokens - head.warmTokens;
    headWritten.add(kind);
    return {
      inputTokens: added,
      outputTokens: entry.usage.outputTokens,
      cacheCreationInputTokens: cold,
      cacheReadInputTokens: head.headTokens - cold,
    };
  });
  const cost = priceRequests(usages, model);
  return cost.priced ? cost.dollars.total : 0;
}
