import {
  formatTokens,
  ORIGINAL_TOOL_NAME,
  runCompaction,
  type Host,
  type Message,
  type Part,
  type Session,
  type ToolResultPart,
} from '@ctxhost/core';
import type { AutoCompactConfig } from './config.js';

/** How every marker of a tool output the cascade removed begins (the rest names the part and how to read it back). */
export const TRUNCATION_MESSAGE = '[Tool output removed by ctxhost to recover from a context overflow';

/**
 * The marker that replaces a removed tool output: it names the part and the
 * tool that reads the original back (`ctxhost_original`), in words a model acts
 * on, instead of asking it to re-run the tool (oh-my-opencode's text).
 */
export function truncationMarker(partId: string, tokens: number): string {
  return `${TRUNCATION_MESSAGE} (about ${formatTokens(tokens)} tokens). The full output is kept as part ${partId}: to read it, call the ${ORIGINAL_TOOL_NAME} tool with handle "${partId}" and the line range you need.]`;
}

/** True for an output the cascade already replaced by its marker. */
export function isTruncationMarker(output: ToolResultPart['output']): boolean {
  return typeof output === 'string' && output.startsWith(TRUNCATION_MESSAGE);
}
export const EMPTY_PLACEHOLDER = '[user interrupted]';
export const AUTO_COMPACT = 'anthropic-auto-compact';

/** Per-session counters that bound the cascade. */
export interface StepBudget {
  truncated: Set<string>;
  reverts: number;
  emptyFixes: number;
}

interface Output {
  part: ToolResultPart;
  chars: number;
  tokens: number;
}

/** Tool outputs in what the model sees, largest first, not yet truncated, at least `minChars` long. */
export function largestOutputs(host: Host, session: Session, budget: StepBudget, minChars: number): Output[] {
  const outputs: Output[] = [];
  for (const message of session.messages()) {
    for (const part of message.parts) {
      if (part.type !== 'tool-result' || budget.truncated.has(part.id) || isTruncationMarker(part.output)) continue;
      const text =
        typeof part.output === 'string'
          ? part.output
          : part.output.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      if (text.length < minChars) continue;
      outputs.push({ part, chars: text.length, tokens: host.counter.countText(text) });
    }
  }
  return outputs.sort((a, b) => b.chars - a.chars);
}

/** Truncates outputs, largest first, until `tokensToCut` are gone or the per-session limit is reached. Lossless: originals stay in the store. */
export async function truncateOutputs(
  host: Host,
  session: Session,
  budget: StepBudget,
  config: AutoCompactConfig,
  tokensToCut: number,
  maxOutputs: number,
): Promise<number> {
  let cut = 0;
  let count = 0;
  for (const output of largestOutputs(host, session, budget, config.min_output_size)) {
    if (cut >= tokensToCut || count >= maxOutputs || budget.truncated.size >= config.max_truncate_attempts) break;
    const text = truncationMarker(output.part.id, output.tokens);
    const marker = host.counter.countText(text);
    await session.update(
      output.part.id,
      {
        output: text,
        compacted: {
          by: AUTO_COMPACT,
          reason: 'context limit exceeded',
          originalChars: output.chars,
          originalTokens: output.tokens,
        },
      },
      'auto-compact truncation',
    );
    budget.truncated.add(output.part.id);
    cut += Math.max(0, output.tokens - marker);
    count++;
  }
  return count;
}

const isBlankText = (part: Part): boolean => part.type === 'text' && part.text.trim() === '';

/**
 * Replaces the blank text parts of an empty message with `[user interrupted]`, or gives a partless message that
 * text; drops the blank text parts beside other content (the API refuses a blank text block). A message with any
 * part but text is not empty — reasoning (a Responses reasoning item, encrypted or not, is a reasoning-only
 * assistant message), a tool call or result, a compaction block — and gets no placeholder: on the Responses API
 * one would sit between a reasoning item and the call it belongs to. Returns how many messages were fixed.
 */
export async function fixEmptyMessages(session: Session): Promise<number> {
  const messages = session.messages();
  const isEmpty = (message: Message) => message.parts.every(isBlankText);
  const empty = messages.filter(
    (message, index) => isEmpty(message) && !(index === messages.length - 1 && message.role === 'assistant'),
  );
  const blankBeside = messages.filter((message) => !isEmpty(message) && message.parts.some(isBlankText));
  if (empty.length + blankBeside.length === 0) return 0;
  for (const message of empty)
    for (const part of message.parts)
      await session.update(part.id, { text: EMPTY_PLACEHOLDER }, 'auto-compact empty-content fix');
  const partless = new Set(empty.filter((message) => message.parts.length === 0).map((message) => message.id));
  const trimmed = new Set(blankBeside.map((message) => message.id));
  if (partless.size + trimmed.size > 0) {
    const projection = session
      .messages()
      .map((message) =>
        partless.has(message.id)
          ? { ...message, parts: [{ id: `${message.id}:filled`, type: 'text' as const, text: EMPTY_PLACEHOLDER }] }
          : trimmed.has(message.id)
            ? { ...message, parts: message.parts.filter((part) => !isBlankText(part)) }
            : message,
      );
    const tokens = session.promptSize().tokens;
    await session.applyCompaction(projection, {
      engine: AUTO_COMPACT,
      reason: 'recovery',
      tokensBefore: tokens,
      tokensAfter: tokens,
      messagesBefore: projection.length,
      messagesAfter: projection.length,
      steps: ['empty-content fix'],
    });
  }
  return empty.length + blankBeside.length;
}

/** The index of the last user message with text (not tool results), if anything follows it. */
export function revertPoint(session: Session): number | undefined {
  const messages = session.messages();
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user' && message.parts.some((part) => part.type === 'text'))
      return index < messages.length - 1 ? index : undefined;
  }
  return undefined;
}

/** The revert point, when nothing after it is a tool's result: reverting then re-runs no tool. */
export function revertPointWithoutToolWork(session: Session): number | undefined {
  const point = revertPoint(session);
  if (point === undefined) return undefined;
  const ranTools = session
    .messages()
    .slice(point + 1)
    .some((message) => message.parts.some((part) => part.type === 'tool-result'));
  return ranTools ? undefined : point;
}

/** Removes the last assistant response (back to the last user message), within oh-my-opencode's limits. */
export async function revertLastResponse(
  session: Session,
  budget: StepBudget,
  config: AutoCompactConfig,
): Promise<boolean> {
  const point = revertPoint(session);
  if (point === undefined || budget.reverts >= config.max_revert_attempts || point + 1 < config.min_messages)
    return false;
  await session.revert(session.messages()[point]!.id);
  budget.reverts++;
  return true;
}

/** Compresses the whole session with the active engine, aiming under `targetTokens`. */
export async function summarizeSession(
  host: Host,
  session: Session,
  contextWindow: number,
  targetTokens: number,
  signal: AbortSignal,
): Promise<boolean> {
  // Through core's runCompaction, so `compaction.before` (instructions, veto) and the started/failed events apply here too.
  const outcome = await runCompaction(host, session, {
    reason: 'recovery',
    contextWindow,
    targetTokens,
    signal,
    notes: [`recovery target ${formatTokens(targetTokens)} tokens`],
  });
  if (outcome.status === 'failed') throw new Error(outcome.error);
  return outcome.status === 'completed';
}
