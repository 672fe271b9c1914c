import type { ServerResponse } from 'node:http';
import { delayUnlessClosed } from './http-io.js';
import type { ApiError } from './api-error.js';
import type { AssistantTurn, ContentBlock, WireUsage } from './wire.js';

const TEXT_CHUNK = 64;

function send(response: ServerResponse, event: string, data: object): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

/**
 * Streams a message as the API does: message_start (input usage), ping, then
 * per block content_block_start / _delta / _stop (text_delta, input_json_delta,
 * thinking_delta + signature_delta, compaction_delta), message_delta (stop reason, output usage),
 * message_stop; features' top-level fields ride on message_delta. With `failAfterStart`, an `event: error` follows the ping.
 * With `pauseAfterFirstBlockMs`, the stream stops that long after its first content block (a slow model mid-reply).
 */
export async function streamMessage(
  response: ServerResponse,
  message: { id: string; model: string; turn: AssistantTurn; usage: WireUsage; extra?: Record<string, unknown> },
  failAfterStart?: ApiError,
  pauseAfterFirstBlockMs?: number,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send(response, 'message_start', {
    message: {
      id: message.id,
      type: 'message',
      role: 'assistant',
      model: message.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: 1 },
    },
  });
  send(response, 'ping', {});
  if (failAfterStart !== undefined) {
    response.end(
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: failAfterStart.type, message: failAfterStart.message } })}\n\n`,
    );
    return;
  }
  for (const [index, block] of message.turn.content.entries()) {
    sendBlock(response, block, index);
    send(response, 'content_block_stop', { index });
    if (
      index === 0 &&
      pauseAfterFirstBlockMs !== undefined &&
      !(await delayUnlessClosed(pauseAfterFirstBlockMs, response))
    )
      return;
  }
  // Top-level fields of features (context_management) travel on message_delta, as the API streams them.
  send(response, 'message_delta', {
    delta: { stop_reason: message.turn.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
    ...message.extra,
  });
  send(response, 'message_stop', {});
  response.end();
}

function sendBlock(response: ServerResponse, block: ContentBlock, index: number): void {
  const delta = (payload: object) => send(response, 'content_block_delta', { index, delta: payload });
  if (block.type === 'tool_use') {
    send(response, 'content_block_start', {
      index,
      content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} },
    });
    const json = JSON.stringify(block['input'] ?? {});
    for (const piece of chunks(json)) delta({ type: 'input_json_delta', partial_json: piece });
  } else if (block.type === 'thinking') {
    send(response, 'content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const piece of chunks(String(block['thinking'] ?? ''))) delta({ type: 'thinking_delta', thinking: piece });
    delta({ type: 'signature_delta', signature: String(block['signature'] ?? '') });
  } else if (block.type === 'text') {
    send(response, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of chunks(block.text ?? '')) delta({ type: 'text_delta', text: piece });
  } else if (block.type === 'compaction') {
    // As the API streams a compaction: an empty block, then its whole value in one compaction_delta.
    send(response, 'content_block_start', { index, content_block: { ...block, content: null } });
    const { content, encrypted_content: encrypted } = block as { content?: unknown; encrypted_content?: unknown };
    delta({
      type: 'compaction_delta',
      content: content ?? null,
      ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
    });
  } else {
    send(response, 'content_block_start', { index, content_block: block });
  }
}

function chunks(text: string): string[] {
  if (text.length === 0) return [''];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += TEXT_CHUNK) pieces.push(text.slice(start, start + TEXT_CHUNK));
  return pieces;
}
