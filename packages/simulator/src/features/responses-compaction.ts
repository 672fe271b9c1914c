import { apiError, type ApiError } from '../wire/api-error.js';
import type { ResponsesInputItem, ResponsesRequest } from '../wire/responses-wire.js';
import { openSummary, sealSummary } from './opaque-summary.js';

/** OpenAI's Responses `compaction` item (`openai` 7.57: `ResponseCompactionItem`). */
export interface ResponsesCompactionItem {
  type: 'compaction';
  id: string;
  encrypted_content: string;
}

export function compactionItem(id: string, summary: string): ResponsesCompactionItem {
  return { type: 'compaction', id, encrypted_content: sealSummary(summary) };
}

/**
 * The Responses `context_management` field (`ResponseCreateParams.ContextManagement`:
 * entries of type `compaction` with an optional integer `compact_threshold`),
 * checked with OpenAI's wording for a wrong type, value or range.
 */
export function validateResponsesContextManagement(request: ResponsesRequest): ApiError | undefined {
  const field = request['context_management'];
  if (field === undefined || field === null) return undefined;
  if (!Array.isArray(field))
    return apiError(
      400,
      `Invalid type for 'context_management': expected an array of objects, but got ${typeName(field)} instead.`,
      { param: 'context_management', code: 'invalid_type' },
    );
  for (const [index, entry] of field.entries()) {
    const where = `context_management[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      return apiError(400, `Invalid type for '${where}': expected an object, but got ${typeName(entry)} instead.`, {
        param: where,
        code: 'invalid_type',
      });
    const { type, compact_threshold: threshold } = entry as Record<string, unknown>;
    if (type !== 'compaction')
      return apiError(400, `Invalid value: '${String(type)}'. Supported values are: 'compaction'.`, {
        param: `${where}.type`,
        code: 'invalid_value',
      });
    if (threshold === undefined || threshold === null) continue;
    if (typeof threshold !== 'number' || !Number.isInteger(threshold))
      return apiError(
        400,
        `Invalid type for '${where}.compact_threshold': expected an integer, but got ${typeName(threshold)} instead.`,
        { param: `${where}.compact_threshold`, code: 'invalid_type' },
      );
    if (threshold < 1)
      return apiError(
        400,
        `Invalid '${where}.compact_threshold': integer below minimum value. Expected a value >= 1, but got ${threshold} instead.`,
        { param: `${where}.compact_threshold`, code: 'integer_below_min_value' },
      );
  }
  return undefined;
}

/** The inline compaction threshold a request asks for; undefined without one. */
export function compactThreshold(request: ResponsesRequest): number | undefined {
  const field = request['context_management'];
  if (!Array.isArray(field)) return undefined;
  const entry = field.find(
    (item): item is { compact_threshold: number } =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { compact_threshold?: unknown }).compact_threshold === 'number',
  );
  return entry?.compact_threshold;
}

/**
 * A compaction item the server cannot read (another server's, or altered):
 * OpenAI answers `invalid_encrypted_content` ("The encrypted content … could
 * not be verified.", as reported in openai/codex#8145).
 */
export function validateCompactionItems(items: readonly ResponsesInputItem[]): ApiError | undefined {
  for (const item of items) {
    if (item.type !== 'compaction') continue;
    if (openSummary(item['encrypted_content']) !== undefined) continue;
    const content = String(item['encrypted_content'] ?? '');
    const shown = content.length > 12 ? `${content.slice(0, 4)}...${content.slice(-4)}` : content;
    return apiError(400, `The encrypted content ${shown} could not be verified.`, {
      code: 'invalid_encrypted_content',
    });
  }
  return undefined;
}

/**
 * The items the server reads: from the latest compaction item on (it stands for
 * everything before it), system and developer messages kept; the compaction
 * item itself becomes an assistant message holding its summary.
 */
export function fromLatestCompaction(items: readonly ResponsesInputItem[]): ResponsesInputItem[] {
  const at = items.findLastIndex((item) => item.type === 'compaction');
  if (at < 0) return [...items];
  const instructions = items.slice(0, at).filter((item) => item.role === 'system' || item.role === 'developer');
  const summary = openSummary(items[at]!['encrypted_content']) ?? '';
  return [...instructions, { type: 'message', role: 'assistant', content: summary }, ...items.slice(at + 1)];
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
