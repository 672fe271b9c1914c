import type { JsonValue } from '@ctxhost/core';
import { relayAnthropicRounds } from './anthropic-stream-rounds.js';
import { objectOf } from './tool-definitions.js';
import type { ReplyToolCall, ToolRounds } from './wire-protocol.js';

/** Tool rounds on the Messages API: `tool_use` blocks in the reply, `tool_result` blocks in the next user turn. */
export const anthropicToolRounds: ToolRounds = {
  callsOf(reply) {
    const content = objectOf(reply)?.['content'];
    if (!Array.isArray(content)) return [];
    const calls: ReplyToolCall[] = [];
    for (const block of content) {
      const object = objectOf(block);
      if (object?.['type'] !== 'tool_use') continue;
      calls.push({
        id: String(object['id']),
        name: String(object['name']),
        input: (object['input'] ?? {}) as JsonValue,
      });
    }
    return calls;
  },
  continueWith(body, reply, answers) {
    const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
    const content = objectOf(reply)?.['content'];
    return {
      ...body,
      messages: [
        ...messages,
        { role: 'assistant', content },
        {
          role: 'user',
          content: answers.map((answer) => ({
            type: 'tool_result',
            tool_use_id: answer.callId,
            content: answer.output,
            ...(answer.isError === true ? { is_error: true } : {}),
          })),
        },
      ],
    };
  },
  joinRounds(earlier, final, toolName) {
    const reply = objectOf(final);
    if (reply === undefined || !Array.isArray(reply['content'])) return final;
    const said = earlier.flatMap((round): unknown[] => {
      const content: unknown = objectOf(round)?.['content'];
      if (!Array.isArray(content)) return [];
      const call = content.findIndex(
        (block) => objectOf(block)?.['type'] === 'tool_use' && objectOf(block)?.['name'] === toolName,
      );
      return call < 0 ? content : content.slice(0, call);
    });
    return { ...reply, content: [...said, ...(reply['content'] as unknown[])] };
  },
  relayStream: relayAnthropicRounds,
};
