import type { JsonValue, ToolDefinition } from '@ctxhost/core';
import { toJsonSchema } from '@langchain/core/utils/json_schema';

/**
 * The API a chat model speaks, as far as native compaction cares: `ChatAnthropic`, `ChatOpenAI` on the
 * Responses API (`useResponsesApi`, or a model it sends there always), or anything else.
 */
export type LangChainProvider = 'anthropic' | 'openai-responses' | 'other';

/** What the middleware needs to know about the agent's chat model. */
export interface ModelFacts {
  /** The model name (`claude-sonnet-4-6`, `gpt-4o`): the registry's key for the window, and what prompt caching decides on. */
  name: string | undefined;
  /** The model's `maxTokens`, when it sets one. */
  maxTokens: number | undefined;
  /** A `ChatAnthropic` (`_llmType() === 'anthropic'`): cache breakpoints are sent as `cache_control`. */
  anthropic: boolean;
  /** Where a provider's compaction goes as its own block or item, and where as its readable copy. */
  provider: LangChainProvider;
}

/** Reads a chat model's fields (`ChatAnthropic`, `ChatOpenAI`, …) without depending on any provider package. */
export function modelFacts(model: unknown, override: string | undefined): ModelFacts {
  const record = (typeof model === 'object' && model !== null ? model : {}) as {
    model?: unknown;
    maxTokens?: unknown;
    _llmType?: unknown;
    _useResponsesApi?: unknown;
  };
  const name = override ?? (typeof record.model === 'string' && record.model !== '' ? record.model : undefined);
  const maxTokens =
    typeof record.maxTokens === 'number' && Number.isInteger(record.maxTokens) && record.maxTokens > 0
      ? record.maxTokens
      : undefined;
  const type = typeof record._llmType === 'function' ? (record._llmType as () => unknown).call(model) : undefined;
  const anthropic = type === 'anthropic';
  return { name, maxTokens, anthropic, provider: anthropic ? 'anthropic' : respondsOn(record, type) };
}

/** `ChatOpenAI` routes a call to the Responses API when `_useResponsesApi` says so (its own flag, or a model that needs it). */
function respondsOn(model: { _useResponsesApi?: unknown }, type: unknown): LangChainProvider {
  if (type !== 'openai' || typeof model._useResponsesApi !== 'function') return 'other';
  return (model._useResponsesApi as (options?: unknown) => unknown).call(model, undefined) === true
    ? 'openai-responses'
    : 'other';
}

/** The agent's client tools as ctxhost tool definitions (their size counts against the window). */
export function toolDefinitions(tools: readonly unknown[]): ToolDefinition[] {
  return tools.flatMap((tool): ToolDefinition[] => {
    const record = tool as { name?: unknown; description?: unknown; schema?: unknown };
    if (typeof record.name !== 'string') return [];
    return [
      {
        name: record.name,
        description: typeof record.description === 'string' ? record.description : '',
        inputSchema: { ...schemaOf(record.schema), type: 'object' },
      },
    ];
  });
}

function schemaOf(schema: unknown): Record<string, JsonValue> {
  if (schema === undefined || schema === null) return {};
  try {
    return JSON.parse(JSON.stringify(toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]))) as Record<
      string,
      JsonValue
    >;
  } catch {
    return {};
  }
}
