import type { Message } from './message.js';
import { messageContentHash } from './message-content-hash.js';
import type { PromptSize, TokenCounter } from './token-counter.js';
import { promptTokens, type Usage } from './usage.js';

/**
 * Answers "how large is the prompt now", preferring what the API reported and
 * estimating only what came after: the seeds' rule "prefer API-reported tokens,
 * fall back to the estimate".
 */
export interface UsageTracker {
  /** Records the usage of a request and the projection (message list) it was sent with. */
  report(usage: Usage, messages: readonly Message[]): void;
  /**
   * The prompt size of `messages`: the last reported size plus the estimate of the
   * messages appended since (`reported+estimated`, or `reported` when none were).
   * When `messages` no longer extends the reported projection (compaction, revert,
   * an edited message), or nothing was reported yet, the whole list is estimated.
   */
  promptSize(messages: readonly Message[]): PromptSize;
  /** Forgets the last report. */
  reset(): void;
}

interface Report {
  tokens: number;
  messages: readonly Message[];
}

/**
 * Checking that `messages` extends the reported projection compares object identity
 * per reported message (a pointer compare, no hashing or counting); only a message
 * that is a different object under the same id is hashed. The estimate covers only
 * the k messages added since, through the counter's cache.
 */
export function createUsageTracker(counter: TokenCounter): UsageTracker {
  let last: Report | undefined;

  return {
    report(usage, messages) {
      last = { tokens: promptTokens(usage), messages: [...messages] };
    },
    promptSize(messages) {
      if (last === undefined || !extendsProjection(messages, last.messages)) {
        const estimatedTokens = counter.countAll(messages);
        return { tokens: estimatedTokens, source: 'estimated', estimatedTokens };
      }
      const estimatedTokens = counter.countAll(messages.slice(last.messages.length));
      return {
        tokens: last.tokens + estimatedTokens,
        source: messages.length === last.messages.length ? 'reported' : 'reported+estimated',
        reportedTokens: last.tokens,
        estimatedTokens,
      };
    },
    reset() {
      last = undefined;
    },
  };
}

function extendsProjection(messages: readonly Message[], reported: readonly Message[]): boolean {
  if (messages.length < reported.length) return false;
  for (let index = reported.length - 1; index >= 0; index--) {
    const before = reported[index]!;
    const now = messages[index]!;
    if (now === before) continue;
    if (now.id !== before.id || messageContentHash(now) !== messageContentHash(before)) return false;
  }
  return true;
}
