import { nativeCompactionOf, type JsonValue, type Message, type Part, type Usage } from '@ctxhost/core';

/** One applied server-side edit, as the API reported it in `context_management.applied_edits`. */
export interface AppliedEdit {
  type: string;
  clearedInputTokens: number;
  clearedToolUses?: number;
  clearedThinkingTurns?: number;
}

/** What server-side context management did for one response. */
export interface NativeReport {
  appliedEdits: AppliedEdit[];
  /** The server compaction pass's own tokens (`usage.iterations`), when it compacted. */
  compaction?: { inputTokens: number; outputTokens: number };
}

/** A part that holds a provider's compaction (Anthropic's block or OpenAI's encrypted item), sent back as it came. */
export function isCompactionPart(part: Part): boolean {
  return nativeCompactionOf(part) !== undefined;
}

/**
 * Reads the report `@ctxhost/anthropic` puts on an assistant message's meta
 * (`contextManagement`, `usageIterations`); undefined when there is none.
 */
export function readNativeReport(message: Message): NativeReport | undefined {
  const management = record(message.meta?.['contextManagement']);
  const iterations = message.meta?.['usageIterations'];
  const edits = Array.isArray(management?.['applied_edits']) ? management['applied_edits'] : [];
  const compactions = Array.isArray(iterations)
    ? iterations.map(record).filter((entry) => entry?.['type'] === 'compaction')
    : [];
  if (management === undefined && compactions.length === 0) return undefined;
  const report: NativeReport = {
    appliedEdits: edits
      .map(record)
      .filter((edit) => edit !== undefined)
      .map(toAppliedEdit),
  };
  if (compactions.length > 0) {
    report.compaction = {
      inputTokens: compactions.reduce(
        (sum, entry) =>
          sum +
          count(entry?.['input_tokens']) +
          count(entry?.['cache_read_input_tokens']) +
          count(entry?.['cache_creation_input_tokens']),
        0,
      ),
      outputTokens: compactions.reduce((sum, entry) => sum + count(entry?.['output_tokens']), 0),
    };
  }
  return report;
}

/**
 * A server compaction pass as a usage record of its own (its tokens are not in
 * the reply's top-level usage), so cost accounting can bill it; none when the
 * reply did not compact.
 */
export function compactionUsages(message: Message): Usage[] {
  const iterations = message.meta?.['usageIterations'];
  if (!Array.isArray(iterations)) return [];
  return iterations.map(record).flatMap((entry) =>
    entry?.['type'] !== 'compaction'
      ? []
      : [
          {
            inputTokens: count(entry['input_tokens']),
            outputTokens: count(entry['output_tokens']),
            cacheCreationInputTokens: count(entry['cache_creation_input_tokens']),
            cacheReadInputTokens: count(entry['cache_read_input_tokens']),
          },
        ],
  );
}

function toAppliedEdit(edit: Record<string, JsonValue>): AppliedEdit {
  return {
    type: String(edit['type']),
    clearedInputTokens: count(edit['cleared_input_tokens']),
    ...(edit['cleared_tool_uses'] === undefined ? {} : { clearedToolUses: count(edit['cleared_tool_uses']) }),
    ...(edit['cleared_thinking_turns'] === undefined
      ? {}
      : { clearedThinkingTurns: count(edit['cleared_thinking_turns']) }),
  };
}

function record(value: JsonValue | undefined): Record<string, JsonValue> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

function count(value: JsonValue | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
