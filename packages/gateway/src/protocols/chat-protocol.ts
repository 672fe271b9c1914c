import { readChatRequest, toOpenAI, type ChatCompletionRequest } from '@ctxhost/core';
import { chatToolRounds } from './chat-tool-rounds.js';
import { openAIErrorBody, openAIUsage } from './openai-usage.js';
import { objectOf, toolDefinitions } from './tool-definitions.js';
import type { WireProtocol } from './wire-protocol.js';
import { promptOf, rebuildItems } from './write-back.js';

/** OpenAI's Chat Completions (and every OpenAI-compatible server): `POST …/chat/completions`. */
export const chatProtocol: WireProtocol = {
  name: 'openai-chat',
  match: (method, path) => (method === 'POST' && path.endsWith('/chat/completions') ? {} : undefined),
  read(body) {
    const request = body as ChatCompletionRequest;
    if (!Array.isArray(request.messages)) throw new TypeError('messages: expected a list');
    const turns = readChatRequest(request);
    return {
      model: String(request.model),
      stream: request.stream === true,
      ...promptOf(turns, request.messages),
      maxOutputTokens: turns.request.max_tokens,
      tools: toolDefinitions(turns.request.tools),
    };
  },
  write(body, read, messages, originals) {
    const items = body['messages'] as unknown[];
    const leading = items.slice(0, Math.max(0, firstTurnIndex(read)));
    return {
      ...body,
      messages: rebuildItems(read, messages, originals, (message) => toOpenAI([message]), leading),
    };
  },
  offerTool(body, tool) {
    const tools = Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : [];
    return {
      ...body,
      tools: [
        ...tools,
        {
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        },
      ],
    };
  },
  usageOf(reply) {
    const usage = objectOf(objectOf(reply)?.['usage']);
    return usage === undefined ? undefined : openAIUsage(usage);
  },
  errorBody: openAIErrorBody,
  toolRounds: chatToolRounds,
};

/** Where the first message (not a system item) begins; items before it lead the request unchanged. */
export function firstTurnIndex(read: { prompt: readonly { kind: string; first: number }[] }): number {
  return read.prompt.find((item) => item.kind === 'turn')?.first ?? 0;
}
