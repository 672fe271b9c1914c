import { apiError, type ApiError } from '../wire/api-error.js';
import { readResponsesRequest, RESPONSES_CALL_TYPES as CALL_TYPES } from '@ctxhost/core';
import type { ResponsesInputItem, ResponsesRequest } from '../wire/responses-wire.js';
import type { MessagesRequest } from '../wire/wire.js';
import {
  fromLatestCompaction,
  validateCompactionItems,
  validateResponsesContextManagement,
} from '../features/responses-compaction.js';

const OUTPUT_TYPES = new Set(Object.values(CALL_TYPES));

/**
 * The rules of the Responses API the simulator enforces, with OpenAI's texts:
 * a model, an input that is a string or a list of items, no
 * `previous_response_id` (the simulator keeps no responses), and tool calls
 * paired with their outputs (shape rules: what ctxhost promises never to send).
 */
export function validateResponsesRequest(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return apiError(400, 'request body must be a JSON object');
  const request = body as Partial<ResponsesRequest>;
  if (typeof request.model !== 'string' || request.model.length === 0)
    return apiError(400, "Missing required parameter: 'model'.", {
      param: 'model',
      code: 'missing_required_parameter',
    });
  if (typeof request.previous_response_id === 'string')
    return apiError(400, `Previous response with id '${request.previous_response_id}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  const contextManagement = validateResponsesContextManagement(request as ResponsesRequest);
  if (contextManagement) return contextManagement;
  if (request.input === undefined || typeof request.input === 'string') return undefined;
  if (!Array.isArray(request.input))
    return apiError(400, "Invalid type for 'input': expected a string or an array of input items.", {
      param: 'input',
      code: 'invalid_type',
      shape: true,
    });
  return validateItems(request.input) ?? validateCompactionItems(request.input);
}

function validateItems(items: ResponsesInputItem[]): ApiError | undefined {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (typeof item !== 'object' || item === null)
      return apiError(400, `Invalid type for 'input[${index}]': expected an object.`, {
        param: `input[${index}]`,
        code: 'invalid_type',
        shape: true,
      });
    const type = item.type ?? 'message';
    if (type in CALL_TYPES) calls.add(String(item.call_id));
    if (!OUTPUT_TYPES.has(type)) continue;
    if (!calls.has(String(item.call_id)))
      return apiError(400, `No tool call found for function call output with call_id ${String(item.call_id)}.`, {
        param: 'input',
        shape: true,
      });
    answered.add(String(item.call_id));
  }
  const open = [...calls].find((id) => !answered.has(id));
  if (open !== undefined)
    return apiError(400, `No tool output found for function call ${open}.`, { param: 'input', shape: true });
  return undefined;
}

/**
 * The same conversation as a Messages request (core's reading, shared with the gateway), so the
 * tokenizer, the cache, the responders and the summary detection serve this endpoint too. A
 * compaction item stands for everything before it and is read as its summary.
 */
export function responsesToMessagesRequest(request: ResponsesRequest): MessagesRequest {
  const input = typeof request.input === 'string' ? request.input : fromLatestCompaction(request.input ?? []);
  return readResponsesRequest({ ...request, input }).request;
}

/** Names of the request's `custom` (free-form input) tools. */
export function customToolNames(request: ResponsesRequest): Set<string> {
  return new Set((request.tools ?? []).filter((tool) => tool.type === 'custom').map((tool) => String(tool.name ?? '')));
}
