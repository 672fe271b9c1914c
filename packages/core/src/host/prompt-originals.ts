import type { Message, Part } from '../model/message.js';

/**
 * A framework's own prompt objects, by the ctxhost ids they were mapped to. A
 * message or part that comes back from the request waterfall unchanged is sent
 * as the caller's object (provider options, signatures, bytes and all); only
 * what a hook changed is rebuilt by the integration.
 */
export interface PromptOriginals<S, P> {
  remember(message: Message, source: S, sourceParts: readonly P[]): void;
  /**
   * Remembers a whole prompt by position (`message(i)` was mapped from `source(i)`), without an entry per
   * message: a renderer asks in order, so the next place after the last one asked for answers (else the first
   * place or the last few), and only an id found at none of them builds an index of the prompt's ids (once).
   * Once, before any `remember`.
   */
  seed(prompt: OriginalsSeed<S, P>): void;
  message(messageId: string): S | undefined;
  /** The caller's message when `message` is the very message remembered for it (no hook changed or copied it). */
  sameMessage(message: Message): S | undefined;
  /** The caller's part for `part`, when `part` still says what it said when mapped. */
  unchangedPart(part: Part): P | undefined;
  forget(messageId: string): void;
}

/** A prompt remembered by position (see `PromptOriginals.seed`). */
export interface OriginalsSeed<S, P> {
  readonly length: number;
  message(index: number): Message;
  source(index: number): S;
  sourceParts(index: number): readonly P[];
}

interface Remembered<S, P> {
  source: S;
  message: Message;
  sourceParts: readonly P[];
}

/**
 * One entry per message remembered (no entry per part), none for a seeded prompt's messages (found by their
 * place; a prompt handed over whole costs no map write per message). A part is found through its message:
 * its id is `<message id>:<n>`, and the message a renderer just asked for is checked first.
 */
export function createPromptOriginals<S, P>(): PromptOriginals<S, P> {
  const messages = new Map<string, Remembered<S, P>>();
  let seeded: OriginalsSeed<S, P> | undefined;
  let seededIds: Map<string, number> | undefined;
  /** The seeded place last answered. */
  let cursor = -1;
  const forgotten = new Set<string>();
  let last: Remembered<S, P> | undefined;

  const isSeededAt = (at: number, id: string): boolean =>
    at >= 0 && at < seeded!.length && seeded!.message(at).id === id;

  /** Where the seeded prompt holds `id`: after the place last answered, that place, the first one, else from the index; -1 when nowhere. */
  const seededPlace = (id: string): number => {
    if (seeded === undefined) return -1;
    if (isSeededAt(cursor + 1, id)) return cursor + 1;
    if (isSeededAt(cursor, id)) return cursor;
    if (isSeededAt(0, id)) return 0;
    // The prompt's last places (where a next call moves its cache breakpoints), before an index of every id.
    for (let at = seeded.length - 1; at >= 0 && at >= seeded.length - TAIL_SEARCHED; at--)
      if (isSeededAt(at, id)) return at;
    seededIds ??= idsOf(seeded);
    return seededIds.get(id) ?? -1;
  };

  const find = (id: string): Remembered<S, P> | undefined => {
    if (last !== undefined && last.message.id === id) return last;
    const known = messages.size === 0 ? undefined : messages.get(id);
    if (known !== undefined || seeded === undefined || (forgotten.size > 0 && forgotten.has(id))) return known;
    const at = seededPlace(id);
    if (at < 0) return undefined;
    cursor = at;
    return { source: seeded.source(at), message: seeded.message(at), sourceParts: seeded.sourceParts(at) };
  };

  const ownerOf = (partId: string): Remembered<S, P> | undefined => {
    if (last !== undefined && isPartOf(partId, last.message.id)) return last;
    const at = partId.lastIndexOf(':');
    return at <= 0 ? undefined : find(partId.slice(0, at));
  };

  return {
    remember(message, source, sourceParts) {
      messages.set(message.id, { source, message, sourceParts });
    },
    seed(prompt) {
      seeded = prompt;
      seededIds = undefined;
      cursor = -1;
    },
    message(messageId) {
      const known = find(messageId);
      if (known !== undefined) last = known;
      return known?.source;
    },
    sameMessage(message) {
      const known = find(message.id);
      if (known === undefined || known.message !== message) return undefined;
      last = known;
      return known.source;
    },
    unchangedPart(part) {
      const known = ownerOf(part.id);
      if (known === undefined) return undefined;
      const parts = known.message.parts;
      for (let index = 0; index < parts.length; index++) {
        const mapped = parts[index]!;
        if (mapped.id !== part.id) continue;
        const source = known.sourceParts[index];
        return source !== undefined && (mapped === part || sameContent(mapped, part)) ? source : undefined;
      }
      return undefined;
    },
    forget(messageId) {
      if (last?.message.id === messageId) last = undefined;
      messages.delete(messageId);
      if (seededPlace(messageId) >= 0) forgotten.add(messageId);
    },
  };
}

/** Places at a seeded prompt's end looked through for an id before its ids are indexed. */
const TAIL_SEARCHED = 64;

function idsOf<S, P>(seeded: OriginalsSeed<S, P>): Map<string, number> {
  const ids = new Map<string, number>();
  for (let index = 0; index < seeded.length; index++) ids.set(seeded.message(index).id, index);
  return ids;
}

function isPartOf(partId: string, messageId: string): boolean {
  return (
    partId.length > messageId.length + 1 &&
    partId.charCodeAt(messageId.length) === 58 /* ':' */ &&
    partId.startsWith(messageId) &&
    partId.indexOf(':', messageId.length + 1) === -1
  );
}

function sameContent(a: Part, b: Part): boolean {
  if (a.type !== b.type) return false;
  const { cacheControl: _a, ...left } = a;
  const { cacheControl: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}
