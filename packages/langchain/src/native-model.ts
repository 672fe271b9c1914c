import type { NativeFields } from '@ctxhost/core';

/** The chat model to call with native context management on it, or why it cannot carry it. */
export type NativeModel = { model: unknown } | { off: string };

/**
 * Native compaction's fields on LangChain's own chat model. `ChatAnthropic` sends its
 * `contextManagement` field as `context_management` and its `betas` as the beta header, but takes
 * neither as a call option: the request goes out through a model that inherits everything from the
 * agent's and has these two fields of its own (the agent's model is not changed). The model's own
 * `contextManagement` wins. `ChatOpenAI` has no `context_management` (inline compaction), and no
 * other chat model has Anthropic's edits.
 */
export function nativeModel(fields: NativeFields, model: unknown, anthropic: boolean): NativeModel {
  if (fields.vendor === 'openai')
    return { off: "LangChain's chat models have no field for the Responses API's context_management" };
  if (!anthropic || typeof model !== 'object' || model === null)
    return { off: "Anthropic's context management goes only through ChatAnthropic" };
  const own = model as { contextManagement?: unknown; betas?: unknown };
  if (own.contextManagement !== undefined) return { model };
  const betas = [...new Set([...(Array.isArray(own.betas) ? (own.betas as string[]) : []), ...fields.betas])];
  return {
    model: Object.create(model, {
      contextManagement: { value: fields.contextManagement, enumerable: true },
      betas: { value: betas, enumerable: true },
    }) as unknown,
  };
}
