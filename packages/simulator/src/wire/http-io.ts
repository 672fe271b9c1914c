import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, type ApiError } from './api-error.js';

/** Reads a body, or undefined when it is over `limit` bytes (the rest is drained, not kept). */
export function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function sendError(response: ServerResponse, requestId: string, error: ApiError): void {
  response.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
  response.end(errorBody(error, requestId));
}

/** Request headers as one lower-case map (repeated headers joined with ", "). */
export function headerMap(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits `ms`, or less when the response closes first (client gone, simulator closed); resolves whether the time ran out. */
export function delayUnlessClosed(ms: number, response: ServerResponse): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.removeListener('close', onClose);
      resolve(true);
    }, ms);
    response.once('close', onClose);
  });
}
