import { newMessageId, partId, type JsonValue, type Message, type Part, type Usage } from '@ctxhost/core';

/** A chunk of a Mastra model step as `processLLMResponse` gets it (`{ type, payload }`). */
export interface StepChunk {
  type: string;
  payload: unknown;
}

/** Mastra's usage of a step (`LanguageModelUsage`: the v2 fields plus the cache counts). */
interface StepUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  /** The provider's usage as the model reported it (for an AI SDK 7 model: `{ inputTokens: { total, noCache, cacheRead, cacheWrite }, … }`). */
  raw?: unknown;
}

export interface StepReply {
  message: Message;
  usage: Usage | undefined;
}

/**
 * The model's reply of one step, rebuilt from its chunks, as a ctxhost assistant
 * message: text, reasoning and the tool calls the agent runs (provider-executed
 * ones are the provider's business and not recorded), with the step's usage.
 * Parts come in the order the model produced them, as Mastra puts them in the
 * next prompt, so the mirror recognises its copy rather than storing it twice.
 */
export function stepReply(chunks: readonly StepChunk[]): StepReply {
  const id = newMessageId();
  const parts: Part[] = [];
  const open = new Map<string, Extract<Part, { type: 'text' | 'reasoning' }>>();
  let usage: Usage | undefined;
  for (const chunk of chunks) {
    const payload = (chunk.payload ?? {}) as Record<string, unknown>;
    switch (chunk.type) {
      case 'text-delta':
      case 'reasoning-delta': {
        const type = chunk.type === 'text-delta' ? ('text' as const) : ('reasoning' as const);
        const key = `${type}:${String(payload['id'])}`;
        const part = open.get(key) ?? { id: partId(id, parts.length), type, text: '' };
        if (!open.has(key)) {
          open.set(key, part);
          parts.push(part);
        }
        part.text += String(payload['text'] ?? '');
        break;
      }
      case 'tool-call':
        if (payload['providerExecuted'] !== true)
          parts.push({
            id: partId(id, parts.length),
            type: 'tool-call',
            callId: String(payload['toolCallId']),
            name: String(payload['toolName']),
            input: toJson(payload['args']),
          });
        break;
      case 'step-finish':
      case 'finish':
        usage = toUsage((payload['output'] as { usage?: StepUsage } | undefined)?.usage) ?? usage;
        break;
    }
  }
  const kept = parts.filter((part) => part.type !== 'text' || part.text !== '');
  return {
    message: { id, role: 'assistant', parts: kept.map((part, index) => ({ ...part, id: partId(id, index) })) },
    usage,
  };
}

/** Mastra's usage in ctxhost's terms: `inputTokens` without cache reads and writes, as Anthropic reports it. */
function toUsage(usage: StepUsage | undefined): Usage | undefined {
  if (usage?.inputTokens === undefined) return undefined;
  const raw = (usage.raw as { inputTokens?: { noCache?: unknown } } | undefined)?.inputTokens;
  const cacheRead = usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.cacheCreationInputTokens ?? 0;
  return {
    inputTokens:
      typeof raw?.noCache === 'number' ? raw.noCache : Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    outputTokens: usage.outputTokens ?? 0,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
}

/** The call's arguments as JSON, without the `__mastraMetadata` Mastra may attach to them. */
function toJson(value: unknown): JsonValue {
  if (value === undefined) return {};
  let plain = value;
  if (typeof value === 'object' && value !== null && '__mastraMetadata' in value) {
    const { __mastraMetadata: _metadata, ...rest } = value as Record<string, unknown>;
    plain = rest;
  }
  return JSON.parse(JSON.stringify(plain)) as JsonValue;
}
