import { createHash } from 'node:crypto';
import { messageBlocks } from '../wire/tokenizer.js';
import type { AssistantTurn, MessagesRequest, ToolSpec } from '../wire/wire.js';

/**
 * The default responder's tool call: when tools are offered and the last user
 * message is not already a tool result, call the first tool, filling each
 * required string property with the last user text (numbers 1, booleans
 * true). The id is derived from the request, so runs repeat.
 */
export function toolUseTurn(request: MessagesRequest, lastUserText: string): AssistantTurn | undefined {
  const tool = request.tools?.find(
    (candidate) => typeof candidate.name === 'string' && candidate['type'] === undefined,
  );
  const last = request.messages.at(-1);
  if (tool === undefined || last === undefined || last.role !== 'user') return undefined;
  if (messageBlocks(last).some((block) => block.type === 'tool_result')) return undefined;
  const id = `toolu_sim_${createHash('sha256').update(JSON.stringify(request.messages)).digest('hex').slice(0, 16)}`;
  return {
    content: [
      { type: 'text', text: `Calling ${tool.name}.` },
      { type: 'tool_use', id, name: tool.name, input: inputFor(tool, lastUserText) },
    ],
    stop_reason: 'tool_use',
  };
}

function inputFor(tool: ToolSpec, text: string): Record<string, unknown> {
  const schema = (tool.input_schema ?? {}) as { properties?: Record<string, { type?: string }>; required?: string[] };
  const input: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    input[name] =
      type === 'number' || type === 'integer'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : text;
  }
  return input;
}
