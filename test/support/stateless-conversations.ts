import type { NeutralMessage } from '../../bench/integration-scenarios.js';

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

export function conversationOpening(conversation: number): NeutralMessage[] {
  switch (conversation % 4) {
    case 0:
      return [
        { role: 'user', text: 'hello' },
        { role: 'assistant', text: 'Simulated reply about: hello' },
      ];
    case 1:
      return [
        { role: 'user', text: BRIEF },
        { role: 'assistant', text: 'Understood.' },
      ];
    default:
      return [];
  }
}

export function turnText(conversation: number, turn: number): string {
  return `${marker(conversation)} turn ${turn}: ${'please look at the next part of my account history in detail. '.repeat(60)}`;
}

/**
 * The conversations worker `worker` of `workers` runs: each conversation `copies` times, on different workers
 * while there are enough (identical prompts on different workers); one worker runs every copy itself.
 */
export function conversationsOf(count: number, worker: number, workers: number, copies: number): number[] {
  const mine: number[] = [];
  for (let conversation = 0; conversation < count; conversation++)
    for (let copy = 0; copy < copies; copy++) if ((conversation + copy) % workers === worker) mine.push(conversation);
  return mine;
}

/** The markers in a request body. */
export function markersIn(body: string): Set<string> {
  return new Set(body.match(/MARK-\d+-X/g) ?? []);
}
