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
  /** The caller's part for `part`, when `part` still says what it said when mapped. */
  unchangedPart(part: Part): P | undefined;
  forget(messageId: string): void;
}

export function createPromptOriginals<S, P>(): PromptOriginals<S, P> {
  const messages = new Map<string, { source: S; partIds: string[] }>();
  const parts = new Map<string, { source: P; mapped: Part }>();
  return {
    remember(message, source, sourceParts) {
      messages.set(message.id, { source, partIds: message.parts.map((part) => part.id) });
      for (const [index, part] of message.parts.entries()) {
        const sourcePart = sourceParts[index];
        if (sourcePart !== undefined) parts.set(part.id, { source: sourcePart, mapped: part });
      }
    },
    message: (messageId) => messages.get(messageId)?.source,
    unchangedPart(part) {
      const known = parts.get(part.id);
      if (known === undefined) return undefined;
      return known.mapped === part || sameContent(known.mapped, part) ? known.source : undefined;
    },
    forget(messageId) {
      for (const partId of messages.get(messageId)?.partIds ?? []) parts.delete(partId);
      messages.delete(messageId);
    },
  };
}

function sameContent(a: Part, b: Part): boolean {
  if (a.type !== b.type) return false;
  const { cacheControl: _a, ...left } = a;
  const { cacheControl: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}
