import type { ContentBlock, MessagesRequest } from './wire-request-types.js';

/**
 * A wire request read as a Messages request (the one shape the simulator's
 * tokenizer, cache and responders, and the gateway's projection, work on),
 * with where each message came from.
 */
export interface WireTurns {
  request: MessagesRequest;
  /** For each of `request.messages`, the indexes of the input items it was made from, in order. */
  sources: number[][];
  /** Indexes of the input items that became `request.system` (system and developer messages). */
  systemSources: number[];
}

/** Appends blocks to the last message when it has `role` and may be merged, else starts a message; records the source items. */
export function pushTurn(
  turns: WireTurns,
  role: 'user' | 'assistant',
  blocks: ContentBlock[],
  source: readonly number[],
  merge: boolean,
): void {
  const messages = turns.request.messages;
  const previous = messages.at(-1);
  if (merge && previous !== undefined && previous.role === role && Array.isArray(previous.content)) {
    previous.content.push(...blocks);
    turns.sources.at(-1)!.push(...source);
    return;
  }
  messages.push({ role, content: blocks });
  turns.sources.push([...source]);
}
