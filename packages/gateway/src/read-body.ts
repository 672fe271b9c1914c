import type { IncomingMessage } from 'node:http';

/** The request's bytes, or undefined once they pass `limit` (the rest is drained, so the answer can still be sent). */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    if (over) continue;
    size += chunk.length;
    if (size > limit) {
      over = true;
      chunks.length = 0;
      continue;
    }
    chunks.push(chunk);
  }
  return over ? undefined : Buffer.concat(chunks);
}
