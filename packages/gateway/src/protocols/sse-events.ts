import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { callerHeaders } from '../forward.js';
import { objectOf } from './tool-definitions.js';

/** One server-sent event: its name, its data parsed (undefined when not JSON), and its text as it came. */
export interface SseEvent {
  name: string;
  data: Record<string, unknown> | undefined;
  raw: string;
}

/** Starts relaying `first` (its status and headers) and gives a write that waits for the client to drain. */
export function openRelay(first: Response, response: ServerResponse): (text: string) => Promise<void> {
  response.writeHead(first.status, callerHeaders(first.headers));
  response.flushHeaders();
  return async (text) => {
    if (response.destroyed) return;
    if (!response.write(text)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
  };
}

/** The server-sent events of a body, each with its text as it came (line ends made `\n`). */
export async function* sseEvents(upstream: Response): AsyncGenerator<SseEvent> {
  if (upstream.body === null) return;
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of upstream.body as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
    let boundary = pending.indexOf('\n\n');
    while (boundary >= 0) {
      const text = pending.slice(0, boundary);
      pending = pending.slice(boundary + 2);
      if (text.trim().length > 0) yield parseEvent(text);
      boundary = pending.indexOf('\n\n');
    }
  }
  if (pending.trim().length > 0) yield parseEvent(pending);
}

function parseEvent(text: string): SseEvent {
  let name = 'message';
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = objectOf(JSON.parse(data.join('\n')));
  } catch {
    parsed = undefined;
  }
  return { name, data: parsed, raw: `${text}\n\n` };
}
