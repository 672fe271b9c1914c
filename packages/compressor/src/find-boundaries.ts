import type { Message, TokenCounter } from '@ctxhost/core';

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
}

/**
 * Phase 2: head = the first `protectFirstN` messages; tail = walk back from the
 * end until the token budget is spent, but never fewer than `protectLastN`
 * messages. Both edges move so no tool call is separated from its results.
 */
export function findBoundaries(messages: readonly Message[], options: BoundaryOptions): Boundaries {
  const headEnd = alignHeadBackward(messages, Math.min(options.protectFirstN, messages.length));
  let budgetStart = messages.length;
  let spent = 0;
  while (budgetStart > 0) {
    const tokens = options.counter.count(messages[budgetStart - 1]!);
    if (spent + tokens > options.tailBudgetTokens) break;
    spent += tokens;
    budgetStart--;
  }
  const floorStart = Math.max(0, messages.length - options.protectLastN);
  const tailStart = Math.max(headEnd, alignTailBackward(messages, Math.min(budgetStart, floorStart)));
  return { headEnd, tailStart };
}

/** A message that answers calls: a tool message, or a user message made only of tool results. */
export function isResultMessage(message: Message | undefined): boolean {
  return message !== undefined && message.parts.length > 0 && message.parts.every((part) => part.type === 'tool-result') && message.role !== 'assistant';
}

/** The head may not end between an assistant's calls and their results: the call moves to the middle with them. */
function alignHeadBackward(messages: readonly Message[], end: number): number {
  let aligned = end;
  while (aligned > 0 && isResultMessage(messages[aligned])) aligned--;
  return aligned;
}

/** The tail may not start on results: walk back past them to the assistant message that made the calls. */
function alignTailBackward(messages: readonly Message[], start: number): number {
  let aligned = start;
  while (aligned > 0 && isResultMessage(messages[aligned])) aligned--;
  return aligned;
}
