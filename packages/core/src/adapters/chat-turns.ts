import type {
  ChatCompletionRequest,
  ChatContentPart,
  ChatMessage,
  ContentBlock,
  ToolSpec,
} from './wire-request-types.js';
import { pushTurn, type WireTurns } from './wire-turns.js';

/**
 * A Chat Completions request as a Messages request: system and developer
 * messages become `system`; tool messages become `tool_result` blocks of one
 * user turn; assistant tool calls become `tool_use` blocks.
 */
export function readChatRequest(request: ChatCompletionRequest): WireTurns {
  const system: string[] = [];
  const turns: WireTurns = {
    request: { model: request.model, max_tokens: 0, messages: [] },
    sources: [],
    systemSources: [],
  };
  for (const [index, message] of request.messages.entries()) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(textOf(message.content));
      turns.systemSources.push(index);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    // Consecutive user-side messages (tool results, then the user's text) are one user turn.
    pushTurn(turns, role, toBlocks(message), [index], role === 'user');
  }
  turns.request.max_tokens = request.max_completion_tokens ?? request.max_tokens ?? 0;
  if (system.length > 0) turns.request.system = system.join('\n\n');
  if (request.tools !== undefined) turns.request.tools = request.tools.map(toToolSpec);
  return turns;
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

/** Arguments as JSON; text that is not JSON is kept as `{ arguments: text }`. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}

function toToolSpec(tool: NonNullable<ChatCompletionRequest['tools']>[number]): ToolSpec {
  return {
    name: tool.function.name,
    ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
    input_schema: tool.function.parameters ?? { type: 'object' },
  };
}
