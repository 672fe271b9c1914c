import type { ModelRequest } from '@ctxhost/core';
import { applyCacheBreakpoints } from './apply-cache-breakpoints.js';
import { createCacheBreakpointCounter, type CacheBreakpointCounter } from './cache-breakpoint-counter.js';
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
  const counterFor = createCounterCache();
  return (request) => {
    if (!decide(request.model).enabled) return request;
    return { ...request, messages: applyCacheBreakpoints(request.messages, { ttl: options.ttl, counter: counterFor(request.sessionId) }) };
  };
}

/** Sessions whose breakpoint counters are kept; beyond that the least recently used one is dropped (it only costs a full count). */
const KEPT_COUNTERS = 64;

function createCounterCache(): (sessionId: string) => CacheBreakpointCounter {
  const counters = new Map<string, CacheBreakpointCounter>();
  return (sessionId) => {
    const counter = counters.get(sessionId) ?? createCacheBreakpointCounter();
    counters.delete(sessionId);
    counters.set(sessionId, counter);
    if (counters.size > KEPT_COUNTERS) counters.delete(counters.keys().next().value as string);
    return counter;
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
