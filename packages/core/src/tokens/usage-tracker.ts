import type { Message } from '../model/message.js';
import { messageContentHash } from '../model/message-content-hash.js';
import type { PromptSize, TokenCounter } from './token-counter.js';
import { promptTokens, type Usage } from '../model/usage.js';

/**
 * Answers "how large is the prompt now", preferring what the API reported and
 * estimating only what came after: Hermes's and oh-my-opencode's rule "prefer API-reported tokens,
 * fall back to the estimate".
 */
export interface UsageTracker {
  /**
   * Records the usage of a request and the projection (message list) it was sent with.
   * The tracker keeps a reference to the list: change it only by appending (or pass a new list).
   */
  report(usage: Usage, messages: readonly Message[]): void;
  /**
   * The prompt size of `messages`: the last reported size plus the estimate of the
   * messages appended since (`reported+estimated`, or `reported` when none were).
   * When `messages` no longer extends the reported projection (compaction, revert,
   * an edited message), or nothing was reported yet, the list is estimated: from the
   * last estimate plus the messages appended since when it extends the list estimated
   * last (a running count), else whole.
   */
  promptSize(messages: readonly Message[]): PromptSize;
  /** Forgets the last report. */
  reset(): void;
}

interface Report {
  tokens: number;
  /** The reported list itself (not a copy) and its length then: appends extend it, any other change replaces it. */
  messages: readonly Message[];
  length: number;
}

/**
 * Checking that `messages` extends the reported projection compares object identity
 * per reported message (a pointer compare, no hashing or counting); only a message
 * that is a different object under the same id is hashed. The estimate covers only
 * the k messages added since, through the counter's cache.
 */
export function createUsageTracker(counter: TokenCounter): UsageTracker {
  let last: Report | undefined;
  let estimated: Report | undefined;

  /** The estimate of `messages`, counting only what was appended since the last estimate when it extends that list. */
  const estimate = (messages: readonly Message[]): number => {
    const base = estimated !== undefined && extendsProjection(messages, estimated) ? estimated : undefined;
    const tokens =
      base === undefined ? counter.countAll(messages) : base.tokens + counter.countAll(messages.slice(base.length));
    estimated = { tokens, messages, length: messages.length };
    return tokens;
  };

  return {
    report(usage, messages) {
      last = { tokens: promptTokens(usage), messages, length: messages.length };
    },
    promptSize(messages) {
      if (last === undefined || !extendsProjection(messages, last)) {
        const estimatedTokens = estimate(messages);
        return { tokens: estimatedTokens, source: 'estimated', estimatedTokens };
      }
      const estimatedTokens = counter.countAll(messages.slice(last.length));
      return {
        tokens: last.tokens + estimatedTokens,
        source: messages.length === last.length ? 'reported' : 'reported+estimated',
        reportedTokens: last.tokens,
        estimatedTokens,
      };
    },
    reset() {
      last = undefined;
      estimated = undefined;
    },
  };
}

/**
 * O(1) when `messages` is the very list that was reported, grown only by
 * appends (the host session's projection: any other change makes a new list).
 * Otherwise each reported message is compared, by identity first.
 */
function extendsProjection(messages: readonly Message[], reported: Report): boolean {
  if (messages.length < reported.length) return false;
  if (messages === reported.messages) return true;
  for (let index = reported.length - 1; index >= 0; index--) {
    const before = reported.messages[index]!;
    const now = messages[index]!;
    if (now === before) continue;
    if (now.id !== before.id || messageContentHash(now) !== messageContentHash(before)) return false;
  }
  return true;
}
