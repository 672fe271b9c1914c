import { hash as oneShotHash } from 'node:crypto';
import type { Message } from '../model/message.js';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import { contentKey } from './content-key.js';
import { headedPrompt, type HeadedPrompt } from './headed-prompt.js';

/** One caller message as ctxhost sees it: mapped once, hashed once. */
export interface ChainedMessage<P> {
  /** The message as mapped, with the chained ids of the first prefix it was hashed under (see `PromptChain.messages`). */
  message: Message;
  sourceParts: readonly P[];
}

/** A read-only list that may be a window on a longer one (`at` past `length` is undefined). Arrays are one. */
export interface ChainList<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/**
 * A prompt with the chained hash of each prefix: `hashes.at(i)` covers messages 0..i. Its lists are
 * windows on storage shared with the chains it extends and the ones that extend it, so chaining a prompt
 * that extends a recent one costs what is new, not a copy of what is known.
 */
export interface PromptChain<S, P> {
  /** The prompt's messages; every list below has this length. */
  readonly length: number;
  /** The caller's objects, as handed in (kept in the chain's own storage, not the caller's list). */
  readonly sources: ChainList<S>;
  /**
   * The storage `sources` is a window on: its first `length` entries are the prompt's objects, and no
   * entry it holds ever changes (other chains only append to it; a chain that branches off copies it).
   */
  readonly sourceStorage: readonly S[];
  readonly items: ChainList<ChainedMessage<P>>;
  readonly hashes: ChainList<string>;
  /** Each caller message with its chained ids (`withChainedId`): the same object for the same message and prefix on every call. */
  readonly messages: ChainList<Message>;
}

export type ChainResult<S, P> = { ok: true; chain: PromptChain<S, P> } | { ok: false; unmappedType: string };

export interface PromptChainer<S, P> {
  /**
   * The chain keeps the prompt's objects in storage of its own (appended to, O(new)), never `prompt`
   * itself: the caller may change or reuse its list, and a list of 100k handed in on every call is not
   * kept alive past the call (it would be promoted, and each one then collected by a full GC). A prompt
   * given as a head and a list is chained as the head followed by the list, neither copied.
   */
  chain(prompt: readonly S[] | HeadedPrompt<S>): ChainResult<S, P>;
}

/** A chained message with the prefix it was last chained after and the hash that gave (the memo's answer for that prefix, made again from the message under another). */
interface MemoItem<P> extends ChainedMessage<P> {
  previous: string;
  hash: string;
}

/**
 * Append-only storage that chains of one conversation share: a chain is its first `length` entries, and
 * `sources[i]` is the very object its prompt held at `i` (entries are never changed, only appended, or
 * copied by a fork).
 */
interface Trunk<S, P> {
  sources: S[];
  items: MemoItem<P>[];
  hashes: string[];
  messages: Message[];
}

interface TrunkChain<S, P> extends PromptChain<S, P> {
  readonly trunk: Trunk<S, P>;
}

const START = '0'.repeat(32);

/** Messages that name a conversation's opening (a system prompt alone is shared by many conversations). */
const OPENING_DEPTH = 2;
/** Recent chains kept per opening, to recognise rebuilt prompts by. */
const RECENT_PER_OPENING = 4;
/** Openings remembered (least recently used first out). */
const RECENT_OPENINGS = 256;

/**
 * Hashes a caller's prompt as a chain, `h(i) = H(h(i-1) + key(message i))`, so two prompts agree
 * on their first `n` messages exactly when their `n`-th hashes are equal. A prompt is compared with a
 * recent chain of the same opening (its first two messages) by position: the run of the very same
 * objects (a caller that hands its list again) takes that chain's entries with a pointer compare per
 * message and no copy (the chains share storage); a message structurally equal to the recent chain's at
 * the same position (a framework that rebuilds its prompt objects on every call, the AI SDK; compared
 * field by field, strings the framework passed on unchanged by pointer) takes its mapping and hash
 * without mapping, serialising or hashing it. Elsewhere each source object's mapping and
 * chained hash are memoised by identity (a WeakMap). Only new or changed messages are mapped and hashed.
 * `map` must return a new message each call: the chainer gives it its chained ids in place.
 */
