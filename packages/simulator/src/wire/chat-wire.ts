import type { ApiError } from './api-error.js';

/** The Chat Completions shapes the simulator reads and writes (OpenAI's JSON, as OpenAI-compatible servers speak it); the request's live in core. */
export type { ChatContentPart, ChatToolCall, ChatMessage, ChatTool, ChatCompletionRequest } from '@ctxhost/core';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

/**
 * An error as OpenAI-compatible servers answer it: `{ error: { message, type, param, code } }`.
 * Anthropic's 529 (overloaded) is OpenAI's 503; 5xx are `server_error`.
 */
export function chatErrorBody(error: ApiError): { status: number; body: string } {
  const status = error.status === 529 ? 503 : error.status;
  const type = status >= 500 ? 'server_error' : error.type;
  return {
    status,
    body: JSON.stringify({
      error: { message: error.message, type, param: error.param ?? null, code: error.code ?? null },
    }),
  };
}
