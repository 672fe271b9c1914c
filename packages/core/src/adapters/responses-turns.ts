import { parseArguments } from './chat-turns.js';
import type {
  ContentBlock,
  ResponsesContentPart,
  ResponsesInputItem,
  ResponsesRequest,
  ResponsesTool,
  ToolSpec,
} from './wire-request-types.js';
import { pushTurn, type WireTurns } from './wire-turns.js';

/** Each Responses tool-call item type, and the type of the item that answers it. */
export const RESPONSES_CALL_TYPES: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  local_shell_call: 'local_shell_call_output',
};
const OUTPUT_TYPES = new Set(Object.values(RESPONSES_CALL_TYPES));

/**
 * A Responses request as a Messages request: `instructions`, system and
 * developer messages become `system`; tool calls become `tool_use` blocks and
 * their outputs `tool_result` blocks; reasoning becomes thinking; consecutive
 * items of one role are one message. A string `input` is one user message (source index 0).
 */
export function readResponsesRequest(request: ResponsesRequest): WireTurns {
  const system: string[] = typeof request.instructions === 'string' ? [request.instructions] : [];
  const turns: WireTurns = {
    request: { model: request.model, max_tokens: 0, messages: [] },
    sources: [],
    systemSources: [],
  };
  const items: ResponsesInputItem[] =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : (request.input ?? []);
  // Items that read as nothing (a reasoning item with only encrypted content) travel with the next message.
  let carried: number[] = [];
  for (const [index, item] of items.entries()) {
    if ((item.type ?? 'message') === 'message' && (item.role === 'system' || item.role === 'developer')) {
      system.push(textOf(item.content));
      turns.systemSources.push(index);
      continue;
    }
    const { role, blocks } = toBlocks(item);
    if (blocks.length === 0) {
      carried.push(index);
      continue;
    }
    pushTurn(turns, role, blocks, [...carried, index], true);
    carried = [];
  }
  if (carried.length > 0) turns.sources.at(-1)?.push(...carried);
  const tools = (request.tools ?? []).flatMap(toToolSpec);
  turns.request.max_tokens = request.max_output_tokens ?? 0;
  if (system.length > 0) turns.request.system = system.join('\n\n');
  if (tools.length > 0) turns.request.tools = tools;
  return turns;
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
  // Hosted tools (web_search, local_shell, …) run on the server: counted as their JSON.
  return [{ ...tool, name: tool.type }];
}