export function createPromptChainer<S, P>(map: (source: S, id: string) => MappedPromptItem<P>): PromptChainer<S, P> {
  const memo = new WeakMap<object, MemoItem<P>>();
  const recent = new Map<string, TrunkChain<S, P>[]>();

  const remember = (chain: TrunkChain<S, P>): void => {
    const opening = openingOf(chain.hashes);
    const kept = (recent.get(opening) ?? []).filter((known) => !isPrefixOf(known, chain));
    recent.delete(opening);
    recent.set(opening, [chain, ...kept].slice(0, RECENT_PER_OPENING));
    if (recent.size > RECENT_OPENINGS) recent.delete(recent.keys().next().value!);
  };

  /** The recent chain with this opening whose message at the prompt's last shared position equals the prompt's. */
  const guideFor = (at: (index: number) => S, length: number, opening: string): TrunkChain<S, P> | undefined => {
    const candidates = [...(recent.get(opening) ?? [])].sort((left, right) => right.length - left.length);
    return candidates.find((candidate) => {
      const last = Math.min(candidate.length, length) - 1;
      return sameValue(candidate.sources.at(last), at(last), 0);
    });
  };

  /** Maps and hashes one message (or takes it from the memo), chained after `previous`. */
  const chainOne = (source: S, previous: string): MemoItem<P> | string => {
    const key = typeof source === 'object' && source !== null ? (source as object) : undefined;
    const known = key === undefined ? undefined : memo.get(key);
    if (known !== undefined) {
      if (known.previous !== previous) {
        known.previous = previous;
        known.hash = chainHash(previous, known.message);
      }
      return known;
    }
    const mapped = map(source, 'pending');
    if (!mapped.ok) return mapped.unmappedType;
    const item: MemoItem<P> = {
      message: mapped.message,
      sourceParts: mapped.sourceParts,
      previous,
      hash: chainHash(previous, mapped.message),
    };
    if (key !== undefined) memo.set(key, item);
    return item;
  };

  return {
    chain(given) {
      const { head, list } = headedPrompt(given);
      const headLength = head.length;
      const length = headLength + list.length;
      // The prompt's message at `index`: the head's, then the list's (the two are never joined into one array).
      const at = (index: number): S => (index < headLength ? head[index]! : list[index - headLength]!);
      const opening: Trunk<S, P> = { sources: [], items: [], hashes: [], messages: [] };
      let previous = START;
      for (let index = 0; index < Math.min(length, OPENING_DEPTH); index++) {
        const chained = chainOne(at(index), previous);
        if (typeof chained === 'string') return { ok: false, unmappedType: chained };
        previous = chained.hash;
        extend(opening, at(index), chained, chained.hash);
      }
      const guide = length > OPENING_DEPTH ? guideFor(at, length, previous) : undefined;
      let trunk = opening;
      let index = opening.items.length;
      if (guide !== undefined) {
        trunk = guide.trunk;
        const identical = sharedLength(trunk.sources, head, list, OPENING_DEPTH, guide.length);
        for (index = identical; index < guide.length && index < length; index++) {
          const source = at(index);
          if (!sameValue(trunk.sources[index], source, 0)) break;
          if (typeof source === 'object' && source !== null) memo.set(source, trunk.items[index]!);
        }
        // The guide's storage, shared, when it holds this prompt's very objects; else a copy that holds them (equal ones were rebuilt).
        const own = (item: ChainedMessage<P>, place: number): boolean =>
          trunk.items[place] !== item || trunk.sources[place] !== at(place);
        if (index > identical || opening.items.some(own)) {
          trunk = fork(trunk, index);
          opening.items.forEach((item, place) => {
            trunk.items[place] = item;
            trunk.messages[place] = opening.messages[place]!;
          });
          for (let place = 0; place < index; place++) trunk.sources[place] = at(place);
        }
        previous = trunk.hashes[index - 1]!;
      }
      for (; index < length; index++) {
        const source = at(index);
        const chained = chainOne(source, previous);
        if (typeof chained === 'string') return { ok: false, unmappedType: chained };
        previous = chained.hash;
        if (trunk.items.length > index) {
          const same = trunk.items[index] === chained && trunk.sources[index] === source;
          if (same && trunk.hashes[index] === chained.hash) continue;
          // Another chain extended the shared storage past here with other messages: this prompt branches off on a copy.
          trunk = fork(trunk, index);
        }
        extend(trunk, source, chained, chained.hash);
      }
      const chain = trunkChain(length, trunk);
      if (length > 0) remember(chain);
      return { ok: true, chain };
    },
  };
}

