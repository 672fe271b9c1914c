import { isReasoningOnly, type Message, type TokenCounter } from '@ctxhost/core';

export interface Boundaries {
  /** Messages before this index are the head. */
  headEnd: number;
  /** Messages from this index on are the tail. */
  tailStart: number;
}

export interface BoundaryOptions {
  protectFirstN: number;
  protectLastN: number;
  tailBudgetTokens: number;
  counter: TokenCounter;
  /** The tail starts no later than this index (the newest user request), however many messages follow it. */
  pinFrom?: number;
}

/**
 * Phase 2: head = the first `protectFirstN` messages; tail = walk back from the
 * end until the token budget is spent, but never fewer than `protectLastN`
 * messages, and never after `pinFrom`. Both edges move so no tool call is separated from its results,
 * even when other messages (an approval) sit between them, nor from the reasoning-only assistant
 * message right before it (its thinking, which the API wants in the same turn as the tool_use).
 */
export function findBoundaries(messages: readonly Message[], options: BoundaryOptions): Boundaries {
  const insideToolGroup = toolGroupInteriors(messages);
  const headEnd = alignBackward(insideToolGroup, Math.min(options.protectFirstN, messages.length));
  let budgetStart = messages.length;
  let spent = 0;
  while (budgetStart > 0) {
    const tokens = options.counter.count(messages[budgetStart - 1]!);
    if (spent + tokens > options.tailBudgetTokens) break;
    spent += tokens;
    budgetStart--;
  }
  const floorStart = Math.max(0, messages.length - options.protectLastN);
  // A request inside the head is kept by the head; pinning the tail to it would leave nothing to summarize.
  const pin = options.pinFrom !== undefined && options.pinFrom >= headEnd ? options.pinFrom : messages.length;
  const latest = Math.min(budgetStart, floorStart, pin);
  const tailStart = Math.max(headEnd, alignBackward(insideToolGroup, latest));
  return { headEnd, tailStart };
}

/** A message that answers calls: a tool message, or a user message made only of tool results. */
export function isResultMessage(message: Message | undefined): boolean {
  return (
    message !== undefined &&
    message.parts.length > 0 &&
    message.parts.every((part) => part.type === 'tool-result') &&
    message.role !== 'assistant'
  );
}

/**
 * For each cut position `i` (between message `i - 1` and `i`), whether it falls
 * inside a tool group: a call before it whose result is at or after it, or right
 * after the call's thinking (a reasoning-only assistant message, as core's
 * `groupMessages` groups it). Results need not be adjacent (an approval can sit
 * between), so this looks at call ids, not at the message next to the cut.
 * Linear in messages and parts.
 */
function toolGroupInteriors(messages: readonly Message[]): boolean[] {
  const callIndex = new Map<string, number>();
  const opened = new Int32Array(messages.length + 2);
  messages.forEach((message, index) => {
    if (isThinkingBeforeCall(messages[index - 1], message)) {
      opened[index]! += 1;
      opened[index + 1]! -= 1;
    }
    for (const part of message.parts) {
      if (part.type === 'tool-call' && message.role === 'assistant') callIndex.set(part.callId, index);
      if (part.type !== 'tool-result') continue;
      const call = callIndex.get(part.callId);
      if (call === undefined || call >= index) continue;
      opened[call + 1]! += 1;
      opened[index + 1]! -= 1;
    }
  });
  const inside: boolean[] = [];
  let depth = 0;
  for (let cut = 0; cut <= messages.length; cut++) {
    depth += opened[cut]!;
    inside.push(depth > 0);
  }
  return inside;
}

function isThinkingBeforeCall(previous: Message | undefined, message: Message): boolean {
  return (
    previous?.role === 'assistant' &&
    isReasoningOnly(previous) &&
    message.role === 'assistant' &&
    message.parts.some((part) => part.type === 'tool-call')
  );
}

/** Moves a cut back until it no longer separates a call from its results: the head gives the call to the middle, the tail takes it in. */
function alignBackward(insideToolGroup: readonly boolean[], cut: number): number {
  let aligned = cut;
  while (aligned > 0 && insideToolGroup[aligned] === true) aligned--;
  return aligned;
}
