import type { ModelRequest } from '@ctxhost/core';
import { applyCacheBreakpoints } from './apply-cache-breakpoints.js';
import { createCacheMarker, type CacheTtl } from './cache-marker.js';
import { cachingStatusLine, shouldEnableCaching, type CachingDecision } from './should-enable-caching.js';

export interface CachingTransformOptions {
  ttl: CacheTtl;
  /** The provider requests go to (default 'anthropic': ctxhost's model client is the Anthropic adapter). */
  provider?: string;
  baseUrl?: string;
  gateways?: readonly string[];
  /** False turns caching off whatever the model (default true: on when shouldEnableCaching says so). */
  enabled?: boolean;
  /** Receives the status line once per model (`prompt caching enabled (…)`). */
  report?: (line: string, decision: CachingDecision) => void;
}

export type CachingTransform = (request: ModelRequest) => ModelRequest;

/**
 * The request transform the plugin taps into `beforeRequest`: adds the
 * `system_and_3` breakpoints when caching is on for the request's model, and
 * returns the request unchanged otherwise. Pure apart from the status report.
 */
export function createCachingTransform(options: CachingTransformOptions): CachingTransform {
  createCacheMarker(options.ttl);
  const decisions = new Map<string, CachingDecision>();
  const decide = (model: string): CachingDecision => {
    let decision = decisions.get(model);
    if (decision === undefined) {
      decision = decideFor(model, options);
      decisions.set(model, decision);
      options.report?.(cachingStatusLine(decision, options.ttl), decision);
    }
    return decision;
  };
  return (request) => {
    if (!decide(request.model).enabled) return request;
    return { ...request, messages: applyCacheBreakpoints(request.messages, { ttl: options.ttl }) };
  };
}

function decideFor(model: string, options: CachingTransformOptions): CachingDecision {
  const provider = options.provider ?? 'anthropic';
  if (options.enabled === false) return { enabled: false, native: provider === 'anthropic', model, provider, reason: 'turned off in hooks.prompt-caching.enabled' };
  return shouldEnableCaching({
    model,
    provider,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.gateways === undefined ? {} : { gateways: options.gateways }),
  });
}
