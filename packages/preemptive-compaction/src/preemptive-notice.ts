import { randomUUID } from 'node:crypto';
import { formatPercent, formatTokens, type ContextUsage, type Message } from '@ctxhost/core';

export const NOTICE_KIND = 'preemptive-compaction';
/** How the notice's text starts: on the wire, where `meta` is gone, this is what tells it apart. */
export const NOTICE_PREFIX = '[ctxhost notice]';

/**
 * The model-facing notice: honest numbers, a suggestion, no directive. It is a
 * user-role message appended at the end of the conversation (so it never sits
 * inside a tool result and never edits an earlier message: the prompt cache
 * breaks at most once), marked `meta.notice` so tools can tell it apart.
 */
export function createPreemptiveNotice(usage: Extract<ContextUsage, { known: true }>): Message {
  const text =
    `${NOTICE_PREFIX} High context usage: ${formatPercent(usage.ratio)} of this model's ` +
    `${formatTokens(usage.window)}-token context window is in use (${formatTokens(usage.tokens)} tokens). ` +
    'Consider summarizing recent tool outputs or delegating subtasks to free up context space. ' +
    'This is a suggestion, not a new task.';
  const id = `notice-${randomUUID()}`;
  return { id, role: 'user', parts: [{ id: `${id}:0`, type: 'text', text }], meta: { notice: NOTICE_KIND } };
}
