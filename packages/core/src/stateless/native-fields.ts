import type { JsonValue } from '../model/message.js';

type JsonObject = { [key: string]: JsonValue };

/** A provider's own context management, as the request hooks asked for it (the wire's spelling). */
export type NativeFields =
  | {
      vendor: 'anthropic';
      /** The Messages API betas the edits need (`anthropic-beta` header). */
      betas: string[];
      /** The Messages API `context_management` body field. */
      contextManagement: { edits: JsonObject[] };
    }
  | {
      vendor: 'openai';
      /** The Responses API `context_management` body field (inline compaction). */
      contextManagement: JsonObject[];
    };

/**
 * The native context management a turn's provider options carry (`native-compaction` adds them on the
 * request waterfall), read by shape: Anthropic's `context_management` is an object of `edits`, the
 * Responses API's an array. Undefined when there is none. The one place an integration learns what to
 * map into its framework's provider options; each integration's own small file does the mapping.
 */
export function nativeFieldsOf(
  providerOptions: Readonly<Record<string, JsonValue>> | undefined,
): NativeFields | undefined {
  const field = providerOptions?.['context_management'];
  if (Array.isArray(field)) return { vendor: 'openai', contextManagement: field.filter(isObject) };
  if (!isObject(field) || !Array.isArray(field['edits'])) return undefined;
  const betas = providerOptions?.['betas'];
  return {
    vendor: 'anthropic',
    betas: Array.isArray(betas) ? betas.filter((beta): beta is string => typeof beta === 'string') : [],
    contextManagement: { edits: field['edits'].filter(isObject) },
  };
}

/** The provider options without native compaction's fields (for a carrier that cannot send them). */
export function withoutNativeFields(
  providerOptions: Readonly<Record<string, JsonValue>> | undefined,
): Record<string, JsonValue> | undefined {
  if (providerOptions === undefined) return undefined;
  const { context_management: _fields, betas: _betas, ...rest } = providerOptions;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/**
 * Anthropic's edits in the AI SDK's spelling (`@ai-sdk/anthropic`'s `contextManagement` provider option):
 * each edit's top-level keys in camelCase (`clear_at_least` → `clearAtLeast`); values keep theirs. The AI
 * SDK middleware and the opencode plugin (opencode's provider is `@ai-sdk/anthropic`) both send this.
 */
export function aiSdkContextManagement(edits: readonly JsonObject[]): { edits: JsonObject[] } {
  return { edits: edits.map(camelKeys) };
}

function camelKeys(edit: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(edit).map(([key, value]) => [
      key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  );
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