/** Appends one message to the storage, with its chained ids (set in place the first time the mapped message is placed). */
function extend<S, P>(trunk: Trunk<S, P>, source: S, item: MemoItem<P>, hash: string): void {
  trunk.sources.push(source);
  trunk.items.push(item);
  trunk.hashes.push(hash);
  trunk.messages.push(identified(item.message, hash));
}

/**
 * The message with the ids of its place after this prefix. A message just mapped (its id still the
 * mapper's `pending`) takes them in place; one placed before under another prefix (the same object
 * after an edit earlier in the prompt) is copied.
 */
function identified(message: Message, prefixHash: string): Message {
  const id = chainedMessageId(prefixHash);
  if (message.id === id) return message;
  if (message.id !== 'pending') return withChainedId(message, prefixHash);
  (message as { id: string }).id = id;
  message.parts.forEach((part, index) => ((part as { id: string }).id = `${id}:${index}`));
  return message;
}

function fork<S, P>(trunk: Trunk<S, P>, length: number): Trunk<S, P> {
  return {
    sources: trunk.sources.slice(0, length),
    items: trunk.items.slice(0, length),
    hashes: trunk.hashes.slice(0, length),
    messages: trunk.messages.slice(0, length),
  };
}

function trunkChain<S, P>(length: number, trunk: Trunk<S, P>): TrunkChain<S, P> {
  return {
    length,
    sources: windowOn(trunk.sources, length),
    sourceStorage: trunk.sources,
    trunk,
    items: windowOn(trunk.items, length),
    hashes: windowOn(trunk.hashes, length),
    messages: windowOn(trunk.messages, length),
  };
}

function windowOn<T>(list: readonly T[], length: number): ChainList<T> {
  return {
    length,
    at: (index) => {
      const at = index < 0 ? index + length : index;
      return at >= 0 && at < length ? list[at] : undefined;
    },
  };
}

/** The first `length` entries of a chain list, as an array. */
export function listOf<T>(list: ChainList<T>): T[] {
  const copied = new Array<T>(list.length);
  for (let index = 0; index < list.length; index++) copied[index] = list.at(index)!;
  return copied;
}

/**
 * The end of the run of positions from `from` (before `limit`) at which `stored` and the prompt (`head` then
 * `list`) hold the very same object. `Object.is`, not `===`: for one object twice V8 answers without reading
 * it, where `===` reads each object's map (to rule out NaN): a cache miss per message once the prompt's objects
 * are spread over a large heap (100k messages: 0.3 ms against 1.6–2.6 ms).
 */
function sharedLength(
  stored: readonly unknown[],
  head: readonly unknown[],
  list: readonly unknown[],
  from: number,
  limit: number,
): number {
  const offset = head.length;
  const end = Math.min(stored.length, offset + list.length, limit);
  let index = from;
  for (; index < end && index < offset; index++) if (!Object.is(stored[index], head[index])) return index;
  while (index < end && Object.is(stored[index], list[index - offset])) index++;
  return index;
}

function openingOf(hashes: ChainList<string>): string {
  return hashes.at(Math.min(hashes.length, OPENING_DEPTH) - 1)!;
}

function isPrefixOf<S, P>(shorter: PromptChain<S, P>, longer: PromptChain<S, P>): boolean {
  const length = shorter.length;
  return length <= longer.length && shorter.hashes.at(length - 1) === longer.hashes.at(length - 1);
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

/** A hash of what a message says (role and parts, without ids or cache markers). */
export function contentHash(message: Message): string {
  return oneShotHash('sha256', contentKey(message), 'hex').slice(0, 32);
}

/**
 * The hash of a prefix from the hash of the one before it and what its last message says: one sha256 of
 * both (the previous hash has a fixed length, so the two cannot run into each other), not a hash of the
 * message's own hash, which was a second sha256 per message.
 */
export function chainHash(previous: string, message: Message): string {
  return oneShotHash('sha256', previous + contentKey(message), 'hex').slice(0, 32);
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
