import type { Message } from '@ctxhost/core';
import type { CompactionGroup } from './compaction-index.js';
import type { CompactionStrategy } from './compaction-strategy.js';
import { assertCount, throwIfAborted } from './errors.js';
import { createProtection } from './protection.js';
import { oldToolCallGroups, type ToolCallStrategyOptions } from './selective-tool-call.js';
import { TOOL_RESULT_PREVIEW_CHARS, toolResultsLine } from './tool-results-line.js';
import { negate, triggers } from './triggers.js';

export const TOOL_RESULT_COMPACTION = 'toolResultCompaction';

/** Microsoft Agent Framework: floor 2 (.NET), keep the newest tool-call group (Python example). */
export const TOOL_RESULT_COMPACTION_DEFAULTS = {
  keepLastToolCallGroups: 1,
  minimumPreserved: 2,
  previewChars: TOOL_RESULT_PREVIEW_CHARS,
} as const;

export interface ToolResultCompactionOptions extends ToolCallStrategyOptions {
  /** Longest preview of one result in the collapsed line. Default 80. */
  previewChars?: number;
}

/**
 * Collapses each old tool-call group (call and results) into one assistant line
 * such as `[Tool results: get_weather: sunny, 18°C]`, keeping the newest
 * `keepLastToolCallGroups` intact. A group whose line would not be smaller stays.
 * Never touches user or plain assistant messages.
 */
export function toolResultCompaction(options: ToolResultCompactionOptions = {}): CompactionStrategy {
  assertCount(options.keepLastToolCallGroups, 'keepLastToolCallGroups', TOOL_RESULT_COMPACTION);
  assertCount(options.minimumPreserved, 'minimumPreserved', TOOL_RESULT_COMPACTION);
  assertCount(options.previewChars, 'previewChars', TOOL_RESULT_COMPACTION);
  const trigger = options.trigger ?? triggers.always;
  const target = options.target ?? negate(trigger);
  const keepLast = options.keepLastToolCallGroups ?? TOOL_RESULT_COMPACTION_DEFAULTS.keepLastToolCallGroups;
  return {
    name: TOOL_RESULT_COMPACTION,
    trigger,
    async compact(index, context) {
      throwIfAborted(context.signal, TOOL_RESULT_COMPACTION);
      if (!trigger(index)) return false;
      const isProtected = createProtection(
        index,
        options,
        TOOL_RESULT_COMPACTION_DEFAULTS.minimumPreserved,
        TOOL_RESULT_COMPACTION,
      );
      let changed = false;
      for (const group of oldToolCallGroups(index, keepLast, isProtected)) {
        if (target(index)) break;
        const line = collapsedLine(group, options.previewChars ?? TOOL_RESULT_COMPACTION_DEFAULTS.previewChars);
        if (index.tokensOf(line) >= group.tokens) continue;
        index.insertSummary(line, { before: group, source: 'tool-results' });
        index.exclude(group);
        changed = true;
      }
      if (changed) context.steps.push(TOOL_RESULT_COMPACTION);
      return changed;
    },
  };
}

function collapsedLine(group: CompactionGroup, previewChars: number): Message {
  const first = group.messages[0]!;
  return {
    id: `${first.id}:tool-results`,
    role: 'assistant',
    parts: [{ id: `${first.id}:tool-results:text`, type: 'text', text: toolResultsLine(group.messages, previewChars) }],
    meta: {
      summary: {
        covers: group.messages.map((message) => message.id),
        engine: TOOL_RESULT_COMPACTION,
        source: 'tool-results',
      },
    },
  };
}
