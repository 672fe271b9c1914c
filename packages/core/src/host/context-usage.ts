import type { CtxhostConfig } from '../config/config-schema.js';
import type { Session } from './session.js';
import type { TokenSource } from '../tokens/token-counter.js';
import { getModelInfo } from '../model-registry/model-registry.js';

/** How full a session's context window is. `window` is undefined when the model's window is not known. */
export type ContextUsage =
  | { known: true; tokens: number; window: number; ratio: number; source: TokenSource }
  | { known: false; tokens: number; source: TokenSource };

/**
 * A model's window from the config: `model.context_length` when set, else the
 * model registry's window for `model` (default: `model.name`), with the
 * config's `models:` entries over the registry's. Undefined when neither knows it.
 */
export function resolveContextWindow(
  config: Pick<CtxhostConfig, 'model'> & Partial<Pick<CtxhostConfig, 'models'>>,
  model?: string,
): number | undefined {
  if (config.model.contextLength !== undefined) return config.model.contextLength;
  const name = model ?? config.model.name;
  return name === undefined ? undefined : getModelInfo(name, config.models)?.contextWindow;
}

/**
 * The session's window — the one place every hook asks: the session's own
 * (set from its model client, or learned from an overflow), else the config's
 * (`model.context_length`, else the registry's window for `model.name`).
 */
export function contextWindowOf(
  session: Pick<Session, 'contextWindow'>,
  config: Pick<CtxhostConfig, 'model'> & Partial<Pick<CtxhostConfig, 'models'>>,
): number | undefined {
  return session.contextWindow ?? resolveContextWindow(config);
}

/**
 * The session's current usage: the last API-reported prompt size plus an
 * estimate of what was added since (never a re-count of the whole history).
 */
export function measureContextUsage(
  session: Pick<Session, 'contextWindow' | 'promptSize'>,
  config: Pick<CtxhostConfig, 'model'> & Partial<Pick<CtxhostConfig, 'models'>>,
): ContextUsage {
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
