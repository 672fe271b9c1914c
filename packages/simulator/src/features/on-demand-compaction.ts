import { invalid, type ApiError } from '../wire/api-error.js';
import { buildSummary } from '../responders/summary.js';
import type { MessagesRequest } from '../wire/wire.js';
import type { SimulatorFeature } from './features.js';
import { sealSummary } from './opaque-summary.js';
import { COMPACTION_BLOCK, fromLastCompaction } from './server-compaction.js';

export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';
const NAME = 'on-demand-compaction';

/**
 * Checks the top-level `compaction` field (`@anthropic-ai/sdk` 1.12's
 * `BetaCompactionConfig`): unknown to the API without its beta (rejected as any
 * extra field is), `type` must be `summarize`, `instructions` a string or null,
 * and it "cannot be combined with `context_management`".
 */
export function validateCompactionField(request: MessagesRequest, active: boolean): ApiError | undefined {
  if (!('compaction' in request) || request['compaction'] === undefined || request['compaction'] === null)
    return undefined;
  if (!active) return invalid('compaction: Extra inputs are not permitted', false);
  const field = request['compaction'];
  if (typeof field !== 'object' || Array.isArray(field))
    return invalid('compaction: Input should be a valid dictionary or object', false);
  const { type, instructions, ...rest } = field as Record<string, unknown>;
  if (type !== 'summarize') return invalid(`compaction.type: Input should be 'summarize'`, false);
  if (instructions !== undefined && instructions !== null && typeof instructions !== 'string')
    return invalid('compaction.instructions: Input should be a valid string', false);
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return invalid(`compaction.${extra}: Extra inputs are not permitted`, false);
  if (request['context_management'] !== undefined && request['context_management'] !== null)
    return invalid('compaction: cannot be combined with context_management', false);
  return undefined;
}

interface Compacted {
  summary: string;
}

/**
 * On-demand compaction (beta `compact-2026-09-04`). A request carrying a
 * compaction block is read from that block on, as with threshold compaction.
 * A request with `compaction: { type: 'summarize' }` is a compaction request:
 * the reply is one `compaction` block (the simulator's structured summary of
 * what was sent, its `encrypted_content` sealed so the simulator can read it
 * back) with `stop_reason: "compaction"`, billed as the prompt in and the
 * summary out. Instructions replace the server's prompt (the simulator only
 * checks their type).
 */
export function createOnDemandCompactionFeature(): SimulatorFeature {
  return {
    name: NAME,
    beta: ON_DEMAND_COMPACTION_BETA,
    blockTypes: [COMPACTION_BLOCK],
    prepareRequest(request, context) {
      const effective = fromLastCompaction(request);
      if (request['compaction'] === undefined || request['compaction'] === null) return effective;
      // The summary of a request that itself starts from a summary carries it on.
      const carried = carryPrevious(effective);
      context.state.set(NAME, { summary: buildSummary(carried) } satisfies Compacted);
      return effective;
    },
    finishTurn(turn, context) {
      const compacted = context.state.get(NAME) as Compacted | undefined;
      if (compacted === undefined) return turn;
      return {
        content: [
          {
            type: COMPACTION_BLOCK,
            content: compacted.summary,
            encrypted_content: sealSummary(compacted.summary),
          },
        ],
        stop_reason: 'compaction',
      };
    },
  };
}

function carryPrevious(request: MessagesRequest): MessagesRequest {
  const first = request.messages[0];
  const blocks = first === undefined || typeof first.content === 'string' ? [] : first.content;
  const previous = blocks.find((block) => block.type === COMPACTION_BLOCK);
  if (previous === undefined) return request;
  return {
    ...request,
    messages: [{ role: 'user', content: String(previous['content']) }, ...request.messages.slice(1)],
  };
}

/** A compaction request: nothing is sampled, so no responder is asked for a turn. */
export function isCompactionRequest(request: MessagesRequest): boolean {
  return request['compaction'] !== undefined && request['compaction'] !== null;
}
