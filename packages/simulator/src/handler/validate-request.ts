import { invalid, type ApiError } from '../wire/api-error.js';
import { messageBlocks, systemBlocks } from '../wire/tokenizer.js';
import type { ContentBlock, MessagesRequest } from '../wire/wire.js';

const USER_BLOCKS = new Set(['text', 'image', 'document', 'tool_result', 'search_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The Messages API's request rules the simulator enforces, first failure
 * wins. Texts follow the real API's (see the README's table).
 */
export interface ValidateOptions {
  /** count_tokens: no max_tokens. */
  countOnly?: boolean;
  /** Content types accepted besides the API's own (those of active server-side features). */
  extraBlockTypes?: readonly string[];
}

export function validateRequest(body: unknown, options: ValidateOptions = {}): ApiError | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return invalid('request body must be a JSON object', false);
  const request = body as Partial<MessagesRequest>;
  if (typeof request.model !== 'string' || request.model.length === 0) return invalid('model: Field required', false);
  if (!options.countOnly) {
    const problem = validateMaxTokens(request.max_tokens);
    if (problem) return problem;
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    return invalid('messages: at least one message is required');
  const extra = options.extraBlockTypes ?? [];
  return (
    validateTools(request.tools) ??
    validateSystem(request.system) ??
    validateMessages(request as MessagesRequest, extra) ??
    validateCacheControl(request as MessagesRequest)
  );
}

function validateMaxTokens(maxTokens: unknown): ApiError | undefined {
  if (maxTokens === undefined || maxTokens === null) return invalid('max_tokens: Field required', false);
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens))
    return invalid('max_tokens: Input should be a valid integer', false);
  return maxTokens < 1 ? invalid('max_tokens: Input should be greater than or equal to 1', false) : undefined;
}

/**
 * A custom tool (no `type`, or `type: "custom"`) needs a name and an
 * `input_schema` object; server tools (`bash_20250124`, `web_search_…`) carry
 * their own. The API words a missing schema `tools.N.custom.input_schema: Field required`.
 */
function validateTools(tools: unknown): ApiError | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return invalid('tools: Input should be a valid list', false);
  for (const [index, tool] of tools.entries()) {
    if (typeof tool !== 'object' || tool === null || Array.isArray(tool))
      return invalid(`tools.${index}: Input should be a valid dictionary or object`, false);
    const { type, name, input_schema: schema } = tool as Record<string, unknown>;
    if (type !== undefined && type !== null && type !== 'custom') continue;
    if (typeof name !== 'string') return invalid(`tools.${index}.custom.name: Field required`, false);
    if (schema === undefined || schema === null)
      return invalid(`tools.${index}.custom.input_schema: Field required`, false);
    if (typeof schema !== 'object' || Array.isArray(schema))
      return invalid(`tools.${index}.custom.input_schema: Input should be a valid dictionary or object`, false);
  }
  return undefined;
}

function validateSystem(system: unknown): ApiError | undefined {
  if (system === undefined || typeof system === 'string') return undefined;
  if (!Array.isArray(system)) return invalid('system: Input should be a valid string or a list of text blocks');
  const bad = system.findIndex((block) => (block as ContentBlock)?.type !== 'text');
  if (bad >= 0)
    return invalid(
      `system.${bad}.type: Input tag '${String((system[bad] as ContentBlock)?.type)}' found using 'type' does not match any of the expected tags: 'text'`,
    );
  const empty = system.findIndex((block) => (block as ContentBlock).text === '');
  return empty >= 0 ? invalid(`system.${empty}.text: text content blocks must be non-empty`) : undefined;
}

function validateMessages(request: MessagesRequest, extra: readonly string[]): ApiError | undefined {
  const { messages } = request;
  // A compaction block stands for what came before it: a conversation may open with the assistant message that carries it.
  if (messages[0]?.role !== 'user' && !opensWithCompaction(messages[0], extra))
    return invalid('messages: first message must use the "user" role');
  for (let index = 0; index < messages.length; index++) {
    const problem = validateMessage(request, index, extra);
    if (problem) return problem;
  }
  return undefined;
}

function validateMessage(request: MessagesRequest, index: number, extra: readonly string[]): ApiError | undefined {
  const message = request.messages[index]!;
  if (message.role !== 'user' && message.role !== 'assistant')
    return invalid(`messages.${index}.role: Input should be 'user' or 'assistant'`);
  const isFinalAssistant = index === request.messages.length - 1 && message.role === 'assistant';
  if (typeof message.content !== 'string' && !Array.isArray(message.content))
    return invalid(`messages.${index}.content: Input should be a valid string or a list of content blocks`);
  const blocks = message.content === '' ? [] : messageBlocks(message);
  const empty = typeof message.content === 'string' ? message.content.length === 0 : blocks.length === 0;
  if (empty && !isFinalAssistant)
    return invalid(
      `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
    );
  const allowed = message.role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS;
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k]!;
    if (typeof block !== 'object' || block === null)
      return invalid(`messages.${index}.content.${k}: Input should be a valid dictionary or object`);
    if (!allowed.has(String(block.type)) && !extra.includes(String(block.type))) {
      return invalid(
        `messages.${index}.content.${k}.type: Input tag '${String(block?.type)}' found using 'type' does not match any of the expected tags: ${[...allowed].map((tag) => `'${tag}'`).join(', ')}`,
      );
    }
    if (block.type === 'text' && (typeof block.text !== 'string' || block.text.length === 0))
      return invalid(`messages.${index}.content.${k}.text: text content blocks must be non-empty`);
  }
  return validatePairing(request, index, blocks);
}

function validatePairing(request: MessagesRequest, index: number, blocks: ContentBlock[]): ApiError | undefined {
  const message = request.messages[index]!;
  if (message.role === 'user') {
    const previous = request.messages[index - 1];
    const calls = new Set(
      previous?.role === 'assistant'
        ? messageBlocks(previous)
            .filter((b) => b.type === 'tool_use')
            .map((b) => String(b['id']))
        : [],
    );
    for (let k = 0; k < blocks.length; k++) {
      const block = blocks[k]!;
      if (block.type === 'tool_result' && !calls.has(String(block['tool_use_id']))) {
        return invalid(
          `messages.${index}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block['tool_use_id'])}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
    return undefined;
  }
  const next = request.messages[index + 1];
  if (next === undefined) return undefined;
  const answered = new Set(
    messageBlocks(next)
      .filter((b) => b.type === 'tool_result')
      .map((b) => String(b['tool_use_id'])),
  );
  const missing = blocks
    .filter((b) => b.type === 'tool_use' && !answered.has(String(b['id'])))
    .map((b) => String(b['id']));
  if (missing.length > 0) {
    return invalid(
      `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  }
  return undefined;
}

function validateCacheControl(request: MessagesRequest): ApiError | undefined {
  const marked = [
    ...(request.tools ?? []),
    ...systemBlocks(request.system),
    ...request.messages.flatMap((message) => messageBlocks(message)),
  ].filter((block) => block.cache_control !== undefined && block.cache_control !== null).length;
  return marked > MAX_CACHE_BREAKPOINTS
    ? invalid(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked}.`)
    : undefined;
}

function opensWithCompaction(
  message: MessagesRequest['messages'][number] | undefined,
  extra: readonly string[],
): boolean {
  if (message?.role !== 'assistant' || !extra.includes('compaction') || typeof message.content === 'string')
    return false;
  return message.content[0]?.type === 'compaction';
}
