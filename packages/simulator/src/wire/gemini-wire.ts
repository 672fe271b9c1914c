import type { ApiError } from './api-error.js';

/** The Gemini API shapes the simulator reads and writes (`generateContent`, as `@google/genai` and Gemini CLI send it). */
export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response?: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  [field: string]: unknown;
}

export interface GeminiContent {
  role?: string;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: unknown;
  parametersJsonSchema?: unknown;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  [field: string]: unknown;
}

export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent | string;
  tools?: GeminiTool[];
  generationConfig?: { maxOutputTokens?: number; [field: string]: unknown };
  [field: string]: unknown;
}

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
