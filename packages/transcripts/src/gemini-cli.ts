import type { JsonValue, Message, Part } from '@ctxhost/core';
import { BlockProblem } from './claude-code-blocks.js';
import { contentParts, plainPart, readTokens, responseText, thoughtText, toolCallRecord } from './gemini-cli-parts.js';
import { readGeminiCliRecords, type ChatRecord } from './gemini-cli-records.js';
import { isRecord, type ParseContext } from './parse-context.js';
import type { Transcript, TranscriptBoundary, TranscriptUsage } from './transcript.js';

/** Records the UI shows but never sends (Gemini CLI's `convertSessionToClientHistory` skips them). */
const NOT_SENT = new Set(['info', 'error', 'warning']);
const SNAPSHOT_TAG = '<state_snapshot>';

/**
 * A Gemini CLI session (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, learnt
 * from `@google/gemini-cli` 0.61.0's `ChatRecordingService`; the older
 * `session-*.json` too). User records are the user's turns (Gemini CLI's
 * `<session_context>` first, `meta.sessionContext`); a gemini record is one model
 * request: its thoughts (reasoning), text and `toolCalls`, then a tool message with
 * each call's recorded result (`status: "error"` → `isError`); its `tokens` are
 * that request's usage and `model` its model. A user record holding only the
 * function responses already answered by `toolCalls` (0.61 writes both) is not
 * repeated. Chat compression starts a new segment: a boundary, then the history
 * Gemini CLI rebuilt (its environment context, the `<state_snapshot>` summary, its
 * "Got it." and the kept turns). info, error and warning records are counted in
 * `meta.notSent`; slash commands in `meta.slashCommands`.
 */
export function parseGeminiCli(text: string, json: unknown, context: ParseContext): Omit<Transcript, 'skipped'> {
  const meta: Record<string, JsonValue> = {
    notSent: 0,
    slashCommands: 0,
    repeatedFunctionResponses: 0,
    unansweredToolCalls: 0,
    keptAfterCompression: 0,
  };
  const segments = readGeminiCliRecords(text, json, context, meta);
  const builder = createBuilder(meta);
  for (const [index, segment] of segments.entries()) {
    if (index > 0) builder.boundary(segment.boundaryLine ?? 0);
    for (const record of segment.records) {
      try {
        builder.record(record, index);
      } catch (error) {
        if (!(error instanceof BlockProblem)) throw error;
        context.invalid(record.line, `${record.where} (${record.type} ${record.id}): ${error.message}`, error);
      }
    }
  }
  const models = [...builder.models];
  if (models.length > 0) meta.models = models;
  return {
    format: 'gemini-cli',
    messages: builder.messages,
    usage: builder.usage,
    ...(builder.boundaries.length > 0 ? { boundaries: builder.boundaries } : {}),
    meta,
  };
}

