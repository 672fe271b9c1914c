import { invalid, type ApiError } from '../wire/api-error.js';
import { amountOf, checkAmount, editsOf } from './context-management.js';
import type { FeatureContext, SimulatorFeature } from './features.js';
import { buildSummary } from '../responders/summary.js';
import { countTextTokens, countTokens, messageBlocks } from '../wire/tokenizer.js';
import type { ContentBlock, ContextEdit, MessagesRequest, WireMessage } from '../wire/wire.js';

export const COMPACTION_BETA = 'compact-2026-01-12';
export const COMPACT_EDIT = 'compact_20260112';
export const COMPACTION_BLOCK = 'compaction';

/**
 * Anthropic's documented trigger: 150,000 input tokens by default (SDK types),
 * at least 50,000 (Anthropic's compaction guide; not in the SDK types).
 */
export const COMPACTION_DEFAULTS = {
  trigger: { type: 'input_tokens', value: 150_000 },
  minimumTrigger: 50_000,
} as const;

const NAME = 'server-compaction';

interface Compacted {
  block: ContentBlock;
  iteration: {
    type: 'compaction';
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: 0;
    cache_read_input_tokens: 0;
    cache_creation: null;
  };
  pause: boolean;
}

/**
 * Server compaction (beta `compact-2026-01-12`, edit `compact_20260112`).
 * A request carrying a compaction block (content not null) in an assistant
 * message is read from that block on: everything before it is dropped, as
 * the API does, so it is neither counted nor cached. When what remains is
 * over the trigger, the server summarizes it (the simulator's structured
 * summary), answers from the summary and the last user message, and puts the
 * `compaction` block first in the reply; the compaction's own tokens are in
 * `usage.iterations`, not in the top-level figures. `pause_after_compaction`
 * returns the block alone with `stop_reason: "compaction"`.
 */
export function createServerCompactionFeature(): SimulatorFeature {
  return {
    name: NAME,
    beta: COMPACTION_BETA,
    blockTypes: [COMPACTION_BLOCK],
    editTypes: [COMPACT_EDIT],
    validateEdit,
    prepareRequest(request, context) {
      const effective = fromLastCompaction(request);
      const [edit] = editsOf(request, COMPACT_EDIT);
      if (edit === undefined) return effective;
      const tokens = countTokens(effective);
      const trigger = amountOf(edit, 'trigger', COMPACTION_DEFAULTS.trigger).value;
      // The summarizing pass must itself fit: over the window, the request fails as any other.
      if (tokens <= trigger || tokens > context.limits.contextLimit) return effective;
      const summary = summarize(effective, edit);
      const block: ContentBlock = { type: COMPACTION_BLOCK, content: summary, encrypted_content: null };
      context.state.set(NAME, {
        block,
        iteration: {
          type: 'compaction',
          input_tokens: tokens,
          output_tokens: countTextTokens(summary),
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          cache_creation: null,
        },
        pause: edit['pause_after_compaction'] === true,
      } satisfies Compacted);
      const last = request.messages.at(-1);
      return {
        ...effective,
        messages: [{ role: 'assistant', content: [block] }, ...(last?.role === 'user' ? [last] : [])],
      };
    },
    finishTurn(turn, context) {
      const compacted = compactedIn(context);
      if (compacted === undefined) return turn;
      if (compacted.pause) return { content: [compacted.block], stop_reason: 'compaction' };
      return { ...turn, content: [compacted.block, ...turn.content] };
    },
    finishUsage(usage, context) {
      const compacted = compactedIn(context);
      if (compacted === undefined) return usage;
      const message = {
        type: 'message',
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        cache_creation: usage.cache_creation,
      };
      return { ...usage, iterations: compacted.pause ? [compacted.iteration] : [compacted.iteration, message] };
    },
  };
}

function compactedIn(context: FeatureContext): Compacted | undefined {
  return context.state.get(NAME) as Compacted | undefined;
}

function validateEdit(edit: ContextEdit, where: string): ApiError | undefined {
  const problem = checkAmount(edit, 'trigger', ['input_tokens'], COMPACTION_DEFAULTS.minimumTrigger, where);
  if (problem) return problem;
  if (edit['pause_after_compaction'] !== undefined && typeof edit['pause_after_compaction'] !== 'boolean')
    return invalid(`${where}.pause_after_compaction: Input should be a valid boolean`, false);
  const instructions = edit['instructions'];
  return instructions !== undefined && instructions !== null && typeof instructions !== 'string'
    ? invalid(`${where}.instructions: Input should be a valid string`, false)
    : undefined;
}

/** The request as the server reads it: from the last compaction block with content on (null content is a no-op). */
export function fromLastCompaction(request: MessagesRequest): MessagesRequest {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (message.role !== 'assistant') continue;
    const blocks = messageBlocks(message);
    const at = blocks.findLastIndex((block) => block.type === COMPACTION_BLOCK && typeof block['content'] === 'string');
    if (at < 0) continue;
    const kept: WireMessage = { role: 'assistant', content: blocks.slice(at) };
    return { ...request, messages: [kept, ...request.messages.slice(index + 1)] };
  }
  return request;
}

function summarize(request: MessagesRequest, edit: ContextEdit): string {
  const instructions =
    typeof edit['instructions'] === 'string' && edit['instructions'].trim() !== ''
      ? `\n\n(instructions: ${edit['instructions'].trim()})`
      : '';
  const previous = messageBlocks(request.messages[0]!).find((block) => block.type === COMPACTION_BLOCK);
  // A previous summary is carried into the new one (its text is not a `text` block, so buildSummary would not see it).
  const carried =
    previous === undefined
      ? request
      : {
          ...request,
          messages: [{ role: 'user', content: String(previous['content']) }, ...request.messages.slice(1)],
        };
  return `${buildSummary(carried)}${instructions}`;
}
