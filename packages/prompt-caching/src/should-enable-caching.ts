import { isClaudeModel } from '@ctxhost/native-compaction';
import type { CacheTtl } from './cache-marker.js';

/** Providers other than Anthropic's own API whose Claude endpoints accept `cache_control` (OpenRouter-style gateways). */
export const DEFAULT_CACHING_GATEWAYS: readonly string[] = ['openrouter'];

export interface CachingTarget {
  /** The model name as sent (`claude-sonnet-4-5`, `anthropic/claude-sonnet-4.5`, …). */
  model: string;
  /** The provider name (`anthropic`, `openrouter`, `openai`, …). */
  provider: string;
  /** The endpoint, when not the provider's default; its host name identifies Anthropic and OpenRouter too. */
  baseUrl?: string;
  /** Gateways configured to pass `cache_control` through (default `['openrouter']`). */
  gateways?: readonly string[];
}

export interface CachingDecision {
  enabled: boolean;
  /** True for Anthropic's own API (tool messages may then carry a message-level marker). */
  native: boolean;
  model: string;
  provider: string;
  /** Why it is off, when it is. */
  reason?: string;
}

export { isClaudeModel };

/**
 * Whether to add cache breakpoints: on automatically for Claude models sent to
 * Anthropic's API or to a gateway that passes `cache_control` through; off
 * (with the reason) otherwise.
 */
export function shouldEnableCaching(target: CachingTarget): CachingDecision {
  const provider = target.provider.toLowerCase();
  const host = hostOf(target.baseUrl);
  // Anthropic's Messages API, at its own address or at another (a proxy, the simulator).
  const native = provider === 'anthropic' || (host !== undefined && host.endsWith('anthropic.com'));
  const gateways = (target.gateways ?? DEFAULT_CACHING_GATEWAYS).map((name) => name.toLowerCase());
  const gateway = gateways.includes(provider) || (host !== undefined && gateways.some((name) => host.includes(name)));
  const base = { native, model: target.model, provider: target.provider };
  if (!isClaudeModel(target.model)) return { ...base, enabled: false, reason: 'not a Claude model' };
  if (!native && !gateway) {
    return {
      ...base,
      enabled: false,
      reason: `provider "${target.provider}" is not known to accept cache_control (configure it under hooks.prompt-caching.gateways)`,
    };
  }
  return { ...base, enabled: true };
}

/** `prompt caching enabled (claude-sonnet-4-5, anthropic, TTL 5m)` or `prompt caching disabled (gpt-4o, openai: not a Claude model)`. */
export function cachingStatusLine(decision: CachingDecision, ttl: CacheTtl): string {
  if (decision.enabled) return `prompt caching enabled (${decision.model}, ${decision.provider}, TTL ${ttl})`;
  return `prompt caching disabled (${decision.model}, ${decision.provider}: ${decision.reason ?? 'turned off'})`;
}

function hostOf(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    return new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