function createBuilder(meta: Record<string, JsonValue>) {
  const messages: Message[] = [];
  const usage: TranscriptUsage[] = [];
  const boundaries: TranscriptBoundary[] = [];
  const models = new Set<string>();
  const emitted = new Set<string>();
  const answered = new Set<string>();
  const count = (key: string): void => void (meta[key] = Number(meta[key] ?? 0) + 1);

  /** A message id once per transcript: a record sent again after a compression gets `#<segment>`. */
  const idFor = (record: ChatRecord, segment: number): { id: string; repeated: boolean } => {
    const repeated = emitted.has(record.id);
    emitted.add(record.id);
    if (repeated) count('keptAfterCompression');
    return { id: repeated ? `${record.id}#${segment}` : record.id, repeated };
  };
  const sourceMeta = (record: ChatRecord, repeated: boolean): Record<string, JsonValue> => ({
    ...(record.line === undefined ? {} : { sourceLine: record.line }),
    ...(repeated ? { keptFromCompaction: true } : {}),
  });

  const user = (record: ChatRecord, segment: number): void => {
    const parts = contentParts(record.value.content);
    if (parts.length > 0 && parts.every((part) => isRecord(part.functionResponse)))
      return functionResponses(record, parts, segment);
    const text = parts
      .map((part) => (typeof part.text === 'string' ? part.text : ''))
      .join('')
      .trim();
    if (text.startsWith('/') || text.startsWith('?')) return count('slashCommands');
    const { id, repeated } = idFor(record, segment);
    const converted = parts.flatMap((part, index) => plainPart(part, `${id}.${index}`) ?? []);
    if (converted.length === 0) return;
    const messageMeta = sourceMeta(record, repeated);
    if (text.startsWith('<session_context>')) messageMeta.sessionContext = true;
    if (text.startsWith(SNAPSHOT_TAG)) {
      messageMeta.compactSummary = true;
      const boundary = boundaries.at(-1);
      if (boundary !== undefined && boundary.summaryIndex === undefined) boundary.summaryIndex = messages.length;
    }
    messages.push({ id, role: 'user', parts: converted, meta: messageMeta });
  };

  /** Function responses recorded as a user turn: only those no `toolCalls` result already gave. */
  const functionResponses = (record: ChatRecord, parts: Record<string, unknown>[], segment: number): void => {
    const { id, repeated } = idFor(record, segment);
    const results: Part[] = [];
    parts.forEach((part, index) => {
      const response = part.functionResponse as Record<string, unknown>;
      const callId = typeof response.id === 'string' ? response.id : '';
      if (callId !== '' && answered.has(callId)) return count('repeatedFunctionResponses');
      if (callId === '') throw new BlockProblem(`content[${index}]: functionResponse has no "id"`);
      answered.add(callId);
      const isError = isRecord(response.response) && response.response.error !== undefined;
      results.push({
        id: `${id}.${index}`,
        type: 'tool-result',
        callId,
        ...(typeof response.name === 'string' ? { name: response.name } : {}),
        output: responseText(response.response),
        ...(isError ? { isError } : {}),
      });
    });
    if (results.length > 0) messages.push({ id, role: 'tool', parts: results, meta: sourceMeta(record, repeated) });
  };

  const gemini = (record: ChatRecord, segment: number): void => {
    const { id, repeated } = idFor(record, segment);
    const thoughts = Array.isArray(record.value.thoughts) ? (record.value.thoughts as unknown[]) : [];
    const said: Part[] = thoughts.map((thought, index) => ({
      id: `${id}.thought${index}`,
      type: 'reasoning',
      text: thoughtText(thought, index),
    }));
    const calls = (Array.isArray(record.value.toolCalls) ? (record.value.toolCalls as unknown[]) : []).map(
      toolCallRecord,
    );
    const callIds = new Set(calls.map((call) => call.callId));
    contentParts(record.value.content).forEach((part, index) => {
      const call = isRecord(part.functionCall) ? part.functionCall : undefined;
      if (call === undefined) {
        const converted = plainPart(part, `${id}.${index}`);
        if (converted !== undefined) said.push(converted);
      } else if (typeof call.id === 'string' && !callIds.has(call.id) && typeof call.name === 'string') {
        said.push({
          id: `${id}.${index}`,
          type: 'tool-call',
          callId: call.id,
          name: call.name,
          input: (call.args ?? {}) as JsonValue,
        });
      }
    });
    for (const call of calls)
      said.push({
        id: `${id}.call.${call.callId}`,
        type: 'tool-call',
        callId: call.callId,
        name: call.name,
        input: call.input,
      });
    if (said.length === 0) return count('emptyModelRecords');
    const messageMeta = sourceMeta(record, repeated);
    if (typeof record.value.model === 'string') {
      messageMeta.model = record.value.model;
      models.add(record.value.model);
    }
    messages.push({ id, role: 'assistant', parts: said, meta: messageMeta });
    const reported = repeated ? undefined : readTokens(record.value.tokens);
    if (reported !== undefined)
      usage.push({ usage: reported, messageIndex: Math.max(0, messages.length - 2), replyIndex: messages.length - 1 });
    const results: Part[] = [];
    for (const call of calls) {
      if (call.output === undefined) {
        count('unansweredToolCalls');
        continue;
      }
      answered.add(call.callId);
      results.push({
        id: `${id}.result.${call.callId}`,
        type: 'tool-result',
        callId: call.callId,
        name: call.name,
        output: call.output,
        ...(call.isError ? { isError: true } : {}),
      });
    }
    if (results.length > 0)
      messages.push({ id: `${id}.tools`, role: 'tool', parts: results, meta: sourceMeta(record, repeated) });
  };

  return {
    messages,
    usage,
    boundaries,
    models,
    boundary(line: number): void {
      boundaries.push({ messageIndex: messages.length, line, source: 'boundary-line' });
      answered.clear();
    },
    record(record: ChatRecord, segment: number): void {
      if (record.type === 'user') user(record, segment);
      else if (record.type === 'gemini') gemini(record, segment);
      else if (NOT_SENT.has(record.type)) count('notSent');
      else
        throw new BlockProblem(`unknown message type "${record.type}" (expected user, gemini, info, error or warning)`);
    },
  };
}
