import type { JsonValue } from '@ctxhost/core';
import type { NativeCompactionConfig } from './config-schema.js';
import { nativeSummaryPrompt } from './summary-prompt.js';

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
/** Threshold compaction (`compact_20260112`). */
export const COMPACTION_BETA = 'compact-2026-01-12';
/** On-demand compaction (top-level `compaction: { type: 'summarize' }`). */
export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/** What a Messages request needs for Anthropic's server-side context management: the betas and the `context_management` body field. */
export interface AnthropicContextManagement {
  betas: string[];
  contextManagement: { edits: { [field: string]: JsonValue }[] };
}

/**
 * The Messages API fields for `hooks.native-compaction.anthropic`:
 * `clear_thinking_20251015` first (the API wants it before other edits), then
 * `clear_tool_uses_20250919`, then `compact_20260112`; each edit's beta once.
 * Undefined when all three are off. A compaction focus goes out as a complete
 * summary prompt (`nativeSummaryPrompt`), never as a fragment.
 */
export function buildAnthropicContextManagement(
  config: NativeCompactionConfig['anthropic'],
): AnthropicContextManagement | undefined {
  const edits: AnthropicContextManagement['contextManagement']['edits'] = [];
  const betas = new Set<string>();
  if (config.clear_thinking.enabled) {
    const keep = config.clear_thinking.keep_turns;
    edits.push({
      type: 'clear_thinking_20251015',
      keep: keep === 'all' ? 'all' : { type: 'thinking_turns', value: keep },
    });
    betas.add(CONTEXT_MANAGEMENT_BETA);
  }
  if (config.clear_tool_uses.enabled) {
    const clear = config.clear_tool_uses;
    edits.push({
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: clear.trigger_tokens },
      keep: { type: 'tool_uses', value: clear.keep_tool_uses },
      ...(clear.clear_at_least_tokens > 0
        ? { clear_at_least: { type: 'input_tokens', value: clear.clear_at_least_tokens } }
        : {}),
      ...(clear.exclude_tools.length > 0 ? { exclude_tools: [...clear.exclude_tools] } : {}),
      ...(clear.clear_tool_inputs ? { clear_tool_inputs: true } : {}),
    });
    betas.add(CONTEXT_MANAGEMENT_BETA);
  }
  if (config.compaction.enabled) {
    const compaction = config.compaction;
    edits.push({
      type: 'compact_20260112',
      trigger: { type: 'input_tokens', value: compaction.trigger_tokens },
      ...(compaction.focus === undefined ? {} : { instructions: nativeSummaryPrompt(compaction.focus) }),
      ...(compaction.pause_after_compaction ? { pause_after_compaction: true } : {}),
    });
    betas.add(COMPACTION_BETA);
  }
  return edits.length === 0 ? undefined : { betas: [...betas], contextManagement: { edits } };
}

/**
 * The token count at which Anthropic's server acts first: the lowest
 * input-token trigger among the enabled strategies (clear_thinking has none).
 */
export function anthropicTriggerTokens(config: NativeCompactionConfig['anthropic']): number | undefined {
  const triggers = [
    config.clear_tool_uses.enabled ? config.clear_tool_uses.trigger_tokens : undefined,
    config.compaction.enabled ? config.compaction.trigger_tokens : undefined,
  ].filter((value): value is number => value !== undefined);
  return triggers.length === 0 ? undefined : Math.min(...triggers);
}
