/**
 * The bench conversation in the OpenAI SDK's two shapes, for the `withContextManagement` wrapper of
 * `@ctxhost/openai` (bench/integrations/adapters.ts): Chat Completions messages and Responses input items.
 */
import type OpenAI from 'openai';
import type { NeutralMessage } from '../integration-scenarios.js';

export function toChatMessages(system: string, messages: NeutralMessage[]): OpenAI.Chat.ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: system },
    ...messages.map((message): OpenAI.Chat.ChatCompletionMessageParam => {
      if (message.role === 'user') return { role: 'user', content: message.text };
      if (message.role === 'tool') return { role: 'tool', tool_call_id: message.callId, content: message.output };
      return {
        role: 'assistant',
        content: message.text,
        ...(message.call === undefined
          ? {}
          : {
              tool_calls: [
                {
                  id: message.call.id,
                  type: 'function' as const,
                  function: { name: message.call.name, arguments: JSON.stringify(message.call.input) },
                },
              ],
            }),
      };
    }),
  ];
}

export function toResponsesInput(messages: NeutralMessage[]): OpenAI.Responses.ResponseInputItem[] {
  return messages.flatMap((message): OpenAI.Responses.ResponseInputItem[] => {
    if (message.role === 'user') return [{ role: 'user', content: message.text }];
    if (message.role === 'tool')
      return [{ type: 'function_call_output', call_id: message.callId, output: message.output }];
    return [
      { role: 'assistant', content: message.text },
      ...(message.call === undefined
        ? []
        : [
            {
              type: 'function_call' as const,
              call_id: message.call.id,
              name: message.call.name,
              arguments: JSON.stringify(message.call.input),
            },
          ]),
    ];
  });
}

/** The tool the conversations call, declared as the caller's own loop would. */
export const READ_FILE_PARAMETERS = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
} as const;
