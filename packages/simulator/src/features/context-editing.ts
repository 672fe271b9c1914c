import { invalid, type ApiError } from '../wire/api-error.js';
import { amountOf, checkAmount } from './context-management.js';
import type { SimulatorFeature } from './features.js';
import { COMPACTION_BETA, fromLastCompaction } from './server-compaction.js';
import { countTokens, messageBlocks } from '../wire/tokenizer.js';
import type { ContentBlock, ContextEdit, MessagesRequest, WireMessage } from '../wire/wire.js';

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
export const CLEAR_TOOL_USES = 'clear_tool_uses_20250919';
export const CLEAR_THINKING = 'clear_thinking_20251015';
/**
 * What a cleared tool result says instead of its output. The API documents
 * "placeholder text" without quoting it; this is the simulator's wording.
 */
export const CLEARED_TOOL_RESULT_TEXT = '[tool result cleared by context management]';

/** Anthropic's documented defaults: trigger at 100,000 input tokens, keep the last 3 tool uses, keep the last thinking turn. */
export const CONTEXT_EDITING_DEFAULTS = {
  trigger: { type: 'input_tokens', value: 100_000 },
  keep: { type: 'tool_uses', value: 3 },
  keepThinkingTurns: 1,
} as const;

/** One entry of the response's `context_management.applied_edits`. */
export interface AppliedEdit {
  type: string;
  cleared_input_tokens: number;
  cleared_tool_uses?: number;
  cleared_thinking_turns?: number;
}

/**
 * Context editing (beta `context-management-2025-06-27`): before the prompt
 * is counted, cached and answered, `clear_thinking_20251015` drops thinking
 * blocks of older assistant turns and `clear_tool_uses_20250919` replaces the
 * results of older tool uses by a placeholder once the trigger is exceeded.
 * The edits happen on the server only: the client keeps sending its full
 * history. Each applied edit is reported in `context_management.applied_edits`.
 */
export function createContextEditingFeature(): SimulatorFeature {
  return {
    name: 'context-editing',
    beta: CONTEXT_MANAGEMENT_BETA,
    editTypes: [CLEAR_TOOL_USES, CLEAR_THINKING],
    validateEdit,
    prepareRequest(received, context) {
      // What a compaction block replaced is no longer in the context: edits count and clear only what follows it.
      const request = context.betas.has(COMPACTION_BETA) ? fromLastCompaction(received) : received;
      const edits = ((request['context_management'] as { edits?: ContextEdit[] } | undefined)?.edits ?? []).filter(
        (edit) => edit.type === CLEAR_TOOL_USES || edit.type === CLEAR_THINKING,
      );
      const applied: AppliedEdit[] = [];
      let current = request;
      for (const edit of edits) {
        const result = edit.type === CLEAR_THINKING ? clearThinking(current, edit) : clearToolUses(current, edit);
        if (result === undefined) continue;
        current = result.request;
        applied.push(result.applied);
      }
      context.response['context_management'] = { applied_edits: applied };
      return applied.length === 0 ? received : current;
    },
  };
}

function validateEdit(edit: ContextEdit, where: string): ApiError | undefined {
  if (edit.type === CLEAR_THINKING) {
    if (edit['keep'] === 'all' || (edit['keep'] as { type?: unknown } | undefined)?.type === 'all') return undefined;
    return checkAmount(edit, 'keep', ['thinking_turns'], 0, where);
  }
  const problem =
    checkAmount(edit, 'trigger', ['input_tokens', 'tool_uses'], 1, where) ??
    checkAmount(edit, 'keep', ['tool_uses'], 0, where) ??
    checkAmount(edit, 'clear_at_least', ['input_tokens'], 0, where);
  if (problem) return problem;
  const exclude = edit['exclude_tools'];
  if (exclude !== undefined && (!Array.isArray(exclude) || exclude.some((name) => typeof name !== 'string')))
    return invalid(`${where}.exclude_tools: Input should be a valid list of tool names`, false);
  const inputs = edit['clear_tool_inputs'];
  return inputs !== undefined && typeof inputs !== 'boolean'
    ? invalid(`${where}.clear_tool_inputs: Input should be a valid boolean`, false)
    : undefined;
}

interface ToolUse {
  id: string;
  name: string;
}

