import type { ServerResponse } from 'node:http';
import type { AssistantTurn, WireUsage } from './wire.js';

function send(response: ServerResponse, event: string, data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`);
}

/** Streams a message as the API does: message_start, ping, block events, message_delta, message_stop. */
export function streamMessage(response: ServerResponse, message: { id: string; model: string; turn: AssistantTurn; usage: WireUsage }, failAfterStart?: { type: string; message: string }): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send(response, 'message_start', {
    message: { id: message.id, type: 'message', role: 'assistant', model: message.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  send(response, 'ping', {});
  if (failAfterStart !== undefined) {
    response.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: failAfterStart })}\n\n`);
    return;
  }
  message.turn.content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      send(response, 'content_block_start', { index, content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} } });
      send(response, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input'] ?? {}) } });
    } else if (block.type === 'thinking') {
      send(response, 'content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      send(response, 'content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block['thinking'] } });
      send(response, 'content_block_delta', { index, delta: { type: 'signature_delta', signature: block['signature'] } });
    } else {
      send(response, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of chunks(block.text ?? '', 64)) send(response, 'content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    }
    send(response, 'content_block_stop', { index });
  });
  send(response, 'message_delta', { delta: { stop_reason: message.turn.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } });
  send(response, 'message_stop', {});
  response.end();
}

function chunks(text: string, size: number): string[] {
  if (text.length === 0) return [''];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
