import { blockToPart, partToBlock } from './anthropic-blocks.js';
import type {
  AnthropicContentBlock,
  AnthropicMessageParam,
  AnthropicSystem,
  AnthropicTextBlock,
} from './anthropic-wire-types.js';
import { AdapterError } from '../errors.js';
import type { JsonValue, Message, MessageMeta, Part } from '../model/message.js';

/**
 * `meta.wire.anthropic` records how an imported message looked on the wire:
 * whether its content was a string or a block list. A message that carries it
 * is exactly one Anthropic turn and is never merged with its neighbours, which
 * is what makes Anthropic → ctxhost → Anthropic give back an equal value.
 */
type WireForm = 'string' | 'blocks';

export interface FromAnthropicOptions {
  /** Prefix of generated message ids (`msg-0`, `msg-1`, …); the system message is `<prefix>system`. */
  idPrefix?: string;
}

export interface ToAnthropicResult {
  system?: AnthropicSystem;
  messages: AnthropicMessageParam[];
}

/**
 * Anthropic `messages` (and `system`) → ctxhost messages. A user turn made only
 * of tool results becomes a `tool` message; one mixing results and text stays
 * a `user` message with both kinds of parts.
 */
export function fromAnthropic(
  messages: readonly AnthropicMessageParam[],
  system?: AnthropicSystem,
  options: FromAnthropicOptions = {},
): Message[] {
  const prefix = options.idPrefix ?? 'msg-';
  const result: Message[] = [];
  if (system !== undefined) result.push(systemMessage(system, `${prefix}system`));
  const list: unknown = messages;
  if (!Array.isArray(list))
    throw new AdapterError('messages', `expected a list of messages, got ${list === null ? 'null' : typeof list}`);
  messages.forEach((message, index) => {
    if (typeof message !== 'object' || message === null)
      throw new AdapterError(
        `messages[${index}]`,
        `expected a message object, got ${message === null ? 'null' : typeof message}`,
      );
    try {
      result.push(turnToMessage(message, `${prefix}${index}`, `messages[${index}]`));
    } catch (error) {
      // A malformed message (a block that is not an object, a value nested past the stack) is the caller's input: say where, never a raw TypeError or RangeError.
      if (error instanceof TypeError || error instanceof RangeError)
        throw new AdapterError(`messages[${index}]`, `a malformed message (${error.message})`);
      throw error;
    }
  });
  return result;
}

/**
 * ctxhost messages → Anthropic request params. Leading system messages become
 * `system`; `tool` messages travel as user turns of tool_result blocks, merged
 * with the user text that follows them (the API wants one user turn there).
 */
export function toAnthropic(messages: readonly Message[]): ToAnthropicResult {
  let start = 0;
  const systemParts: Part[] = [];
  let systemForm: WireForm = 'blocks';
  while (messages[start]?.role === 'system') {
    const message = messages[start]!;
    systemParts.push(...message.parts);
    systemForm = start === 0 && wireForm(message) === 'string' ? 'string' : 'blocks';
    start++;
  }
  const turns: { param: AnthropicMessageParam; exact: boolean; role: Message['role'] }[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    const where = `messages[${index}]`;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = message.parts.map((part, partIndex) =>
      partToBlock(checkedPart(part, message.role, `${where}.parts[${partIndex}]`), `${where}.parts[${partIndex}]`),
    );
    const contentBlocks =
      message.role === 'system' ? [{ type: 'text' as const, text: `[system] ${textOf(message)}` }] : blocks;
    const exact = wireForm(message) !== undefined;
    const previous = turns.at(-1);
    if (
      !exact &&
      previous !== undefined &&
      !previous.exact &&
      previous.param.role === 'user' &&
      role === 'user' &&
      (message.role === 'tool' || previous.role === 'tool')
    ) {
      previous.param.content = [...(previous.param.content as AnthropicContentBlock[]), ...contentBlocks];
      previous.role = message.role;
      continue;
    }
    turns.push({
      param: { role, content: renderContent(contentBlocks, wireForm(message)) },
      exact,
      role: message.role,
    });
  }
  const result: ToAnthropicResult = { messages: turns.map((turn) => turn.param) };
  if (systemParts.length > 0) result.system = renderSystem(systemParts, systemForm);
  return result;
}

function systemMessage(system: AnthropicSystem, id: string): Message {
  if (typeof system === 'string')
    return { id, role: 'system', parts: [{ id: `${id}:0`, type: 'text', text: system }], meta: wireMeta('string') };
  const parts = system.map((block, index) => blockToPart(block, `${id}:${index}`, `system[${index}]`));
  return { id, role: 'system', parts, meta: wireMeta('blocks') };
}

function turnToMessage(turn: AnthropicMessageParam, id: string, where: string): Message {
  if (turn.role !== 'user' && turn.role !== 'assistant')
    throw new AdapterError(`${where}.role`, `expected "user" or "assistant", got ${JSON.stringify(turn.role)}`);
  if (typeof turn.content === 'string') {
    return {
      id,
      role: turn.role,
      parts: [{ id: `${id}:0`, type: 'text', text: turn.content }],
      meta: wireMeta('string'),
    };
  }
  if (!Array.isArray(turn.content))
    throw new AdapterError(`${where}.content`, 'expected a string or a list of content blocks');
  const parts = turn.content.map((block, index) => blockToPart(block, `${id}:${index}`, `${where}.content[${index}]`));
  const onlyResults = parts.length > 0 && parts.every((part) => part.type === 'tool-result');
  const role = turn.role === 'user' && onlyResults ? 'tool' : turn.role;
  return { id, role, parts, meta: wireMeta('blocks') };
}

function checkedPart(part: Part, role: Message['role'], where: string): Part {
  const allowed: Record<Message['role'], readonly Part['type'][]> = {
    system: ['text'],
    user: ['text', 'image', 'file', 'tool-result'],
    tool: ['tool-result', 'text', 'image', 'file'],
    assistant: ['text', 'reasoning', 'tool-call'],
  };
  if (!allowed[role].includes(part.type))
    throw new AdapterError(where, `a ${role} message cannot carry a ${part.type} part in the Anthropic format`);
  return part;
}

function renderContent(blocks: AnthropicContentBlock[], form: WireForm | undefined): string | AnthropicContentBlock[] {
  const only = blocks[0];
  if (form === 'string' && blocks.length === 1 && only?.type === 'text' && Object.keys(only).length === 2)
    return only.text;
  return blocks;
}

function renderSystem(parts: Part[], form: WireForm): AnthropicSystem {
  const blocks = parts.map(
    (part, index) =>
      partToBlock(checkedPart(part, 'system', `system[${index}]`), `system[${index}]`) as AnthropicTextBlock,
  );
  const only = blocks[0];
  if (form === 'string' && blocks.length === 1 && only !== undefined && Object.keys(only).length === 2)
    return only.text;
  return blocks;
}

function textOf(message: Message): string {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function wireMeta(form: WireForm): MessageMeta {
  return { wire: { anthropic: form } satisfies Record<string, JsonValue> };
}

function wireForm(message: Message): WireForm | undefined {
  const wire = message.meta?.['wire'];
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) return undefined;
  const form = (wire as Record<string, JsonValue>)['anthropic'];
  return form === 'string' || form === 'blocks' ? form : undefined;
}
