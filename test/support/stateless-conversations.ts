import type { ModelMessage } from 'ai';

/**
 * The generated conversations of the stateless multi-process test and bench. Conversation `c` carries
 * the marker `MARK-<c>-X` in every turn, and no other conversation ever carries it. A quarter open
 * identically ("hello", as a suggested-prompt button makes every user do); another quarter share a
 * long opening (the same project brief); the rest open in their own words.
 */
export function marker(conversation: number): string {
  return `MARK-${conversation}-X`;
}

const BRIEF = `Project brief. ${'The service ingests orders, validates them, reserves stock and confirms payment. '.repeat(40)}`;

export function conversationOpening(conversation: number): ModelMessage[] {
  switch (conversation % 4) {
    case 0:
      return [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'Simulated reply about: hello' },
      ];
    case 1:
      return [
        { role: 'user', content: BRIEF },
        { role: 'assistant', content: 'Understood.' },
      ];
    default:
      return [];
  }
}

export function turnText(conversation: number, turn: number): string {
  return `${marker(conversation)} turn ${turn}: ${'please look at the next part of my account history in detail. '.repeat(60)}`;
}

/** The conversations worker `worker` of `workers` runs: each conversation on `copies` workers (identical prompts on different workers). */
export function conversationsOf(count: number, worker: number, workers: number, copies: number): number[] {
  const mine: number[] = [];
  for (let conversation = 0; conversation < count; conversation++)
    for (let copy = 0; copy < Math.min(copies, workers); copy++)
      if ((conversation + copy) % workers === worker) mine.push(conversation);
  return mine;
}

/** The markers in a request body. */
export function markersIn(body: string): Set<string> {
  return new Set(body.match(/MARK-\d+-X/g) ?? []);
}
