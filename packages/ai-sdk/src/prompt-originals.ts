import type { Message, Part } from '@ctxhost/core';
import type { AiMessage, AiPart } from './ai-sdk-types.js';

/**
 * The caller's own prompt objects, by the ctxhost ids they were mapped to. A
 * message or part that comes back from the request waterfall unchanged is sent
 * as the caller's object (provider options, signatures, file bytes and all);
 * only what a hook changed is rebuilt.
 */
export interface PromptOriginals {
  remember(message: Message, source: AiMessage): void;
  message(messageId: string): AiMessage | undefined;
  /** The caller's part for `part`, when `part` still says what it said when mapped. */
  unchangedPart(part: Part): AiPart | undefined;
  /** Forgets a message (reverted, diverged from the caller's prompt). */
  forget(messageId: string): void;
}

export function createPromptOriginals(): PromptOriginals {
  const messages = new Map<string, AiMessage>();
  const parts = new Map<string, { source: AiPart; mapped: Part }>();
  return {
    remember(message, source) {
      messages.set(message.id, source);
      if (typeof source.content === 'string') return;
      for (const [index, part] of message.parts.entries()) {
        const sourcePart = source.content[index];
        if (sourcePart !== undefined) parts.set(part.id, { source: sourcePart, mapped: part });
      }
    },
    message: (messageId) => messages.get(messageId),
    unchangedPart(part) {
      const known = parts.get(part.id);
      if (known === undefined) return undefined;
      return known.mapped === part || sameContent(known.mapped, part) ? known.source : undefined;
    },
    forget(messageId) {
      const message = messages.get(messageId);
      messages.delete(messageId);
      if (message === undefined || typeof message.content === 'string') return;
      for (let index = 0; index < message.content.length; index++) parts.delete(`${messageId}:${index}`);
    },
  };
}

function sameContent(a: Part, b: Part): boolean {
  if (a.type !== b.type) return false;
  const { cacheControl: _a, ...left } = a;
  const { cacheControl: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}
