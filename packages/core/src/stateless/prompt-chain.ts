import { createHash } from 'node:crypto';
import type { Message } from '../model/message.js';
import { alignmentKey, type MappedPromptItem } from '../host/prompt-mirror.js';

/** One caller message as ctxhost sees it: mapped once, hashed once. The message's id is not yet assigned. */
export interface ChainedMessage<P> {
  message: Message;
  sourceParts: readonly P[];
  /** A hash of what the message says (role and parts, without ids or cache markers). */
  contentHash: string;
}

/** A prompt with the chained hash of each prefix: `hashes[i]` covers messages 0..i. */
export interface PromptChain<S, P> {
  sources: readonly S[];
  items: readonly ChainedMessage<P>[];
  hashes: readonly string[];
}

export type ChainResult<S, P> = { ok: true; chain: PromptChain<S, P> } | { ok: false; unmappedType: string };

export interface PromptChainer<S, P> {
  chain(prompt: readonly S[]): ChainResult<S, P>;
}

interface Memo<P> {
  item: ChainedMessage<P>;
  previous: string;
  hash: string;
}

const START = '0'.repeat(32);

/**
 * Hashes a caller's prompt as a chain, `h(i) = H(h(i-1), hash(message i))`, so two prompts agree
 * on their first `n` messages exactly when their `n`-th hashes are equal. Each source object's
 * mapping, content hash and chained hash are memoised by identity (a WeakMap): a framework that
 * hands the same objects again costs a pointer lookup per message, and only new or changed
 * messages are mapped and hashed.
 */
export function createPromptChainer<S, P>(map: (source: S, id: string) => MappedPromptItem<P>): PromptChainer<S, P> {
  const memo = new WeakMap<object, Memo<P>>();
  return {
    chain(prompt) {
      const items: ChainedMessage<P>[] = new Array<ChainedMessage<P>>(prompt.length);
      const hashes: string[] = new Array<string>(prompt.length);
      let previous = START;
      for (let index = 0; index < prompt.length; index++) {
        const source = prompt[index]!;
        const key = typeof source === 'object' && source !== null ? (source as object) : undefined;
        const known = key === undefined ? undefined : memo.get(key);
        if (known !== undefined && known.previous === previous) {
          items[index] = known.item;
          previous = hashes[index] = known.hash;
          continue;
        }
        let item = known?.item;
        if (item === undefined) {
          const mapped = map(source, 'pending');
          if (!mapped.ok) return { ok: false, unmappedType: mapped.unmappedType };
          item = { message: mapped.message, sourceParts: mapped.sourceParts, contentHash: contentHash(mapped.message) };
        }
        const hash = chainHash(previous, item.contentHash);
        if (key !== undefined) memo.set(key, { item, previous, hash });
        items[index] = item;
        previous = hashes[index] = hash;
      }
      return { ok: true, chain: { sources: prompt, items, hashes } };
    },
  };
}

export function contentHash(message: Message): string {
  return createHash('sha256').update(alignmentKey(message)).digest('hex').slice(0, 32);
}

export function chainHash(previous: string, content: string): string {
  return createHash('sha256').update(previous).update(content).digest('hex').slice(0, 32);
}

/** The id a caller message gets in a stateless view: from its prefix hash, so every worker names it alike. */
export function chainedMessageId(prefixHash: string): string {
  return `p-${prefixHash.slice(0, 24)}`;
}

/** A chained message with its id, and its parts' ids (`<id>:<n>`). */
export function withChainedId(message: Message, prefixHash: string): Message {
  const id = chainedMessageId(prefixHash);
  return { ...message, id, parts: message.parts.map((part, index) => ({ ...part, id: `${id}:${index}` })) };
}
