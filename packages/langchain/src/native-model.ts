import type { NativeFields } from '@ctxhost/core';
import type { LangChainProvider } from './model-facts.js';

/** The chat model to call with native context management on it, or why it cannot carry it. */
export type NativeModel = { model: unknown } | { off: string };

/** On-demand compaction's beta: a request that sends Anthropic's compaction block needs it (the model client adds it likewise). */
const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/**
 * Native compaction's fields on LangChain's own chat model; the agent's model is not changed, the
 * request goes through one that inherits everything from it. `ChatAnthropic` sends its
 * `contextManagement` field as `context_management` and its `betas` as the beta header, but takes
 * neither as a call option: the model gets these two fields of its own. `ChatOpenAI` on the Responses
 * API has no field or call option for `context_management` (inline compaction); it spreads its
 * `modelKwargs` ("any additional parameters valid to pass to openai.create") into the Responses body,
 * so the model gets `modelKwargs.context_management`. The model's own setting wins. No other chat model
 * takes either.
 */
export function nativeModel(fields: NativeFields, model: unknown, provider: LangChainProvider): NativeModel {
  if (typeof model !== 'object' || model === null) return { off: 'the chat model is not an object' };
  if (fields.vendor === 'openai') {
    if (provider !== 'openai-responses')
      return { off: "OpenAI's inline compaction goes only through ChatOpenAI on the Responses API (useResponsesApi)" };
    return { model: withResponsesKwargs(model, { context_management: fields.contextManagement }) };
  }
  if (provider !== 'anthropic') return { off: "Anthropic's context management goes only through ChatAnthropic" };
  const own = model as { contextManagement?: unknown };
  if (own.contextManagement !== undefined) return { model };
  return { model: withAnthropicFields(model, { contextManagement: fields.contextManagement }, fields.betas) };
}

type ChatOpenAILike = { fields?: Record<string, unknown>; responses?: { modelKwargs?: Record<string, unknown> } };

/**
 * A `ChatOpenAI` inheriting from `model` whose Responses calls send `kwargs` too (its own `modelKwargs`
 * win). `ChatOpenAI` calls the Responses API through its `responses` model, and rebuilds itself from its
 * constructor `fields` when tools are bound (`bindTools` → `withConfig` → `new ChatOpenAI(this.fields)`):
 * both get the kwargs.
 */
function withResponsesKwargs(model: object, kwargs: Record<string, unknown>): object {
  const { fields, responses } = model as ChatOpenAILike;
  const merged = (own: Record<string, unknown> | undefined) => ({ ...kwargs, ...own });
  const properties: PropertyDescriptorMap = {
    fields: { value: { ...fields, modelKwargs: merged(fields?.['modelKwargs'] as Record<string, unknown>) } },
  };
  if (typeof responses === 'object' && responses !== null)
    properties['responses'] = {
      value: Object.create(responses, {
        modelKwargs: { value: merged(responses.modelKwargs), enumerable: true },
      }) as object,
    };
  return Object.create(model, properties) as object;
}

/**
 * The `ChatAnthropic` to send the request through: with on-demand compaction's beta when it sends
 * Anthropic's compaction block (`sendsBlock`, counted while rendering; `ChatAnthropic` sends the block,
 * not the beta it needs), else `model`.
 */
export function withCompactionBeta(model: unknown, sendsBlock: boolean, provider: LangChainProvider): unknown {
  if (!sendsBlock || provider !== 'anthropic' || typeof model !== 'object' || model === null) return model;
  return withAnthropicFields(model, {}, [ON_DEMAND_COMPACTION_BETA]);
}

/** A model inheriting everything from `model`, with `fields` and `betas` added to its own. */
function withAnthropicFields(model: object, fields: Record<string, unknown>, betas: readonly string[]): object {
  const own = model as { betas?: unknown };
  const before = Array.isArray(own.betas) ? (own.betas as string[]) : [];
  if (Object.keys(fields).length === 0 && betas.every((beta) => before.includes(beta))) return model;
  const properties: PropertyDescriptorMap = { betas: { value: [...new Set([...before, ...betas])], enumerable: true } };
  for (const [key, value] of Object.entries(fields)) properties[key] = { value, enumerable: true };
  return Object.create(model, properties) as object;
}
