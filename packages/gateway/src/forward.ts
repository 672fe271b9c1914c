import type { IncomingHttpHeaders } from 'node:http';

/** Headers that belong to one hop (RFC 9110 §7.6.1) or that fetch sets from the body: never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/** The caller's headers for the upstream, as they came (auth and all), less the hop-by-hop ones. */
export function upstreamHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const each of Array.isArray(value) ? value : [value]) out.append(name, each);
  }
  return out;
}

/**
 * The upstream's headers for the caller, less the hop-by-hop ones and the body's
 * encoding and length (fetch hands the body over decoded, and a projection or a
 * recovered answer has another length).
 */
export function callerHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || name === 'content-encoding') return;
    if (name === 'set-cookie') return;
    out[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** The upstream URL for a request: the upstream's base (its path a prefix) and the request's own path and query. */
export function upstreamUrl(base: string, pathAndQuery: string): string {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${prefix}${pathAndQuery}`;
}

/** One request to the upstream; `body` is the bytes to send (the caller's own when nothing was projected). */
export function forward(options: {
  url: string;
  method: string;
  headers: Headers;
  body: string | Buffer | undefined;
  signal: AbortSignal;
}): Promise<Response> {
  return fetch(options.url, {
    method: options.method,
    headers: options.headers,
    ...(options.body === undefined ? {} : { body: options.body }),
    signal: options.signal,
    redirect: 'manual',
  });
}
