import type { JsonValue, ToolDefinition } from '@ctxhost/core';
import { toJsonSchema } from '@langchain/core/utils/json_schema';

/** What the middleware needs to know about the agent's chat model. */
export interface ModelFacts {
  /** The model name (`claude-sonnet-4-6`, `gpt-4o`): the registry's key for the window, and what prompt caching decides on. */
  name: string | undefined;
  /** The model's `maxTokens`, when it sets one. */
  maxTokens: number | undefined;
  /** A `ChatAnthropic` (`_llmType() === 'anthropic'`): cache breakpoints are sent as `cache_control`. */
  anthropic: boolean;
}

/** Reads a chat model's fields (`ChatAnthropic`, `ChatOpenAI`, …) without depending on any provider package. */
export function modelFacts(model: unknown, override: string | undefined): ModelFacts {
  const record = (typeof model === 'object' && model !== null ? model : {}) as {
    model?: unknown;
    maxTokens?: unknown;
    _llmType?: unknown;
  };
  const name = override ?? (typeof record.model === 'string' && record.model !== '' ? record.model : undefined);
  const maxTokens =
    typeof record.maxTokens === 'number' && Number.isInteger(record.maxTokens) && record.maxTokens > 0
      ? record.maxTokens
      : undefined;
  const anthropic =
    typeof record._llmType === 'function' && (record._llmType as () => unknown).call(model) === 'anthropic';
  return { name, maxTokens, anthropic };
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
