import { nativeCompactionOf, type Message, type NativeFields } from '@ctxhost/core';
import type { LangChainProvider } from './model-facts.js';

/** The chat model to call with native context management on it, or why it cannot carry it. */
export type NativeModel = { model: unknown } | { off: string };

/** On-demand compaction's beta: a request that sends Anthropic's compaction block needs it (the model client adds it likewise). */
const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/**
 * Native compaction's fields on LangChain's own chat model. `ChatAnthropic` sends its
 * `contextManagement` field as `context_management` and its `betas` as the beta header, but takes
 * neither as a call option: the request goes out through a model that inherits everything from the
 * agent's and has these two fields of its own (the agent's model is not changed). The model's own
 * `contextManagement` wins. `ChatOpenAI` has no `context_management` (inline compaction), and no
 * other chat model has Anthropic's edits.
 */
export function nativeModel(fields: NativeFields, model: unknown, provider: LangChainProvider): NativeModel {
  if (fields.vendor === 'openai')
    return { off: "LangChain's chat models have no field for the Responses API's context_management" };
  if (provider !== 'anthropic' || typeof model !== 'object' || model === null)
    return { off: "Anthropic's context management goes only through ChatAnthropic" };
  const own = model as { contextManagement?: unknown };
  if (own.contextManagement !== undefined) return { model };
  return { model: withAnthropicFields(model, { contextManagement: fields.contextManagement }, fields.betas) };
}

/**
 * The `ChatAnthropic` to send `messages` through: with on-demand compaction's beta when they send
 * Anthropic's compaction block (`ChatAnthropic` sends the block, not the beta it needs), else `model`.
 */
export function withCompactionBeta(model: unknown, messages: readonly Message[], provider: LangChainProvider): unknown {
  if (provider !== 'anthropic' || typeof model !== 'object' || model === null) return model;
  const sends = messages.some(
    (message) =>
      message.role === 'assistant' && message.parts.some((part) => nativeCompactionOf(part)?.vendor === 'anthropic'),
  );
  return sends ? withAnthropicFields(model, {}, [ON_DEMAND_COMPACTION_BETA]) : model;
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
