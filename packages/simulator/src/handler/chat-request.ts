import { apiError, type ApiError } from '../wire/api-error.js';
import type { ChatCompletionRequest, ChatContentPart, ChatMessage } from '../wire/chat-wire.js';
import type { ContentBlock, MessagesRequest, ToolSpec, WireMessage } from '../wire/wire.js';

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

/**
 * The same conversation as a Messages request, so the tokenizer, the cache,
 * the responders and the summary detection serve both endpoints: system and
 * developer messages become `system`; tool messages become `tool_result`
 * blocks of one user turn; assistant tool calls become `tool_use` blocks.
 */
export function toMessagesRequest(request: ChatCompletionRequest): MessagesRequest {
  const system: string[] = [];
  const messages: WireMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(textOf(message.content));
      continue;
    }
    const blocks = toBlocks(message);
    const previous = messages.at(-1);
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    if (previous !== undefined && previous.role === role && role === 'user' && Array.isArray(previous.content))
      previous.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? 0;
  return {
    model: request.model,
    max_tokens: maxTokens,
    messages,
    ...(system.length === 0 ? {} : { system: system.join('\n\n') }),
    ...(request.tools === undefined ? {} : { tools: request.tools.map(toToolSpec) }),
  };
}

function toBlocks(message: ChatMessage): ContentBlock[] {
  if (message.role === 'tool')
    return [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: textOf(message.content) }];
  const blocks: ContentBlock[] = partsOf(message.content).map(toBlock);
  for (const call of message.tool_calls ?? [])
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseArguments(call.function.arguments),
    });
  return blocks.filter((block) => block.type !== 'text' || (block.text ?? '').length > 0);
}

function toBlock(part: ChatContentPart): ContentBlock {
  if (part.type === 'image_url') return { type: 'image', source: { type: 'url', url: part.image_url?.url ?? '' } };
  return { type: 'text', text: part.text ?? '' };
}

function partsOf(content: ChatMessage['content']): ChatContentPart[] {
  if (content === undefined || content === null) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function textOf(content: ChatMessage['content']): string {
  return partsOf(content)
    .map((part) => part.text ?? '')
    .join('');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}

function toToolSpec(tool: ChatCompletionRequest['tools'] extends (infer T)[] | undefined ? T : never): ToolSpec {
  return {
    name: tool.function.name,
    ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
    input_schema: tool.function.parameters ?? { type: 'object' },
  };
}
