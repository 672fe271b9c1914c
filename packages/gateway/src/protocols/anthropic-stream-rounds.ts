import type { ServerResponse } from 'node:http';
import { openRelay, sseEvents, type SseEvent } from './sse-events.js';
import { objectOf } from './tool-definitions.js';
import type { StreamRoundOptions } from './wire-protocol.js';

/** A content block of the round as it streamed in: relayed under the client's index, or held back. */
interface RoundBlock {
  content: Record<string, unknown>;
  partialJson: string;
  relayedAs?: number;
  held: SseEvent[];
}

type RoundEnd =
  | { kind: 'done' }
  | { kind: 'answer'; reply: { role: 'assistant'; content: unknown[] }; delta: SseEvent; held: RoundBlock[] };

/**
 * Relays a streamed Messages reply event by event, and when it calls the gateway's own tool, holds those
 * calls (and every block after them) back, asks the upstream again through `next`, and relays the next
 * round's blocks as more blocks of the same message: the client sees one message, its text token by token.
 */
export async function relayAnthropicRounds(
  first: Response,
  response: ServerResponse,
  options: StreamRoundOptions,
): Promise<void> {
  const write = openRelay(first, response);
  let upstream = first;
  let nextIndex = 0;
  for (let round = 0; ; round++) {
    const state = { nextIndex };
    const end = await relayRound(upstream, round, round < options.maxRounds, state, options, write);
    nextIndex = state.nextIndex;
    if (end.kind === 'done' || response.destroyed) break;
    const next = await options.next(end.reply).catch(() => undefined);
    if (next !== undefined && next.ok && next.body !== null) {
      upstream = next;
      continue;
    }
    // The next round could not be had: end the message with what the client has, and the calls it can run itself.
    if (next !== undefined) await next.body?.cancel().catch(() => undefined);
    let relayedCalls = false;
    for (const block of end.held.filter((each) => each.content['name'] !== options.toolName)) {
      relayedCalls = true;
      const index = state.nextIndex++;
      for (const event of block.held) await write(serialize(event.name, { ...event.data, index }));
    }
    const delta = objectOf(end.delta.data?.['delta']) ?? {};
    await write(
      serialize('message_delta', {
        ...end.delta.data,
        delta: { ...delta, stop_reason: relayedCalls ? 'tool_use' : 'end_turn' },
      }),
    );
    await write(serialize('message_stop', { type: 'message_stop' }));
    break;
  }
  response.end();
}

async function relayRound(
  upstream: Response,
  round: number,
  answerCalls: boolean,
  state: { nextIndex: number },
  options: StreamRoundOptions,
  write: (text: string) => Promise<void>,
): Promise<RoundEnd> {
  const blocks = new Map<number, RoundBlock>();
  let holding = false;
  let callsOurs = false;
  let delta: SseEvent | undefined;
  for await (const event of sseEvents(upstream)) {
    const data = event.data;
    if (data?.['usage'] !== undefined || objectOf(data?.['message'])?.['usage'] !== undefined)
      options.onUsageEvent(data);
    const index = typeof data?.['index'] === 'number' ? data['index'] : -1;
    switch (event.name) {
      case 'message_start':
        if (round === 0) await write(event.raw);
        break;
      case 'content_block_start': {
        const content = { ...(objectOf(data?.['content_block']) ?? {}) };
        const ours = content['type'] === 'tool_use' && content['name'] === options.toolName;
        if (answerCalls && (holding || ours)) {
          holding = true;
          callsOurs ||= ours;
          blocks.set(index, { content, partialJson: '', held: [event] });
        } else {
          const relayedAs = state.nextIndex++;
          blocks.set(index, { content, partialJson: '', relayedAs, held: [] });
          await write(relayedAs === index ? event.raw : serialize(event.name, { ...data, index: relayedAs }));
        }
        break;
      }
      case 'content_block_delta':
      case 'content_block_stop': {
        const block = blocks.get(index);
        if (block === undefined) {
          await write(event.raw);
          break;
        }
        if (event.name === 'content_block_delta') accumulate(block, objectOf(data?.['delta']));
        else finishBlock(block);
        if (block.relayedAs === undefined) block.held.push(event);
        else
          await write(
            block.relayedAs === index ? event.raw : serialize(event.name, { ...data, index: block.relayedAs }),
          );
        break;
      }
      case 'message_delta':
        if (callsOurs) delta = event;
        else await write(event.raw);
        break;
      case 'message_stop':
        if (delta !== undefined) {
          const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
          return {
            kind: 'answer',
            reply: { role: 'assistant', content: ordered.map((block) => block.content) },
            delta,
            held: ordered.filter((block) => block.relayedAs === undefined),
          };
        }
        await write(event.raw);
        break;
      default:
        await write(event.raw);
    }
  }
  return { kind: 'done' };
}

/** Builds the block's content from its deltas, so a held round can be sent back as the assistant's turn. */
function accumulate(block: RoundBlock, delta: Record<string, unknown> | undefined): void {
  const content = block.content;
  switch (delta?.['type']) {
    case 'text_delta':
      content['text'] = `${String(content['text'] ?? '')}${String(delta['text'] ?? '')}`;
      break;
    case 'input_json_delta':
      block.partialJson += String(delta['partial_json'] ?? '');
      break;
    case 'thinking_delta':
      content['thinking'] = `${String(content['thinking'] ?? '')}${String(delta['thinking'] ?? '')}`;
      break;
    case 'signature_delta':
      content['signature'] = delta['signature'];
      break;
    case 'citations_delta':
      content['citations'] = [...listOf(content['citations']), delta['citation']];
      break;
  }
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

function finishBlock(block: RoundBlock): void {
  if (block.partialJson.length === 0) return;
  try {
    block.content['input'] = JSON.parse(block.partialJson);
  } catch {
    block.content['input'] = {};
  }
}

function serialize(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
