import type { ContentBlock, MessagesRequest, SimulatorFeature } from '@ctxhost/simulator';
import { NOTICE_PREFIX } from 'ctxhost';
import { resultKey, type RecordedTurn } from './replay-plan.js';

export const REPLAY_RESPONDER = 'ctxhost-replay';

export interface ReplayResponder {
  feature: SimulatorFeature;
  /** The call ids the simulator has sent to a session and the agent has not run yet, oldest first. */
  takeCallId(sessionId: string): string | undefined;
  /** The model of the recorded turn last answered to this session (undefined before its first or when the transcript does not say). */
  modelOf(sessionId: string): string | undefined;
  /** Distinct recorded turns answered so far. */
  readonly answered: number;
  /** Recorded turns answered again: the request came back after a recovery reverted the turns that followed it. */
  readonly repeated: number;
}

/**
 * A simulator feature that answers each request with the recorded assistant
 * turn that followed the same last message in the transcript (a tool result's
 * call id, or the user's text). Keyed by the request, not by arrival order, so
 * a rejected request, a compaction or a resend never shifts the replay. A key
 * whose turns are all answered answers its last one again: after a recovery
 * reverts a response, the re-asked requests get what the model said before.
 * A turn whose usage the recording carries reports its recorded output tokens,
 * so the replay is billed for the output the recording was; the prompt's
 * tokens are the simulator's count of what ctxhost sent.
 */
export function createReplayResponder(turns: ReadonlyMap<string, readonly RecordedTurn[]>): ReplayResponder {
  const queues = new Map([...turns].map(([key, list]) => [key, [...list]]));
  const lastAnswered = new Map<string, RecordedTurn>();
  const keysByRequest = new Map<string, string[]>();
  const pendingCalls = new Map<string, string[]>();
  const models = new Map<string, string>();
  let answered = 0;
  let repeated = 0;
  return {
    feature: {
      name: REPLAY_RESPONDER,
      prepareRequest(request, context) {
        keysByRequest.set(context.requestId, requestKeys(request));
        return request;
      },
      finishTurn(turn, context) {
        const keys = keysByRequest.get(context.requestId) ?? [];
        keysByRequest.delete(context.requestId);
        const key =
          keys.find((candidate) => (queues.get(candidate)?.length ?? 0) > 0) ??
          keys.find((candidate) => lastAnswered.has(candidate));
        const next = key === undefined ? undefined : queues.get(key)?.shift();
        const recorded = next ?? (key === undefined ? undefined : lastAnswered.get(key));
        if (key === undefined || recorded === undefined || recorded.content.length === 0) return turn;
        if (next === undefined) repeated++;
        else answered++;
        lastAnswered.set(key, recorded);
        if (recorded.model !== undefined) models.set(recorded.sessionId, recorded.model);
        pendingCalls.set(recorded.sessionId, [...(pendingCalls.get(recorded.sessionId) ?? []), ...recorded.callIds]);
        return {
          content: recorded.content.map((block) => ({ ...block })),
          stop_reason: recorded.callIds.length > 0 ? 'tool_use' : 'end_turn',
          ...(recorded.outputTokens === undefined ? {} : { usage: { output_tokens: recorded.outputTokens } }),
        };
      },
    },
    takeCallId: (sessionId) => pendingCalls.get(sessionId)?.shift(),
    modelOf: (sessionId) => models.get(sessionId),
    get answered() {
      return answered;
    },
    get repeated() {
      return repeated;
    },
  };
}

/**
 * The key of a wire request: the call ids of its last message's tool results,
 * or its last user text. ctxhost's own preemptive notice, appended after them,
 * is not what the recorded turn answered: it is skipped.
 */
export function requestKey(request: MessagesRequest): string | undefined {
  return requestKeys(request)[0];
}

/**
 * The keys a recorded turn may be filed under, likeliest first. Results followed by
 * the user's text in one message (a stopped tool, then the user's next words, which
 * the transcript logged apart) are keyed by the text first, then by the results.
 */
export function requestKeys(request: MessagesRequest): string[] {
  const messages = request.messages.filter((message) => !isNotice(message));
  const last = messages.at(-1);
  if (last === undefined || last.role !== 'user') return [];
  if (typeof last.content === 'string') return [`user:${last.content.trim()}`];
  const blocks = last.content.filter((block) => !isNoticeText(block));
  const results = blocks.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id));
  const textAt = blocks.findLastIndex((block) => block.type === 'text' && block.text !== undefined);
  const textKey = textAt < 0 ? undefined : `user:${blocks[textAt]!.text!.trim()}`;
  if (results.length === 0) return textKey === undefined ? [] : [textKey];
  const lastResultAt = blocks.findLastIndex((block) => block.type === 'tool_result');
  return textKey !== undefined && textAt > lastResultAt ? [textKey, resultKey(results)] : [resultKey(results)];
}

function isNotice(message: MessagesRequest['messages'][number]): boolean {
  if (message.role !== 'user') return false;
  if (typeof message.content === 'string') return message.content.startsWith(NOTICE_PREFIX);
  return message.content.length > 0 && message.content.every(isNoticeText);
}

function isNoticeText(block: ContentBlock): boolean {
  return block.type === 'text' && typeof block.text === 'string' && block.text.startsWith(NOTICE_PREFIX);
}