function clearToolUses(
  request: MessagesRequest,
  edit: ContextEdit,
): { request: MessagesRequest; applied: AppliedEdit } | undefined {
  const uses = request.messages
    .filter((message) => message.role === 'assistant')
    .flatMap((message) =>
      messageBlocks(message)
        .filter((block) => block.type === 'tool_use')
        .map((block): ToolUse => ({ id: String(block['id']), name: String(block['name']) })),
    );
  const before = countTokens(request);
  const trigger = amountOf(edit, 'trigger', CONTEXT_EDITING_DEFAULTS.trigger);
  if ((trigger.type === 'tool_uses' ? uses.length : before) <= trigger.value) return undefined;
  const keep = amountOf(edit, 'keep', CONTEXT_EDITING_DEFAULTS.keep).value;
  const excluded = new Set((edit['exclude_tools'] as string[] | undefined) ?? []);
  const clearable = uses
    .slice(0, Math.max(0, uses.length - keep))
    .filter((use) => !excluded.has(use.name))
    .map((use) => use.id);
  const done = alreadyCleared(request);
  const cleared = new Set(clearable.filter((id) => !done.has(id)));
  if (cleared.size === 0) return undefined;
  const clearInputs = edit['clear_tool_inputs'] === true;
  const edited: MessagesRequest = {
    ...request,
    messages: request.messages.map((message) => clearMessage(message, cleared, clearInputs)),
  };
  const freed = before - countTokens(edited);
  const atLeast =
    edit['clear_at_least'] === undefined
      ? 0
      : amountOf(edit, 'clear_at_least', { type: 'input_tokens', value: 0 }).value;
  if (freed < atLeast) return undefined;
  return {
    request: edited,
    applied: { type: CLEAR_TOOL_USES, cleared_tool_uses: cleared.size, cleared_input_tokens: freed },
  };
}

/** Tool uses whose result a client sent back already cleared (it kept the server's placeholder). */
function alreadyCleared(request: MessagesRequest): Set<string> {
  const ids = request.messages.flatMap((message) =>
    messageBlocks(message)
      .filter((block) => block.type === 'tool_result' && block['content'] === CLEARED_TOOL_RESULT_TEXT)
      .map((block) => String(block['tool_use_id'])),
  );
  return new Set(ids);
}

function clearMessage(message: WireMessage, cleared: ReadonlySet<string>, clearInputs: boolean): WireMessage {
  if (typeof message.content === 'string') return message;
  let changed = false;
  const content = message.content.map((block): ContentBlock => {
    if (block.type === 'tool_result' && cleared.has(String(block['tool_use_id']))) {
      changed = true;
      return { ...block, content: CLEARED_TOOL_RESULT_TEXT };
    }
    if (clearInputs && block.type === 'tool_use' && cleared.has(String(block['id']))) {
      changed = true;
      return { ...block, input: {} };
    }
    return block;
  });
  return changed ? { ...message, content } : message;
}

const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

function clearThinking(
  request: MessagesRequest,
  edit: ContextEdit,
): { request: MessagesRequest; applied: AppliedEdit } | undefined {
  const keepOption = edit['keep'];
  if (keepOption === 'all' || (keepOption as { type?: unknown } | undefined)?.type === 'all') return undefined;
  const keep =
    keepOption === undefined ? CONTEXT_EDITING_DEFAULTS.keepThinkingTurns : (keepOption as { value: number }).value;
  const withThinking = request.messages.flatMap((message, index) =>
    message.role === 'assistant' && messageBlocks(message).some((block) => THINKING_TYPES.has(block.type))
      ? [index]
      : [],
  );
  // A turn of thinking only would become empty, which the API refuses: it keeps its thinking.
  const targets = new Set(
    withThinking
      .slice(0, Math.max(0, withThinking.length - keep))
      .filter((index) => messageBlocks(request.messages[index]!).some((block) => !THINKING_TYPES.has(block.type))),
  );
  if (targets.size === 0) return undefined;
  const messages = request.messages.map((message, index) =>
    targets.has(index)
      ? { ...message, content: messageBlocks(message).filter((block) => !THINKING_TYPES.has(block.type)) }
      : message,
  );
  const edited = { ...request, messages };
  return {
    request: edited,
    applied: {
      type: CLEAR_THINKING,
      cleared_thinking_turns: targets.size,
      cleared_input_tokens: countTokens(request) - countTokens(edited),
    },
  };
}
