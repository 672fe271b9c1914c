import type { CompactionGroup, CompactionIndex } from './compaction-index.js';
import type { CompactionStrategy, PreserveOptions } from './compaction-strategy.js';
import { assertCount, throwIfAborted } from './errors.js';
import { createProtection, type IsProtected } from './protection.js';
import { negate, triggers } from './triggers.js';

export const SELECTIVE_TOOL_CALL = 'selectiveToolCall';

/** Microsoft Agent Framework gives no floor for this strategy; it shares toolResultCompaction's (2). */
export const SELECTIVE_TOOL_CALL_DEFAULTS = { keepLastToolCallGroups: 1, minimumPreserved: 2 } as const;

export interface ToolCallStrategyOptions extends PreserveOptions {
  /** The newest N included tool-call groups stay intact. Default 1. */
  keepLastToolCallGroups?: number;
}

/**
 * Excludes old tool-call groups entirely (call and results together), keeping the
 * newest `keepLastToolCallGroups`. Never touches user or plain assistant messages.
 * Default trigger: always; default target: the trigger no longer fires.
 */
export function selectiveToolCall(options: ToolCallStrategyOptions = {}): CompactionStrategy {
  assertCount(options.keepLastToolCallGroups, 'keepLastToolCallGroups', SELECTIVE_TOOL_CALL);
  assertCount(options.minimumPreserved, 'minimumPreserved', SELECTIVE_TOOL_CALL);
  const trigger = options.trigger ?? triggers.always;
  const target = options.target ?? negate(trigger);
  return {
    name: SELECTIVE_TOOL_CALL,
    trigger,
    async compact(index, context) {
      throwIfAborted(context.signal, SELECTIVE_TOOL_CALL);
      if (!trigger(index)) return false;
      const isProtected = createProtection(
        index,
        options,
        SELECTIVE_TOOL_CALL_DEFAULTS.minimumPreserved,
        SELECTIVE_TOOL_CALL,
      );
      let changed = false;
      for (const group of oldToolCallGroups(
        index,
        options.keepLastToolCallGroups ?? SELECTIVE_TOOL_CALL_DEFAULTS.keepLastToolCallGroups,
        isProtected,
      )) {
        if (target(index)) break;
        index.exclude(group);
        changed = true;
      }
      if (changed) context.steps.push(SELECTIVE_TOOL_CALL);
      return changed;
    },
  };
}

/** Included, unprotected tool-call groups older than the newest `keepLast`, oldest first. */
export function oldToolCallGroups(
  index: CompactionIndex,
  keepLast: number,
  isProtected: IsProtected,
): CompactionGroup[] {
  const toolGroups = index.ordered().filter((group) => !group.excluded && group.kind === 'tool_call');
  return toolGroups.slice(0, Math.max(0, toolGroups.length - keepLast)).filter((group) => !isProtected(group));
}
