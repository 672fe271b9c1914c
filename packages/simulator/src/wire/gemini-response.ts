import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-error.js';
import { geminiErrorBody, type GeminiPart, type GeminiUsageMetadata } from './gemini-wire.js';
import type { AssistantTurn, ContentBlock } from './wire.js';

const TEXT_CHUNK = 64;

/** A Messages stop reason as Gemini's `finishReason`. */
export function geminiFinishReason(stopReason: string): string {
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') return 'MAX_TOKENS';
  if (stopReason === 'refusal') return 'SAFETY';
  return 'STOP';
}

/**
 * A turn's blocks as Gemini parts: text, thinking as a `thought` part (its
 * signature as `thoughtSignature`), tool_use as a `functionCall` without an id
 * (the public API sends none; clients make their own).
 */
export function geminiPartsOf(turn: AssistantTurn): GeminiPart[] {
  return turn.content.flatMap((block): GeminiPart[] => {
    if (block.type === 'text') return [{ text: block.text ?? '' }];
    if (block.type === 'thinking') return [thoughtPart(block)];
    if (block.type === 'tool_use')
      return [{ functionCall: { name: String(block['name']), args: asArgs(block['input']) } }];
    return [];
  });
}

function thoughtPart(block: ContentBlock): GeminiPart {
  const signature = block['signature'];
  return {
    text: String(block['thinking'] ?? ''),
    thought: true,
    ...(typeof signature === 'string' && signature.length > 0 ? { thoughtSignature: signature } : {}),
  };
}

function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

export interface GenerateContentAnswer {
  responseId: string;
  model: string;
  turn: AssistantTurn;
  usage: GeminiUsageMetadata;
}

/** `GenerateContentResponse` as JSON. */
export function generateContentBody(answer: GenerateContentAnswer): object {
  return response(answer, geminiPartsOf(answer.turn), true);
}

function response(answer: GenerateContentAnswer, parts: GeminiPart[], last: boolean): object {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(last ? { finishReason: geminiFinishReason(answer.turn.stop_reason) } : {}),
        index: 0,
      },
    ],
    ...(last ? { usageMetadata: answer.usage } : {}),
    modelVersion: answer.model,
    responseId: answer.responseId,
  };
}

/**
 * `streamGenerateContent?alt=sse`: one `data:` event per piece (thoughts and
 * text in 64-character pieces, each function call whole), the last one with
 * `finishReason` and `usageMetadata`. With `failAfterStart`, an error object
 * follows the first piece (as a server failing mid-stream sends it).
 */
export function streamGenerateContent(
  serverResponse: ServerResponse,
  answer: GenerateContentAnswer,
  failAfterStart?: ApiError,
): void {
  serverResponse.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const pieces = geminiPartsOf(answer.turn).flatMap(split);
  if (pieces.length === 0) pieces.push({ text: '' });
  pieces.forEach((part, index) => {
    send(serverResponse, response(answer, [part], index === pieces.length - 1));
    if (index === 0 && failAfterStart !== undefined) {
      serverResponse.end(`data: ${geminiErrorBody(failAfterStart).body}\r\n\r\n`);
    }
  });
  if (!serverResponse.writableEnded) serverResponse.end();
}

function split(part: GeminiPart): GeminiPart[] {
  if (typeof part.text !== 'string' || part.text.length <= TEXT_CHUNK) return [part];
  const pieces: GeminiPart[] = [];
  for (let start = 0; start < part.text.length; start += TEXT_CHUNK) {
    const last = start + TEXT_CHUNK >= part.text.length;
    const { thoughtSignature: signature, ...rest } = part;
    pieces.push({
      ...rest,
      text: part.text.slice(start, start + TEXT_CHUNK),
      ...(last && signature !== undefined ? { thoughtSignature: signature } : {}),
    });
  }
  return pieces;
}

function send(serverResponse: ServerResponse, data: object): void {
  if (!serverResponse.writableEnded) serverResponse.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
}
