import { readResponsesRequest, type Message, type ResponsesInputItem, type ResponsesRequest } from '@ctxhost/core';
import { firstTurnIndex } from './chat-protocol.js';
import { openAIErrorBody, openAIUsage } from './openai-usage.js';
import type { PromptItem } from './prompt-item.js';
import { responsesToolRounds } from './responses-tool-rounds.js';
import { objectOf, toolDefinitions } from './tool-definitions.js';
import type { WireProtocol } from './wire-protocol.js';
import { promptOf, rebuildItems, resultText } from './write-back.js';

/** OpenAI's Responses API: `POST …/responses`. A string `input` is one user message. */
export const responsesProtocol: WireProtocol = {
  name: 'openai-responses',
  match: (method, path) => (method === 'POST' && path.endsWith('/responses') ? {} : undefined),
  read(body) {
    const request = body as ResponsesRequest;
    if (typeof request.previous_response_id === 'string')
      throw new TypeError('previous_response_id: the provider holds the history, not the request');
    const turns = readResponsesRequest(request);
    return {
      model: String(request.model),
      stream: request.stream === true,
      ...promptOf(turns, itemsOf(request)),
      maxOutputTokens: turns.request.max_tokens,
      tools: toolDefinitions(turns.request.tools),
    };
  },
  write(body, read, messages, originals) {
    const items = itemsOf(body as ResponsesRequest);
    const leading = items.slice(0, Math.max(0, firstTurnIndex(read)));
    return { ...body, input: rebuildItems(read, messages, originals, writeItems, leading) };
  },
  offerTool(body, tool) {
    const tools = Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : [];
    return {
      ...body,
      tools: [
        ...tools,
        {
          type: 'function',
          name: tool.name,
          description: tool.description,
          parameters: tool.inputSchema,
          strict: false,
        },
      ],
    };
  },
  usageOf(reply) {
    const object = objectOf(reply);
    const usage = objectOf(object?.['usage']) ?? objectOf(objectOf(object?.['response'])?.['usage']);
    return usage === undefined ? undefined : openAIUsage(usage);
  },
  errorBody: openAIErrorBody,
  toolRounds: responsesToolRounds,
};

function itemsOf(request: ResponsesRequest): ResponsesInputItem[] {
  return typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : (request.input ?? []);
}

/** A message ctxhost changed or made, as Responses items; a tool output keeps its own item's type and fields. */
function writeItems(message: Message, source: PromptItem | undefined): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  const text: string[] = [];
  const flush = () => {
    if (text.length === 0) return;
    const assistant = message.role === 'assistant';
    items.push({
      type: 'message',
      role: assistant ? 'assistant' : 'user',
      content: [{ type: assistant ? 'output_text' : 'input_text', text: text.join('\n\n') }],
    });
    text.length = 0;
  };
  for (const part of message.parts) {
    if (part.type === 'text') text.push(part.text);
    else if (part.type === 'tool-call') {
      flush();
      items.push(
        sourceItem(source, part.callId, 'call') ?? {
          type: 'function_call',
          call_id: part.callId,
          name: part.name,
          arguments: JSON.stringify(part.input),
        },
      );
    } else if (part.type === 'tool-result') {
      flush();
      const own = sourceItem(source, part.callId, 'output');
      items.push(
        own === undefined
          ? { type: 'function_call_output', call_id: part.callId, output: resultText(part) }
          : { ...own, output: resultText(part) },
      );
    }
  }
  flush();
  return items;
}

/** The caller's own call or output item for `callId`, when this message was read from one. */
function sourceItem(
  source: PromptItem | undefined,
  callId: string,
  kind: 'call' | 'output',
): ResponsesInputItem | undefined {
  return (source?.raw as ResponsesInputItem[] | undefined)?.find(
    (item) => item.call_id === callId && (item.type ?? '').endsWith('_output') === (kind === 'output'),
  );
}
