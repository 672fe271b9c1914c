import type { Message } from '../model/message.js';

/**
 * Counts tokens. Implementations cache per message (by id and a content hash),
 * so counting a history after appending k messages costs O(k).
 */
export interface TokenCounter {
  readonly name: string;
  /** Tokens of one message (cached). */
  count(message: Message): number;
  /** Sum over messages (each cached). */
  countAll(messages: readonly Message[]): number;
  /** Tokens of a bare string, for budgets and previews. */
  countText(text: string): number;
}

/** Where a prompt-size figure came from. */
export type TokenSource = 'reported' | 'estimated' | 'reported+estimated';

/** A prompt-size answer from the usage tracker. */
export interface PromptSize {
  tokens: number;
  source: TokenSource;
  /** The API-reported part, when there is one. */
  reportedTokens?: number;
  /** The estimated part: messages added since the last report, or everything. */
  estimatedTokens: number;
}
