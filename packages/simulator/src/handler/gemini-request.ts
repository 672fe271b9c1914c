import { apiError, type ApiError } from '../wire/api-error.js';
import { readGenerateContentRequest } from '@ctxhost/core';
import type { GeminiContent, GenerateContentRequest } from '../wire/gemini-wire.js';
import type { MessagesRequest } from '../wire/wire.js';

const ROLES = ['user', 'model'];

/**
 * The rules of `generateContent` the simulator enforces, in the Gemini API's
 * own words (the function-call pairing ones are shape rules: what a client must
 * never send). A model turn with function calls must follow a user turn, and
 * the turn after it must answer every call with a `functionResponse` part.
 */
export function validateGenerateContentRequest(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return apiError(400, 'Invalid JSON payload received. Expected an object.');
  const contents = (body as Partial<GenerateContentRequest>).contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return apiError(400, '* GenerateContentRequest.contents: contents is not specified\n', { shape: true });
  for (const [index, content] of contents.entries()) {
    const problem = validateContent(contents, content, index);
    if (problem) return problem;
  }
  return undefined;
}

function validateContent(contents: GeminiContent[], content: GeminiContent, index: number): ApiError | undefined {
  if (typeof content !== 'object' || content === null || !Array.isArray(content.parts))
    return apiError(400, `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`, {
      shape: true,
    });
  if (content.role !== undefined && !ROLES.includes(content.role))
    return apiError(400, 'Please use a valid role: user, model.', { shape: true });
  if (content.parts.length === 0)
    return apiError(400, `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`, {
      shape: true,
    });
  const calls = content.parts.filter((part) => part.functionCall !== undefined).length;
  if (calls === 0) return undefined;
  const previous = contents[index - 1];
  if (previous === undefined || (previous.role ?? 'user') !== 'user')
    return apiError(
      400,
      'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
      { shape: true },
    );
  const next = contents[index + 1];
  if (next === undefined) return undefined;
  const responses = next.parts.filter((part) => part.functionResponse !== undefined).length;
  if (responses !== calls)
    return apiError(
      400,
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      { shape: true },
    );
  return undefined;
}

/** The same conversation as a Messages request (core's reading, shared with the gateway), so the tokenizer, the cache and the responders serve every endpoint. */
export function geminiToMessagesRequest(model: string, request: GenerateContentRequest): MessagesRequest {
  return readGenerateContentRequest(model, request).request;
}
