import { z } from 'zod';

/**
 * The message model every ctxhost package speaks. Provider formats (Anthropic,
 * OpenAI) convert to and from it losslessly through the adapters.
 *
 * Every part has an `id`, stable for the life of the session: hooks update a
 * part by id, and the store returns a part's original by id.
 */

/** JSON values, for tool inputs and provider extras that ctxhost carries but does not interpret. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);

/** An Anthropic prompt-cache breakpoint carried on a part (rendered as `cache_control`). */
export const CacheControlSchema = z.strictObject({
  type: z.literal('ephemeral'),
  ttl: z.enum(['5m', '1h']).optional(),
});
export type CacheControl = z.infer<typeof CacheControlSchema>;

const partBase = {
  id: z.string().min(1),
  cacheControl: CacheControlSchema.optional(),
  /** Provider fields ctxhost does not model (citations, …), kept so round trips are lossless. */
  extra: z.record(z.string(), JsonValueSchema).optional(),
};

export const TextPartSchema = z.strictObject({ ...partBase, type: z.literal('text'), text: z.string() });
export type TextPart = z.infer<typeof TextPartSchema>;

/** Thinking. `redacted: true` parts carry the opaque `data` and no readable text. */
export const ReasoningPartSchema = z.strictObject({
  ...partBase,
  type: z.literal('reasoning'),
  text: z.string(),
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
  data: z.string().optional(),
});
export type ReasoningPart = z.infer<typeof ReasoningPartSchema>;

export const ToolCallPartSchema = z.strictObject({
  ...partBase,
  type: z.literal('tool-call'),
  callId: z.string().min(1),
  name: z.string().min(1),
  input: JsonValueSchema,
});
export type ToolCallPart = z.infer<typeof ToolCallPartSchema>;

export const MediaSourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('base64'), mediaType: z.string(), data: z.string() }),
  z.strictObject({ kind: z.literal('url'), url: z.string() }),
  z.strictObject({ kind: z.literal('text'), mediaType: z.string(), text: z.string() }),
]);
export type MediaSource = z.infer<typeof MediaSourceSchema>;

export const ImagePartSchema = z.strictObject({ ...partBase, type: z.literal('image'), source: MediaSourceSchema });
export type ImagePart = z.infer<typeof ImagePartSchema>;

export const FilePartSchema = z.strictObject({
  ...partBase,
  type: z.literal('file'),
  source: MediaSourceSchema,
  title: z.string().optional(),
});
export type FilePart = z.infer<typeof FilePartSchema>;

/** Content inside a tool result when it is not plain text. */
export const ToolResultContentSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('text'),
    text: z.string(),
    extra: z.record(z.string(), JsonValueSchema).optional(),
  }),
  z.strictObject({
    type: z.literal('image'),
    source: MediaSourceSchema,
    extra: z.record(z.string(), JsonValueSchema).optional(),
  }),
  z.strictObject({
    type: z.literal('file'),
    source: MediaSourceSchema,
    title: z.string().optional(),
    extra: z.record(z.string(), JsonValueSchema).optional(),
  }),
]);
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/**
 * Marks a tool result whose output was shortened in what the model sees.
 * The original is always kept in the store (`store.original(partId)`).
 */
export const CompactedMarkSchema = z.strictObject({
  by: z.string(),
  reason: z.string(),
  originalChars: z.number().int().nonnegative(),
  originalTokens: z.number().int().nonnegative().optional(),
});
export type CompactedMark = z.infer<typeof CompactedMarkSchema>;

export const ToolResultPartSchema = z.strictObject({
  ...partBase,
  type: z.literal('tool-result'),
  callId: z.string().min(1),
  /** Tool name when the source format records it (OpenAI `name`, importers); not sent to Anthropic. */
  name: z.string().optional(),
  output: z.union([z.string(), z.array(ToolResultContentSchema)]),
  isError: z.boolean().optional(),
  compacted: CompactedMarkSchema.optional(),
});
export type ToolResultPart = z.infer<typeof ToolResultPartSchema>;

export const PartSchema = z.discriminatedUnion('type', [
  TextPartSchema,
  ReasoningPartSchema,
  ToolCallPartSchema,
  ToolResultPartSchema,
  ImagePartSchema,
  FilePartSchema,
]);
export type Part = z.infer<typeof PartSchema>;
export type PartType = Part['type'];

export const RoleSchema = z.enum(['system', 'user', 'assistant', 'tool']);
export type Role = z.infer<typeof RoleSchema>;

/**
 * A bounded reference to what a summary replaces: the oldest and newest
 * message of the run it covers, in the order they were appended, and how many
 * messages that run holds. Its size does not grow with the session (a summary
 * of a summary covers the union of both runs); the originals stay in the
 * session's history, found from `first` (see `coveredIdAt`).
 */
export const CoveredSpanSchema = z.strictObject({
  first: z.string().min(1),
  last: z.string().min(1),
  count: z.number().int().nonnegative(),
});
export type CoveredSpan = z.infer<typeof CoveredSpanSchema>;

/**
 * What a summary message covers: a span (what the compressor and the
 * summarization strategy write), or the ids of the messages it replaces (a
 * short run such as one collapsed tool group, another engine's own list, and
 * every summary written before spans existed).
 */
export const SummaryMetaSchema = z.strictObject({
  covers: z.union([z.array(z.string()), CoveredSpanSchema]),
  engine: z.string(),
  source: z.enum(['model', 'chunked', 'extractive', 'tool-results']).optional(),
  iteration: z.number().int().positive().optional(),
});
export type SummaryMeta = z.infer<typeof SummaryMetaSchema>;

/**
 * Message metadata. `summary` marks a summary message (group kind `summary`);
 * `notice` marks a model-facing notice a hook injected (for example the preemptive notice).
 * Other keys are free-form and kept as they are.
 */
export const MessageMetaSchema = z
  .object({
    createdAt: z.string().optional(),
    model: z.string().optional(),
    summary: SummaryMetaSchema.optional(),
    notice: z.string().optional(),
  })
  .catchall(JsonValueSchema);
export type MessageMeta = z.infer<typeof MessageMetaSchema>;

export const MessageSchema = z.strictObject({
  id: z.string().min(1),
  role: RoleSchema,
  parts: z.array(PartSchema),
  meta: MessageMetaSchema.optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export function isToolCallPart(part: Part): part is ToolCallPart {
  return part.type === 'tool-call';
}

export function isToolResultPart(part: Part): part is ToolResultPart {
  return part.type === 'tool-result';
}

export function isSummaryMessage(message: Message): boolean {
  return message.meta?.summary !== undefined;
}
