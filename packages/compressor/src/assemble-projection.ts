import {
  coveredCount,
  createMessage,
  messageContentHash,
  ORIGINAL_TOOL_NAME,
  type Covers,
  type Message,
  type Part,
  type SummarySource,
} from '@ctxhost/core';
import { COMPRESSOR } from './constants.js';

export interface AssembleOptions {
  head: readonly Message[];
  tail: readonly Message[];
  summaryText: string;
  source: SummarySource;
  covers: Covers;
  iteration: number;
}

/**
 * Phase 4: head (the system prompt gets a note on the first compression only,
 * so the cached prompt changes once), the summary message (its role chosen so
 * it does not repeat its neighbours' where that is possible), the tail
 * unmodified; then orphaned tool pairs are sanitised.
 */
export function assembleProjection(options: AssembleOptions): Message[] {
  const head = options.head.map((message, index) =>
    index === 0 && message.role === 'system' ? withSystemNote(message) : message,
  );
  const role = summaryRole(head.at(-1), options.tail[0]);
  const id = summaryId(role, options);
  const count = coveredCount(options.covers);
  const handles =
    count === 0 ? '' : `\n(Covered messages: ${ORIGINAL_TOOL_NAME} handle ${id}#1 … ${id}#${count}, oldest first.)`;
  const summary = createMessage(
    role,
    [{ type: 'text', text: `${COMPRESSOR.summaryPrefix}${handles}\n\n${options.summaryText}` }],
    {
      id,
      meta: {
        summary: {
          covers: options.covers,
          engine: COMPRESSOR.name,
          source: options.source as 'model' | 'chunked' | 'extractive',
          iteration: options.iteration,
        },
      },
    },
  );
  return sanitizeToolPairs([...head, summary, ...options.tail]);
}

/**
 * The summary's id, which the model sees in its handles: derived from what it
 * covers and says, not drawn at random, so the same compaction sends the same
 * prompt (a replay is repeatable, and a random id's digits moved the token count).
 */
function summaryId(role: Message['role'], options: AssembleOptions): string {
  const covers = Array.isArray(options.covers)
    ? options.covers.join('\u0000')
    : `${options.covers.first}\u0000${options.covers.last}\u0000${options.covers.count}`;
  const text = `${covers}\u0000${options.iteration}\u0000${options.summaryText}`;
  const hash = messageContentHash({ id: '', role, parts: [{ id: '', type: 'text', text }] });
  return `summary-${hash.toString(16).padStart(14, '0').slice(-8)}`;
}

function withSystemNote(message: Message): Message {
  const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  if (text.includes(COMPRESSOR.systemNote)) return message;
  const last = message.parts.at(-1);
  if (last?.type !== 'text')
    return {
      ...message,
      parts: [...message.parts, { id: `${message.id}:note`, type: 'text', text: COMPRESSOR.systemNote }],
    };
  return {
    ...message,
    parts: [...message.parts.slice(0, -1), { ...last, text: `${last.text}\n\n${COMPRESSOR.systemNote}` }],
  };
}

const side = (message: Message | undefined): 'user' | 'assistant' | undefined =>
  message === undefined || message.role === 'system' ? undefined : message.role === 'assistant' ? 'assistant' : 'user';

/**
 * The summary's role: unlike both neighbours when possible. Between a user
 * turn and an assistant turn no role fits; then it is `user` (the API joins
 * consecutive user turns; a model-side summary would read as the model's own words).
 * With no conversation turn before it (only a system prompt, or nothing) it is
 * `user` too: a conversation must open with a user turn.
 */
export function summaryRole(before: Message | undefined, after: Message | undefined): 'user' | 'assistant' {
  const [previous, next] = [side(before), side(after)];
  if (previous === undefined) return 'user';
  const opposite = previous === 'user' ? 'assistant' : 'user';
  return opposite !== next ? opposite : 'user';
}

/** Results whose call is gone are dropped; calls whose results are gone get a stub result right after them. */
export function sanitizeToolPairs(messages: readonly Message[]): Message[] {
  const calls = new Set(
    messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : []))),
  );
  const results = new Set(
    messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : []))),
  );
  const out: Message[] = [];
  for (const message of messages) {
    const parts = message.parts.filter((part) => part.type !== 'tool-result' || calls.has(part.callId));
    if (parts.length === 0 && message.parts.length > 0) continue;
    out.push(parts.length === message.parts.length ? message : { ...message, parts });
    const missing = message.parts.filter(
      (part): part is Extract<Part, { type: 'tool-call' }> => part.type === 'tool-call' && !results.has(part.callId),
    );
    if (missing.length > 0)
      out.push(
        createMessage(
          'tool',
          missing.map((call) => ({ type: 'tool-result' as const, callId: call.callId, output: COMPRESSOR.stubResult })),
        ),
      );
  }
  return out;
}
