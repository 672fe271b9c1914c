/**
 * The framework-neutral conversation as the Anthropic SDK's own `messages` (a tool's result is a user
 * turn of `tool_result` blocks, merged with user text that follows it), for the SDK wrapper
 * (`withContextManagement` of `@ctxhost/anthropic`) in the integration contract and the stateless benches.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { NeutralMessage } from '../integration-scenarios.js';

/** The read_file tool the conversations call, declared as the caller's own loop would. */
export const READ_FILE_TOOL: Anthropic.Tool = {
  name: 'read_file',
  description: 'Reads a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

export function toMessageParams(messages: NeutralMessage[]): Anthropic.MessageParam[] {
  const params: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    const param = toParam(message);
    const previous = params.at(-1);
    if (previous?.role === 'user' && param.role === 'user')
      params[params.length - 1] = { role: 'user', content: [...blocksOf(previous), ...blocksOf(param)] };
    else params.push(param);
  }
  return params;
}

function toParam(message: NeutralMessage): Anthropic.MessageParam {
  if (message.role === 'user') return { role: 'user', content: message.text };
  if (message.role === 'tool')
    return {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: message.callId, content: message.output }],
    };
  const content: Anthropic.ContentBlockParam[] = message.text === '' ? [] : [{ type: 'text', text: message.text }];
  if (message.call !== undefined)
    content.push({ type: 'tool_use', id: message.call.id, name: message.call.name, input: message.call.input });
  return { role: 'assistant', content };
}

function blocksOf(param: Anthropic.MessageParam): Anthropic.ContentBlockParam[] {
  return typeof param.content === 'string' ? [{ type: 'text', text: param.content }] : param.content;
}
