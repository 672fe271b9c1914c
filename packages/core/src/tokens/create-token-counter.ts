import { estimateTextTokens, estimateTokens } from './estimate-tokens.js';
import type { Message, Part } from '../model/message.js';
import { messageContentHash } from '../model/message-content-hash.js';
import type { TokenCounter } from './token-counter.js';

export interface TokenCounterOptions {
  /** Tokens of one message; `estimateTokens` when absent. */
  estimate?: (message: Message) => number;
  /** Shown in reports; `'estimate'` by default. */
  name?: string;
}

export interface TokenCounterStats {
  /** Counts answered from the cache. */
  hits: number;
  /** Counts that ran the estimator. */
  misses: number;
}

export type CachingTokenCounter = TokenCounter & { readonly stats: TokenCounterStats };

/**
 * One count, filed under the message object (checked against its id, parts array and shape) and under
 * its id (the latest version counted under it; its content hash computed only when a copy needs comparing).
 */
interface CountEntry {
  message: Message;
  id: string;
  parts: readonly Part[];
  shape: number;
  hash: number | undefined;
  tokens: number;
}

/** False for the very object counted before: its shape changed, so it was edited in place. */
function sameContent(entry: CountEntry, message: Message): boolean {
  if (entry.message === message) return false;
  entry.hash ??= messageContentHash(entry.message);
  return entry.hash === messageContentHash(message);
}

/**
 * A token counter that caches per message, in two levels:
 * 1. by id: the latest version counted under it, reused for the very object when a cheap
 *    shape of it (its parts array, each part's type and size) is unchanged, so counting an
 *    unchanged history costs one lookup per message and no hashing; a copy of it (another
 *    object, equal content hash) is not re-counted, a changed message (new content under
 *    the same id) is. Hashes are computed only when a new object arrives under a known id,
 *    so a first count does not hash.
 * 2. by object identity (a WeakMap) for the versions an id no longer points at (a message and
 *    its shortened copy counted in turn) and for copies: a first count writes no WeakMap entry.
 * The id level keeps a reference to each message, not a copy.
 * Treat messages as immutable: an in-place edit that keeps the same parts array and every
 * part's size is not seen; replace the message (or part) instead, as the store does.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): CachingTokenCounter {
  const estimate = options.estimate ?? ((message: Message) => estimateTokens(message));
  const byObject = new WeakMap<Message, CountEntry>();
  const byId = new Map<string, CountEntry>();
  const stats: TokenCounterStats = { hits: 0, misses: 0 };

  function count(message: Message): number {
    const shape = messageShape(message);
    const sameId = byId.get(message.id);
    if (sameId?.message === message) {
      if (unchanged(sameId, message, shape)) {
        stats.hits++;
        return sameId.tokens;
      }
    } else {
      const known = byObject.get(message);
      if (known !== undefined && known.id === message.id && unchanged(known, message, shape)) {
        stats.hits++;
        return known.tokens;
      }
      if (sameId !== undefined && sameContent(sameId, message)) {
        stats.hits++;
        byObject.set(message, { ...sameId, message, parts: message.parts, shape });
        return sameId.tokens;
      }
    }
    stats.misses++;
    const entry: CountEntry = {
      message,
      id: message.id,
      parts: message.parts,
      shape,
      hash: undefined,
      tokens: estimate(message),
    };
    // The version this one replaces under the id stays counted by its object.
    if (sameId !== undefined && sameId.message !== message) byObject.set(sameId.message, sameId);
    byId.set(message.id, entry);
    return entry.tokens;
  }

  return {
    name: options.name ?? 'estimate',
    stats,
    count,
    countAll(messages) {
      let total = 0;
      for (const message of messages) total += count(message);
      return total;
    },
    countText: estimateTextTokens,
  };
}

/** The entry still counts `message`: the same parts array, each part of the same type and size. */
function unchanged(entry: CountEntry, message: Message, shape: number): boolean {
  return entry.parts === message.parts && entry.shape === shape;
}

/** Mixes each part's type and size into one number; O(parts), no string scanning. */
function messageShape(message: Message): number {
  let shape = message.parts.length;
  for (const part of message.parts) shape = (Math.imul(shape, 31) + partSize(part)) | 0;
  return shape;
}

function partSize(part: Part): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'reasoning':
      return part.text.length * 3 + (part.data?.length ?? 0);
    case 'tool-call':
      return part.name.length * 7 + part.callId.length;
    case 'tool-result':
      return typeof part.output === 'string' ? part.output.length * 5 + 1 : part.output.length * 11 + 2;
    case 'image':
    case 'file':
      return part.source.kind.length * 13;
  }
}
