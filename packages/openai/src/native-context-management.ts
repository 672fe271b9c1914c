import type OpenAI from 'openai';
import type { NativeFields } from '@ctxhost/core';

type ContextManagement = OpenAI.Responses.ResponseCreateParams.ContextManagement;

/** Where a turn's native context management goes in an OpenAI SDK call, or why it cannot go. */
export type NativeCarried = { contextManagement: ContextManagement[] } | { off: string };

/**
 * Native compaction's fields (core's `nativeFieldsOf` on the turn's provider options) as the Responses
 * API's `context_management` body field: OpenAI's inline compaction. Chat Completions has no such field,
 * and Anthropic's edits have no carrier in the OpenAI SDK.
 */
export function nativeContextManagement(fields: NativeFields, endpoint: 'chat' | 'responses'): NativeCarried {
  if (fields.vendor === 'anthropic') return { off: "Anthropic's context management has no carrier in the OpenAI SDK" };
  if (endpoint === 'chat')
    return { off: 'inline compaction needs responses.create (Chat Completions has no context_management)' };
  return {
    contextManagement: fields.contextManagement.map((entry) => ({
      type: typeof entry['type'] === 'string' ? entry['type'] : 'compaction',
      ...(typeof entry['compact_threshold'] === 'number' ? { compact_threshold: entry['compact_threshold'] } : {}),
    })),
  };
}
