import { createHash } from 'node:crypto';
import type { Message } from '@ctxhost/core';

/** One conversation the wrapper has compacted: the projection that stands for the first `covered` caller messages. */
export interface WrapperConversation {
  /** Caller messages (wire turns) the projection replaces. */
  covered: number;
  /** Hash of those caller messages, so a caller who rewrote them gets a fresh start. */
  coveredHash: string;
  /** What the model sees for them (system message first when there is one). */
  projection: Message[];
}

/**
 * The wrapper's memory, keyed by a conversation's opening (its system prompt
 * and first message): consecutive calls of one conversation reuse one
 * projection, so the prefix the API caches stays the same between
 * compactions instead of being re-derived (and moved) on every call.
 * Bounded: the least recently used conversation is forgotten first.
 */
export function createWrapperConversations(maxConversations = 256) {
  const conversations = new Map<string, WrapperConversation>();
  return {
    keyOf(system: unknown, messages: readonly unknown[]): string {
      return hash(JSON.stringify([system ?? null, messages[0] ?? null]));
    },
    /** The conversation's projection when the caller's messages still start with what it covers. */
    reuse(key: string, messages: readonly unknown[]): WrapperConversation | undefined {
      const known = conversations.get(key);
      if (known === undefined || messages.length < known.covered) return undefined;
      if (hash(JSON.stringify(messages.slice(0, known.covered))) !== known.coveredHash) {
        conversations.delete(key);
        return undefined;
      }
      conversations.delete(key);
      conversations.set(key, known);
      return known;
    },
    remember(key: string, messages: readonly unknown[], projection: Message[]): void {
      conversations.delete(key);
      conversations.set(key, { covered: messages.length, coveredHash: hash(JSON.stringify(messages)), projection });
      if (conversations.size > maxConversations) conversations.delete(conversations.keys().next().value as string);
    },
    get size(): number {
      return conversations.size;
    },
  };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
