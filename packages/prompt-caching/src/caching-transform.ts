import type { ModelRequest } from '@ctxhost/core';
import { createCacheMarker, type CacheTtl } from './cache-marker.js';
import { createSessionBreakpoints, type SessionBreakpoints } from './session-breakpoints.js';
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
  const breakpointsFor = createSessionBreakpointsCache(options.ttl);
  return (request) => {
    if (!decide(request.model).enabled) return request;
    return { ...request, messages: breakpointsFor(request.sessionId).apply(request.messages) };
  };
}

/** Sessions whose breakpoint state is kept; beyond that the least recently used one is dropped (it only costs one full pass). */
const KEPT_SESSIONS = 64;

function createSessionBreakpointsCache(ttl: CacheTtl): (sessionId: string) => SessionBreakpoints {
  const sessions = new Map<string, SessionBreakpoints>();
  return (sessionId) => {
    const breakpoints = sessions.get(sessionId) ?? createSessionBreakpoints(ttl);
    sessions.delete(sessionId);
    sessions.set(sessionId, breakpoints);
    if (sessions.size > KEPT_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    return breakpoints;
  };
}

function decideFor(model: string, options: CachingTransformOptions): CachingDecision {
  const provider = options.provider ?? 'anthropic';
  if (options.enabled === false)
    return {
      enabled: false,
      native: provider === 'anthropic',
      model,
      provider,
      reason: 'turned off in hooks.prompt-caching.enabled',
    };
  return shouldEnableCaching({
    model,
    provider,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.gateways === undefined ? {} : { gateways: options.gateways }),
  });
}
