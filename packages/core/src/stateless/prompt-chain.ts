import { hash as oneShotHash } from 'node:crypto';
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

/** Messages that name a conversation's opening (a system prompt alone is shared by many conversations). */
const OPENING_DEPTH = 2;
/** Recent chains kept per opening, to recognise rebuilt prompts by. */
const RECENT_PER_OPENING = 4;
/** Openings remembered (least recently used first out). */
const RECENT_OPENINGS = 256;

/**
 * Hashes a caller's prompt as a chain, `h(i) = H(h(i-1), hash(message i))`, so two prompts agree
 * on their first `n` messages exactly when their `n`-th hashes are equal. Each source object's
 * mapping, content hash and chained hash are memoised by identity (a WeakMap): a framework that
 * hands the same objects again costs a pointer lookup per message. A framework that rebuilds its
 * prompt objects on every call (the AI SDK) is recognised against a recent chain with the same
 * opening: a message structurally equal to that chain's message at the same position (compared
 * field by field, strings the framework passed on unchanged by pointer) takes its mapping and
 * hash without mapping, serialising or hashing it. Only new or changed messages are mapped and hashed.
 */
export function createPromptChainer<S, P>(map: (source: S, id: string) => MappedPromptItem<P>): PromptChainer<S, P> {
  const memo = new WeakMap<object, Memo<P>>();
  const recent = new Map<string, PromptChain<S, P>[]>();

  const remember = (chain: PromptChain<S, P>): void => {
    const opening = openingOf(chain.hashes);
    const kept = (recent.get(opening) ?? []).filter((known) => !isPrefixOf(known, chain));
    recent.delete(opening);
    recent.set(opening, [chain, ...kept].slice(0, RECENT_PER_OPENING));
    if (recent.size > RECENT_OPENINGS) recent.delete(recent.keys().next().value!);
  };

  /** The recent chain with this opening whose message at the prompt's last shared position equals the prompt's. */
  const guideFor = (prompt: readonly S[], opening: string): PromptChain<S, P> | undefined => {
    const candidates = [...(recent.get(opening) ?? [])].sort(
      (left, right) => right.sources.length - left.sources.length,
    );
    return candidates.find((candidate) => {
      const last = Math.min(candidate.sources.length, prompt.length) - 1;
      return sameValue(candidate.sources[last], prompt[last], 0);
    });
  };

  return {
    chain(prompt) {
      const items: ChainedMessage<P>[] = new Array<ChainedMessage<P>>(prompt.length);
      const hashes: string[] = new Array<string>(prompt.length);
      let guide: PromptChain<S, P> | undefined | null = prompt.length > OPENING_DEPTH ? undefined : null;
      let previous = START;
      for (let index = 0; index < prompt.length; index++) {
        const source = prompt[index]!;
        if (index === OPENING_DEPTH && guide === undefined) guide = guideFor(prompt, openingOf(hashes)) ?? null;
        // The very object at the same place as in the guide (a caller that hands its list again): a pointer compare.
        if (
          guide != null &&
          index >= OPENING_DEPTH &&
          index < guide.sources.length &&
          guide.sources[index] === source &&
          guide.hashes[index - 1] === previous
        ) {
          items[index] = guide.items[index]!;
          previous = hashes[index] = guide.hashes[index]!;
          continue;
        }
        const key = typeof source === 'object' && source !== null ? (source as object) : undefined;
        const known = key === undefined ? undefined : memo.get(key);
        if (known !== undefined && known.previous === previous) {
          items[index] = known.item;
          previous = hashes[index] = known.hash;
          continue;
        }
        if (index >= OPENING_DEPTH && guide === undefined) guide = guideFor(prompt, openingOf(hashes)) ?? null;
        if (
          guide != null &&
          index < guide.sources.length &&
          guide.hashes[index - 1] === previous &&
          sameValue(guide.sources[index], source, 0)
        ) {
          const item = guide.items[index]!;
          const hash = guide.hashes[index]!;
          if (key !== undefined) memo.set(key, { item, previous, hash });
          items[index] = item;
          previous = hashes[index] = hash;
          continue;
        }
        if (index >= OPENING_DEPTH) guide = null;
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
      const chain = { sources: prompt, items, hashes };
      if (prompt.length > 0) remember(chain);
      return { ok: true, chain };
    },
  };
}

function openingOf(hashes: readonly string[]): string {
  return hashes[Math.min(hashes.length, OPENING_DEPTH) - 1]!;
}

function isPrefixOf<S, P>(shorter: PromptChain<S, P>, longer: PromptChain<S, P>): boolean {
  const length = shorter.hashes.length;
  return length <= longer.hashes.length && shorter.hashes[length - 1] === longer.hashes[length - 1];
}

/** Deepest structure compared field by field; anything deeper counts as changed (it is then mapped and hashed). */
const MAX_COMPARE_DEPTH = 32;

/**
 * Structural equality of JSON-like values: plain objects and arrays field by field, everything else
 * (strings included, which V8 compares by pointer first) by `===`. An object of another class (a URL, a
 * Uint8Array) is equal only to itself: unequal here means "map and hash it", never a wrong reuse.
 */
function sameValue(left: unknown, right: unknown, depth: number): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (depth > MAX_COMPARE_DEPTH) return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++)
      if (!sameValue(left[index], right[index], depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(left) as unknown;
  if ((prototype !== Object.prototype && prototype !== null) || Object.getPrototypeOf(right) !== prototype)
    return false;
  // for…in (a plain object inherits no enumerable key): no key arrays allocated per object compared.
  let keys = 0;
  for (const key in left) {
    keys++;
    if (
      !Object.hasOwn(right, key) ||
      !sameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key], depth + 1)
    )
      return false;
  }
  for (const _key in right) keys--;
  return keys === 0;
}

export function contentHash(message: Message): string {
  return oneShotHash('sha256', alignmentKey(message), 'hex').slice(0, 32);
}

export function chainHash(previous: string, content: string): string {
  // One-shot: the same digest as update(previous).update(content), without a Hash object per message.
  return oneShotHash('sha256', previous + content, 'hex').slice(0, 32);
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
