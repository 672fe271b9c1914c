import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { callerHeaders } from './forward.js';

/**
 * Passes a streamed reply to the caller chunk by chunk as it arrives (nothing
 * is buffered beyond one line), handing each SSE `data:` line that carries
 * usage to `onUsageEvent`. Resolves when the upstream ended or the caller left.
 */
export async function relayStream(
  upstream: Response,
  response: ServerResponse,
  onUsageEvent: (data: unknown) => void,
): Promise<void> {
  response.writeHead(upstream.status, callerHeaders(upstream.headers));
  response.flushHeaders();
  if (upstream.body === null) {
    response.end();
    return;
  }
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of upstream.body as AsyncIterable<Uint8Array>) {
    if (response.destroyed) break;
    if (!response.write(chunk)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
    pending += decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      readLine(pending.slice(0, newline), onUsageEvent);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  readLine(pending, onUsageEvent);
  response.end();
}

function readLine(line: string, onUsageEvent: (data: unknown) => void): void {
  if (!line.startsWith('data:') || !line.includes('usage')) return;
  try {
    onUsageEvent(JSON.parse(line.slice(5)));
  } catch {
    // Not JSON ([DONE], a partial line): nothing to read.
  }
}
