import type { Host, JsonValue } from '@ctxhost/core';

/**
 * What `native-compaction`'s request hook adds to a request's provider options for a model (Anthropic's
 * `betas` and `context_management`, or the Responses API's `context_management`), or why it adds nothing.
 */
export type NativeRequestFields =
  | { vendor: 'anthropic' | 'openai'; providerOptions: Record<string, JsonValue> }
  | { vendor: 'anthropic' | 'openai' | undefined; off: string };

const byHost = new WeakMap<Host, (model: string) => NativeRequestFields>();

/** Called by the plugin as it applies: the very function its request hook decides with. */
export function registerNativeRequestFields(host: Host, fieldsFor: (model: string) => NativeRequestFields): void {
  byHost.set(host, fieldsFor);
}

/**
 * The provider options the host's `native-compaction` plugin adds for `model`, known before any prompt:
 * they depend only on the model and the config. For a framework that takes provider options at a stage
 * where the prompt does not exist yet (Mastra's `processInputStep`). Undefined when the host has no such
 * plugin, or nothing of it is on.
 */
export function nativeRequestFieldsOf(host: Host, model: string): NativeRequestFields | undefined {
  return byHost.get(host)?.(model);
}
