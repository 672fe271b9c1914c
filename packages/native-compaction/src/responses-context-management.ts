import type { JsonValue } from '@ctxhost/core';
import type { NativeCompactionConfig } from './config-schema.js';

/**
 * The Responses API's `context_management` field for inline compaction
 * (`openai` 7.57: `ResponseCreateParams.ContextManagement`, type `compaction`
 * with `compact_threshold`): when the rendered prompt passes the threshold the
 * server compacts before answering and returns an encrypted `compaction` item
 * first in `output`. Undefined when inline compaction is off.
 */
export function buildResponsesContextManagement(
  config: NativeCompactionConfig['openai'],
): { [field: string]: JsonValue }[] | undefined {
  if (!config.inline.enabled) return undefined;
  return [{ type: 'compaction', compact_threshold: config.inline.compact_threshold }];
}
