import { apiError, type ApiError } from '../wire/api-error.js';
import { readChatRequest } from '@ctxhost/core';
import type { ChatCompletionRequest, ChatMessage } from '../wire/chat-wire.js';
import type { MessagesRequest } from '../wire/wire.js';

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];

/**
 * The rules of Chat Completions the simulator enforces, with OpenAI's texts
 * (the tool-pairing ones are shape rules: what ctxhost promises never to send).
 */
export function validateChatRequest(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return apiError(400, 'request body must be a JSON object');
  const request = body as Partial<ChatCompletionRequest>;
  if (typeof request.model !== 'string' || request.model.length === 0)
    return apiError(400, 'you must provide a model parameter');
  if (request.messages === undefined)
    return apiError(400, "Missing required parameter: 'messages'.", {
      param: 'messages',
      code: 'missing_required_parameter',
    });
  if (!Array.isArray(request.messages))
    return apiError(400, "Invalid type for 'messages': expected an array of objects.", {
      param: 'messages',
      code: 'invalid_type',
    });
  if (request.messages.length === 0) {
    return apiError(
      400,
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      { param: 'messages', code: 'empty_array', shape: true },
    );
  }
  return validateMessages(request.messages);
}

function validateMessages(messages: ChatMessage[]): ApiError | undefined {
  let open: { index: number; ids: Set<string> } | undefined;
  for (const [index, message] of messages.entries()) {
    if (typeof message !== 'object' || message === null)
      return apiError(400, `Invalid type for 'messages[${index}]': expected an object.`, {
        param: `messages[${index}]`,
        code: 'invalid_type',
        shape: true,
      });
    if (!ROLES.includes(message.role)) {
      return apiError(
        400,
        `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        { param: `messages[${index}].role`, code: 'invalid_value', shape: true },
      );
    }
    if (message.role === 'tool') {
      if (open === undefined || typeof message.tool_call_id !== 'string' || !open.ids.has(message.tool_call_id)) {
        return apiError(
          400,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          { param: `messages.[${index}].role`, shape: true },
        );
      }
      open.ids.delete(message.tool_call_id);
      continue;
    }
    if (open !== undefined && open.ids.size > 0) return unanswered(open.index, open.ids);
    open =
      message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0
        ? { index, ids: new Set(message.tool_calls.map((call) => call.id)) }
        : undefined;
    if (
      (message.role === 'user' || message.role === 'system' || message.role === 'developer') &&
      (message.content === undefined || message.content === null)
    ) {
      return apiError(400, `Invalid value for 'content': expected a string, got null.`, {
        param: `messages.[${index}].content`,
        shape: true,
      });
    }
  }
  // Calls left open by the last message are fine only when nothing follows them (the model answers them next).
  return undefined;
}

function unanswered(index: number, ids: Set<string>): ApiError {
  return apiError(
    400,
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(', ')}`,
    {
      param: `messages.[${index}].role`,
      shape: true,
    },
  );
}

/** The same conversation as a Messages request (core's reading, shared with the gateway), so the tokenizer, the cache, the responders and the summary detection serve both endpoints. */
export function toMessagesRequest(request: ChatCompletionRequest): MessagesRequest {
  return readChatRequest(request).request;
}
