import {
  readGenerateContentRequest,
  type GeminiContent,
  type GeminiPart,
  type GenerateContentRequest,
  type Message,
} from '@ctxhost/core';
import { geminiToolRounds } from './gemini-tool-rounds.js';
import type { PromptItem } from './prompt-item.js';
import { numberOf, objectOf, toolDefinitions } from './tool-definitions.js';
import type { WireProtocol } from './wire-protocol.js';
import { mergeAdjacent, promptOf, rebuildItems, resultText } from './write-back.js';

/** `…/models/{model}:generateContent` and `:streamGenerateContent` (v1beta and v1). */
const ROUTE = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
};

/** Gemini's generateContent; the model and streaming are in the path. */
export const geminiProtocol: WireProtocol = {
  name: 'gemini',
  match(method, path) {
    const found = method === 'POST' ? ROUTE.exec(path) : null;
    if (found === null) return undefined;
    return { model: decodeURIComponent(found[1] ?? ''), stream: found[2] === 'streamGenerateContent' };
  },
  read(body, route) {
    const request = body as GenerateContentRequest;
    if (!Array.isArray(request.contents)) throw new TypeError('contents: expected a list');
    const turns = readGenerateContentRequest(route.model ?? '', request);
    return {
      model: route.model ?? '',
      stream: route.stream === true,
      ...promptOf(turns, request.contents),
      maxOutputTokens: turns.request.max_tokens,
      tools: toolDefinitions(turns.request.tools),
    };
  },
  write(body, read, messages, originals) {
    const written = new Set<GeminiContent>();
    const contents = rebuildItems(read, messages, originals, (message, source) => {
      const content = writeContent(message, source, messages);
      written.add(content);
      return [content];
    }) as GeminiContent[];
    const merged = mergeAdjacent(
      contents,
      written,
      (content) => content.role ?? 'user',
      (a, b) => ({ role: a.role ?? 'user', parts: [...a.parts, ...b.parts] }),
    );
    return { ...body, contents: merged };
  },
  offerTool(body, tool) {
    const tools = Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : [];
    const declaration = { name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema };
    return { ...body, tools: [...tools, { functionDeclarations: [declaration] }] };
  },
  usageOf(reply) {
    const usage = objectOf(objectOf(reply)?.['usageMetadata']);
    if (usage === undefined) return undefined;
    const cached = numberOf(usage['cachedContentTokenCount']);
    return {
      inputTokens: Math.max(0, numberOf(usage['promptTokenCount']) - cached),
      outputTokens: numberOf(usage['candidatesTokenCount']) + numberOf(usage['thoughtsTokenCount']),
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: cached,
    };
  },
  errorBody(status, message) {
    return JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'FAILED_PRECONDITION' } });
  },
  toolRounds: geminiToolRounds,
};

/** A message ctxhost changed or made, as one content; a function response keeps its own part's fields. */
function writeContent(message: Message, source: PromptItem | undefined, all: readonly Message[]): GeminiContent {
  const own = (source?.raw[0] as GeminiContent | undefined)?.parts ?? [];
  const parts: GeminiPart[] = [];
  for (const part of message.parts) {
    if (part.type === 'text' && part.text.length > 0) parts.push({ text: part.text });
    else if (part.type === 'tool-call')
      parts.push({ functionCall: { id: part.callId, name: part.name, args: objectOf(part.input) ?? {} } });
    else if (part.type === 'tool-result') {
      const original = own.find((item) => (item.functionResponse?.id ?? item.functionResponse?.name) === part.callId);
      const name = original?.functionResponse?.name ?? callName(all, part.callId);
      parts.push({
        ...original,
        functionResponse: { ...original?.functionResponse, name, response: { output: resultText(part) } },
      });
    }
  }
  return { role: message.role === 'assistant' ? 'model' : 'user', parts };
}

function callName(messages: readonly Message[], callId: string): string {
  for (const message of messages)
    for (const part of message.parts) if (part.type === 'tool-call' && part.callId === callId) return part.name;
  return callId;
}
