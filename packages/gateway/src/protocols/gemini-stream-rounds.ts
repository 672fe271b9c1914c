import type { ServerResponse } from 'node:http';
import { openRelay, sseEvents } from './sse-events.js';
import { objectOf } from './tool-definitions.js';
import type { StreamRoundOptions } from './wire-protocol.js';

type RoundEnd = { kind: 'done' } | { kind: 'answer'; reply: unknown; last: Record<string, unknown>; held: Part[] };

type Part = Record<string, unknown>;

/** A part's `functionCall`, when it is one. */
export function callOf(part: Part): Record<string, unknown> | undefined {
  return objectOf(part['functionCall']);
}

/**
 * Relays a streamed generateContent reply (`alt=sse`) chunk by chunk, holding back the function calls
 * until the round's last chunk; when the round called the gateway's own tool, asks the upstream again
 * through `next` and relays the next round's chunks as more of the same reply (its text as it comes).
 */
export async function relayGeminiRounds(
  first: Response,
  response: ServerResponse,
  options: StreamRoundOptions,
): Promise<void> {
  const write = openRelay(first, response);
  let upstream = first;
  for (let round = 0; ; round++) {
    const end = await relayRound(upstream, round < options.maxRounds, options, write);
    if (end.kind === 'done' || response.destroyed) break;
    const next = await options.next(end.reply).catch(() => undefined);
    if (next !== undefined && next.ok && next.body !== null) {
      upstream = next;
      continue;
    }
    // The next round could not be had: end the reply with the calls the client can run itself.
    if (next !== undefined) await next.body?.cancel().catch(() => undefined);
    const theirs = end.held.filter((part) => callOf(part)?.['name'] !== options.toolName);
    await write(serialize(withParts(end.last, theirs)));
    break;
  }
  response.end();
}

async function relayRound(
  upstream: Response,
  answerCalls: boolean,
  options: StreamRoundOptions,
  write: (text: string) => Promise<void>,
): Promise<RoundEnd> {
  const said: Part[] = [];
  const held: Part[] = [];
  for await (const event of sseEvents(upstream)) {
    const chunk = event.data;
    if (chunk === undefined) {
      await write(event.raw);
      continue;
    }
    if (chunk['usageMetadata'] !== undefined) options.onUsageEvent(chunk);
    const candidate = objectOf(Array.isArray(chunk['candidates']) ? chunk['candidates'][0] : undefined);
    const parts = partsOfCandidate(candidate);
    held.push(...parts.filter((part) => callOf(part) !== undefined));
    const rest = parts.filter((part) => callOf(part) === undefined);
    said.push(...rest);
    const last = candidate?.['finishReason'] !== undefined;
    const ours = answerCalls && held.some((part) => callOf(part)?.['name'] === options.toolName);
    if (last && ours) {
      if (rest.length > 0) await write(serialize(withParts(chunk, rest, false)));
      const reply = { candidates: [{ content: { role: 'model', parts: [...said, ...held] } }] };
      return { kind: 'answer', reply, last: chunk, held };
    }
    if (last) await write(serialize(withParts(chunk, [...rest, ...held])));
    else if (rest.length > 0 || candidate === undefined) await write(serialize(withParts(chunk, rest, false)));
  }
  return { kind: 'done' };
}

function partsOfCandidate(candidate: Record<string, unknown> | undefined): Part[] {
  const parts: unknown = objectOf(candidate?.['content'])?.['parts'];
  if (!Array.isArray(parts)) return [];
  return (parts as unknown[]).flatMap((part): Part[] => {
    const object = objectOf(part);
    return object === undefined ? [] : [object];
  });
}

/** The chunk with these parts; not the last, it says no finish reason and no usage. */
function withParts(chunk: Record<string, unknown>, parts: Part[], last = true): Record<string, unknown> {
  const candidates: unknown = chunk['candidates'];
  if (!Array.isArray(candidates)) return chunk;
  const candidate = objectOf(candidates[0]) ?? {};
  const content = objectOf(candidate['content']) ?? { role: 'model' };
  const { finishReason, ...open } = candidate;
  const { usageMetadata: _usage, ...rest } = chunk;
  return last
    ? { ...chunk, candidates: [{ ...candidate, finishReason, content: { ...content, parts } }] }
    : { ...rest, candidates: [{ ...open, content: { ...content, parts } }] };
}

function serialize(chunk: Record<string, unknown>): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}
