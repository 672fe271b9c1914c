import type { JsonValue, Part, TextPart } from './message.js';

/**
 * The marker (in a text part's `extra`) of a block or item ctxhost carries as a
 * text part: the adapters re-emit the exact provider form from it. The same key
 * as the Anthropic adapter's `BLOCK_TYPE_MARKER`.
 */
export const NATIVE_PART_MARKER = '_ctxhost_block_type';

/** Anthropic's `compaction` block (threshold or on-demand compaction). */
export const ANTHROPIC_COMPACTION = 'compaction';
/** OpenAI's encrypted Responses `compaction` item (inline compaction or `responses/compact`). */
export const OPENAI_COMPACTION = 'openai_compaction';

/** Said in place of a summary no one can read (an OpenAI item with no readable copy yet) when the request goes elsewhere. */
export const NO_READABLE_COPY =
  '[Earlier conversation compacted by the provider; its summary is encrypted and no readable copy was kept.]';

/** A provider's compaction, as a text part holds it. */
export interface NativeCompaction {
  vendor: 'anthropic' | 'openai';
  /** What a reader (or another provider) sees: Anthropic's summary, or ctxhost's readable copy of an OpenAI item. */
  readable: string;
  /** The block or item's own fields, sent back verbatim to the provider that made it. */
  fields: Record<string, JsonValue>;
}

/** The provider compaction a part holds, if it holds one. */
export function nativeCompactionOf(part: Part): NativeCompaction | undefined {
  if (part.type !== 'text') return undefined;
  const kind = part.extra?.[NATIVE_PART_MARKER];
  if (kind !== ANTHROPIC_COMPACTION && kind !== OPENAI_COMPACTION) return undefined;
  const fields: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(part.extra ?? {})) if (!key.startsWith('_ctxhost_')) fields[key] = value;
  return { vendor: kind === OPENAI_COMPACTION ? 'openai' : 'anthropic', readable: part.text, fields };
}

/** A Responses `compaction` item as it came (`id`, `encrypted_content`, `created_by`). */
export interface OpenAICompactionItem {
  type: 'compaction';
  encrypted_content: string;
  id?: string | null;
  created_by?: string;
}

/**
 * An OpenAI compaction item as a text part: the text is the readable copy
 * (ctxhost's own summary of the span, or '' until one is made), `extra` the
 * item's fields, re-emitted exactly for OpenAI.
 */
export function openAICompactionPart(item: OpenAICompactionItem, partId: string, readable = ''): TextPart {
  const { type: _type, ...fields } = item;
  const extra: Record<string, JsonValue> = { [NATIVE_PART_MARKER]: OPENAI_COMPACTION };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) extra[key] = value;
  return { id: partId, type: 'text', text: readable, extra };
}

/** The Responses item a part carries, exactly as OpenAI returned it; undefined for any other part. */
export function openAICompactionItemOf(part: Part): OpenAICompactionItem | undefined {
  const native = nativeCompactionOf(part);
  if (native?.vendor !== 'openai' || typeof native.fields['encrypted_content'] !== 'string') return undefined;
  return { type: 'compaction', ...native.fields } as OpenAICompactionItem;
}

/** The part with its readable copy set (the provider's fields untouched). */
export function withReadableCopy(part: TextPart, readable: string): TextPart {
  return { ...part, text: readable };
}
