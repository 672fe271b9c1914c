import { anthropicProtocol } from './anthropic-protocol.js';
import { chatProtocol } from './chat-protocol.js';
import { geminiProtocol } from './gemini-protocol.js';
import { responsesProtocol } from './responses-protocol.js';
import type { RouteMatch, WireProtocol } from './wire-protocol.js';

/** Every protocol the gateway speaks, in the order routes are tried. */
export const PROTOCOLS: readonly WireProtocol[] = [anthropicProtocol, chatProtocol, responsesProtocol, geminiProtocol];

/** The protocol a request's method and path belong to, or undefined (the request then passes through as it is). */
export function matchProtocol(method: string, path: string): { protocol: WireProtocol; route: RouteMatch } | undefined {
  for (const protocol of PROTOCOLS) {
    const route = protocol.match(method, path);
    if (route !== undefined) return { protocol, route };
  }
  return undefined;
}

/** The protocol family a path most likely belongs to, for requests ctxhost only passes through (count_tokens, models). */
export function familyOf(path: string): WireProtocol {
  if (/\/models\/[^/]+:/.test(path)) return geminiProtocol;
  if (path.includes('/messages')) return anthropicProtocol;
  return chatProtocol;
}
