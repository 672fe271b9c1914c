import type { CtxhostConfig } from '../config/config-schema.js';
import type { Session } from './session.js';
import type { TokenSource } from '../tokens/token-counter.js';

/** How full a session's context window is. `window` is undefined when the model's window is not known. */
export type ContextUsage =
  | { known: true; tokens: number; window: number; ratio: number; source: TokenSource }
  | { known: false; tokens: number; source: TokenSource };

/** The session's window: the session's own (from its model client), else `model.context_length` from the config. */
export function contextWindowOf(session: Pick<Session, 'contextWindow'>, config: Pick<CtxhostConfig, 'model'>): number | undefined {
  return session.contextWindow ?? config.model.contextLength;
}

/**
 * The session's current usage: the last API-reported prompt size plus an
 * estimate of what was added since (never a re-count of the whole history).
 */
export function measureContextUsage(session: Pick<Session, 'contextWindow' | 'promptSize'>, config: Pick<CtxhostConfig, 'model'>): ContextUsage {
  const size = session.promptSize();
  const window = contextWindowOf(session, config);
  if (window === undefined || window <= 0) return { known: false, tokens: size.tokens, source: size.source };
  return { known: true, tokens: size.tokens, window, ratio: size.tokens / window, source: size.source };
}

/** `0.8123` → `"81%"`: whole percent, rounded down so a notice never overstates room left. */
export function formatPercent(ratio: number): string {
  return `${Math.floor(ratio * 100)}%`;
}

/** `162000` → `"162,000"`. */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}
