import { apiError, type ApiError } from '../wire/api-error.js';
import type {
  ResponsesContentPart,
  ResponsesInputItem,
  ResponsesRequest,
  ResponsesTool,
} from '../wire/responses-wire.js';
import type { ContentBlock, MessagesRequest, ToolSpec, WireMessage } from '../wire/wire.js';
import {
  fromLatestCompaction,
  validateCompactionItems,
  validateResponsesContextManagement,
} from '../features/responses-compaction.js';

const CALL_TYPES: Record<string, string> = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  local_shell_call: 'local_shell_call_output',
};
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
 * The same conversation as a Messages request, so the tokenizer, the cache,
 * the responders and the summary detection serve this endpoint too:
 * `instructions`, system and developer messages become `system`; tool calls
 * become `tool_use` blocks and their outputs `tool_result` blocks; reasoning
 * becomes thinking; consecutive items of one role are one message. A
 * compaction item stands for everything before it and is read as its summary.
 */
export function responsesToMessagesRequest(request: ResponsesRequest): MessagesRequest {
  const system: string[] = typeof request.instructions === 'string' ? [request.instructions] : [];
  const messages: WireMessage[] = [];
  const items: ResponsesInputItem[] =
    typeof request.input === 'string'
      ? [{ role: 'user', content: request.input }]
      : fromLatestCompaction(request.input ?? []);
  for (const item of items) {
    if ((item.type ?? 'message') === 'message' && (item.role === 'system' || item.role === 'developer')) {
      system.push(textOf(item.content));
      continue;
    }
    const { role, blocks } = toBlocks(item);
    if (blocks.length === 0) continue;
    const previous = messages.at(-1);
    if (previous !== undefined && previous.role === role && Array.isArray(previous.content))
      previous.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  const tools = (request.tools ?? []).flatMap(toToolSpec);
  return {
    model: request.model,
    max_tokens: request.max_output_tokens ?? 0,
    messages,
    ...(system.length === 0 ? {} : { system: system.join('\n\n') }),
    ...(tools.length === 0 ? {} : { tools }),
  };
}

/** Names of the request's `custom` (free-form input) tools. */
export function customToolNames(request: ResponsesRequest): Set<string> {
  return new Set((request.tools ?? []).filter((tool) => tool.type === 'custom').map((tool) => String(tool.name ?? '')));
}

function toBlocks(item: ResponsesInputItem): { role: 'user' | 'assistant'; blocks: ContentBlock[] } {
  const type = item.type ?? 'message';
  if (type === 'message') {
    const blocks = partsOf(item.content)
      .map(toBlock)
      .filter((block) => block.type !== 'text' || (block.text ?? '').length > 0);
    return { role: item.role === 'assistant' ? 'assistant' : 'user', blocks };
  }
  if (OUTPUT_TYPES.has(type))
    return {
      role: 'user',
      blocks: [{ type: 'tool_result', tool_use_id: String(item.call_id), content: outputText(item.output) }],
    };
  if (type === 'function_call')
    return { role: 'assistant', blocks: [toolUse(item, parseArguments(item.arguments ?? ''))] };
  if (type === 'custom_tool_call') return { role: 'assistant', blocks: [toolUse(item, { input: item.input ?? '' })] };
  if (type === 'reasoning') {
    const thinking = (item.summary ?? []).map((part) => part.text).join('\n');
    return { role: 'assistant', blocks: thinking.length === 0 ? [] : [{ type: 'thinking', thinking, signature: '' }] };
  }
  // Other items the model produced (local_shell_call, web_search_call, …) count as their JSON.
  return { role: 'assistant', blocks: [{ ...item, type }] };
}

function toolUse(item: ResponsesInputItem, input: unknown): ContentBlock {
  return { type: 'tool_use', id: String(item.call_id), name: String(item.name ?? item.type), input };
}

function toBlock(part: ResponsesContentPart): ContentBlock {
  if (part.type === 'input_image') return { type: 'image', source: { type: 'url', url: part.image_url ?? '' } };
  return { type: 'text', text: part.text ?? '' };
}

function partsOf(content: ResponsesInputItem['content']): ResponsesContentPart[] {
  if (content === undefined || content === null) return [];
  return typeof content === 'string' ? [{ type: 'input_text', text: content }] : content;
}

function textOf(content: ResponsesInputItem['content']): string {
  return partsOf(content)
    .map((part) => part.text ?? '')
    .join('');
}

function outputText(output: ResponsesInputItem['output']): string {
  if (output === undefined) return '';
  return typeof output === 'string' ? output : output.map((part) => part.text ?? '').join('');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}

function toToolSpec(tool: ResponsesTool): ToolSpec[] {
  if (tool.type === 'function')
    return [
      {
        name: String(tool.name),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: tool.parameters ?? { type: 'object' },
      },
    ];
  if (tool.type === 'custom')
    return [
      {
        name: String(tool.name),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
      },
    ];
  // Hosted tools (web_search, local_shell, …) run on the server: the simulator counts them as their JSON.
  return [{ ...tool, name: tool.type }];
}
