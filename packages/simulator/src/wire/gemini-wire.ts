import type { ApiError } from './api-error.js';

/** The Gemini API shapes the simulator reads and writes (`generateContent`, as `@google/genai` and Gemini CLI send it); the request's live in core. */
export type {
  GeminiFunctionCall,
  GeminiFunctionResponse,
  GeminiPart,
  GeminiContent,
  GeminiFunctionDeclaration,
  GeminiTool,
  GenerateContentRequest,
} from '@ctxhost/core';

export interface GeminiUsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** Gemini's status names by HTTP status (google.rpc.Code as the API spells it). */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/**
 * An error as the Gemini API answers it: `{ error: { code, message, status } }`.
 * Anthropic's 529 (overloaded) is Gemini's 503 UNAVAILABLE; a body over the
 * byte limit (413) is a 400, as Gemini has no 413.
 */
export function geminiErrorBody(error: ApiError): { status: number; body: string } {
  const status = error.status === 529 ? 503 : error.status === 413 ? 400 : error.status;
  const name = STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  return { status, body: JSON.stringify({ error: { code: status, message: error.message, status: name } }) };
}
