import type { Message, Part } from '../model/message.js';

/**
 * A framework's own prompt objects, by the ctxhost ids they were mapped to. A
 * message or part that comes back from the request waterfall unchanged is sent
 * as the caller's object (provider options, signatures, bytes and all); only
 * what a hook changed is rebuilt by the integration.
 */
export interface PromptOriginals<S, P> {
  remember(message: Message, source: S, sourceParts: readonly P[]): void;
  message(messageId: string): S | undefined;
  /** The caller's message when `message` is the very message remembered for it (no hook changed or copied it). */
  sameMessage(message: Message): S | undefined;
  /** The caller's part for `part`, when `part` still says what it said when mapped. */
  unchangedPart(part: Part): P | undefined;
  forget(messageId: string): void;
}

interface Remembered<S, P> {
  source: S;
  message: Message;
  sourceParts: readonly P[];
}

/**
 * One entry per message (no entry per part: a prompt handed over whole is remembered with a map write
 * per message). A part is found through its message: its id is `<message id>:<n>`, and the message a
 * renderer just asked for is checked first.
 */
export function createPromptOriginals<S, P>(): PromptOriginals<S, P> {
  const messages = new Map<string, Remembered<S, P>>();
  let last: Remembered<S, P> | undefined;

  const ownerOf = (partId: string): Remembered<S, P> | undefined => {
    if (last !== undefined && isPartOf(partId, last.message.id)) return last;
    const at = partId.lastIndexOf(':');
    return at <= 0 ? undefined : messages.get(partId.slice(0, at));
  };

  return {
    remember(message, source, sourceParts) {
      messages.set(message.id, { source, message, sourceParts });
    },
    message(messageId) {
      const known = messages.get(messageId);
      if (known !== undefined) last = known;
      return known?.source;
    },
    sameMessage(message) {
      const known = messages.get(message.id);
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
    },
  };
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
