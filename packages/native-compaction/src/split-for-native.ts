import { isToolResultPart, type Message, type TokenCounter } from '@ctxhost/core';

/** A projection cut for a native compaction: the head kept, the span the provider compacts, the tail kept verbatim. */
export interface NativeSplit {
  head: Message[];
  span: Message[];
  tail: Message[];
}

/**
 * Leading system messages stay; the tail is the shortest run of whole turns
 * from the end holding at least `keepTailTokens`, starting at a user message
 * that is not a tool result or at an assistant message (so no tool call is
 * parted from its results, and a long tool loop still has places to cut);
 * the span is what lies between. Undefined when the span would be under two
 * messages (nothing worth a compaction pass) or no turn starts after it.
 */
export function splitForNative(
  messages: readonly Message[],
  keepTailTokens: number,
  counter: TokenCounter,
): NativeSplit | undefined {
  let start = 0;
  while (start < messages.length && messages[start]!.role === 'system') start++;
  let tailStart = messages.length;
  let tokens = 0;
  for (let index = messages.length - 1; index > start; index--) {
    tokens += counter.count(messages[index]!);
    if (tokens >= keepTailTokens && startsTurn(messages[index]!)) {
      tailStart = index;
      break;
    }
  }
  if (tokens < keepTailTokens) tailStart = lastTurnStart(messages, start) ?? messages.length;
  const span = messages.slice(start, tailStart);
  // No turn to keep (the conversation would end on the compaction) or too little to compact: nothing to do.
  if (tailStart === messages.length || span.length < 2) return undefined;
  return { head: messages.slice(0, start), span, tail: messages.slice(tailStart) };
}

/** Where a kept tail may start: a user's turn, or an assistant message (its tool results follow it). Never at a result. */
function startsTurn(message: Message): boolean {
  if (message.role === 'assistant') return true;
  return message.role === 'user' && !message.parts.some(isToolResultPart);
}

function lastTurnStart(messages: readonly Message[], from: number): number | undefined {
  for (let index = messages.length - 1; index > from; index--) if (startsTurn(messages[index]!)) return index;
  return undefined;
}
