import type { JsonValue } from '@ctxhost/core';
import { describe } from './claude-code-blocks.js';
import { isRecord, parseJsonLine, splitLines, type ParseContext } from './parse-context.js';

/** One message record of a Gemini CLI session (`type` user, gemini, info, error or warning). */
export interface ChatRecord {
  id: string;
  type: string;
  /** 1-based line of its last version (JSONL), or undefined in a legacy JSON file. */
  line: number | undefined;
  /** Where it is, for error messages: `message 12` (its place among the file's message records), `$set.messages[3]` or `messages[3]`. */
  where: string;
  value: Record<string, unknown>;
}

/** The messages the model saw between two compressions, and the line of the record that started it. */
export interface RecordSegment {
  records: ChatRecord[];
  boundaryLine?: number;
}

/**
 * Reads a Gemini CLI session as its `ChatRecordingService` writes it, into
 * segments of message records. JSONL (0.61): a header (`sessionId`,
 * `projectHash`), message records (a record written again with the same `id`
 * replaces the earlier one in place), `{ $set: { … } }` metadata updates and
 * `{ $rewindTo: id }` (drops that message and what follows). A `$set.messages`
 * replaces the whole list: when it keeps the list's order and only drops its
 * tail (a resumed session, a rolled-back request) it is a rewrite; when it drops
 * earlier messages (chat compression: the summary then the kept turns under new
 * ids) it starts a new segment. Legacy `session-*.json`: one object with
 * `messages`, one segment.
 */
export function readGeminiCliRecords(
  text: string,
  json: unknown,
  context: ParseContext,
  meta: Record<string, JsonValue>,
): RecordSegment[] {
  if (isRecord(json) && Array.isArray(json.messages)) return [legacySegment(json, json.messages, context, meta)];
  const segments: RecordSegment[] = [{ records: [] }];
  let current = new Map<string, ChatRecord>();
  // The ids in their order and each one's place, so a rewind removes only what it drops (a copy per rewind was quadratic).
  let order: string[] = [];
  let places = new Map<string, number>();
  const replace = (records: readonly ChatRecord[]): void => {
    current = new Map();
    order = [];
    places = new Map();
    for (const record of records) add(record);
  };
  const add = (record: ChatRecord): void => {
    if (!places.has(record.id)) {
      places.set(record.id, order.length);
      order.push(record.id);
    }
    current.set(record.id, record);
  };
  const rewindTo = (id: string): void => {
    const place = places.get(id) ?? 0;
    while (order.length > place) {
      const gone = order.pop()!;
      places.delete(gone);
      current.delete(gone);
    }
  };
  let ordinal = 0;
  const close = (boundaryLine: number) => {
    segments.at(-1)!.records = [...current.values()];
    segments.push({ records: [], boundaryLine });
    replace([]);
  };
  for (const { line, text: lineText } of splitLines(text)) {
    const value = parseJsonLine(context, lineText, line);
    if (value === undefined) continue;
    if (!isRecord(value)) {
      context.invalid(line, `line is ${describe(value)}, expected a Gemini CLI session record`);
    } else if (typeof value.$rewindTo === 'string') {
      rewindTo(value.$rewindTo);
      meta.rewinds = Number(meta.rewinds ?? 0) + 1;
    } else if (isRecord(value.$set)) {
      const list = value.$set.messages;
      if (typeof value.$set.summary === 'string') meta.summary = value.$set.summary;
      if (list === undefined) continue;
      const records = listRecords(list, line, context);
      if (records === undefined) continue;
      if (dropsEarlierMessages(current, records)) close(line);
      replace(records);
    } else if (typeof value.id === 'string') {
      const record = messageRecord(value, line, `message ${ordinal++}`, context);
      if (record !== undefined) add(record);
    } else if (typeof value.sessionId === 'string') {
      readHeader(value, meta);
    } else {
      context.invalid(line, `line has no "id", "$set", "$rewindTo" or "sessionId": not a Gemini CLI session record`);
    }
  }
  segments.at(-1)!.records = [...current.values()];
  return segments;
}

function legacySegment(
  json: Record<string, unknown>,
  messages: unknown[],
  context: ParseContext,
  meta: Record<string, JsonValue>,
): RecordSegment {
  readHeader(json, meta);
  const records: ChatRecord[] = [];
  messages.forEach((message, index) => {
    const record = isRecord(message)
      ? messageRecord(message, undefined, `messages[${index}]`, context)
      : (context.invalid(undefined, `messages[${index}] is ${describe(message)}, expected a message record`),
        undefined);
    if (record !== undefined) records.push(record);
  });
  return { records };
}

function readHeader(value: Record<string, unknown>, meta: Record<string, JsonValue>): void {
  for (const key of ['sessionId', 'projectHash', 'startTime', 'kind'] as const)
    if (typeof value[key] === 'string' && meta[key] === undefined) meta[key] = value[key];
  if (typeof value.summary === 'string') meta.summary = value.summary;
}

function messageRecord(
  value: Record<string, unknown>,
  line: number | undefined,
  where: string,
  context: ParseContext,
): ChatRecord | undefined {
  if (typeof value.id !== 'string' || value.id === '') {
    context.invalid(line, `${where}: message record has no "id"`);
    return undefined;
  }
  if (typeof value.type !== 'string') {
    context.invalid(line, `${where}: message ${value.id} has no "type" (user, gemini, info, error or warning)`);
    return undefined;
  }
  return { id: value.id, type: value.type, line, where, value };
}

function listRecords(list: unknown, line: number, context: ParseContext): ChatRecord[] | undefined {
  if (!Array.isArray(list)) {
    context.invalid(line, `"$set.messages" is ${describe(list)}, expected a list`);
    return undefined;
  }
  const records: ChatRecord[] = [];
  for (const [index, item] of list.entries()) {
    const where = `$set.messages[${index}]`;
    const record = isRecord(item)
      ? messageRecord(item, line, where, context)
      : (context.invalid(line, `${where} is ${describe(item)}, expected a message record`), undefined);
    if (record !== undefined) records.push(record);
  }
  return records;
}

/** True when the new list leaves out a message before its end: a compression, not a rewrite of the tail. */
function dropsEarlierMessages(current: Map<string, ChatRecord>, records: ChatRecord[]): boolean {
  const before = [...current.keys()];
  const after = records.map((record) => record.id);
  if (before.length === 0) return false;
  const prefixOfBefore = after.every((id, index) => before[index] === id);
  const extendsBefore = before.every((id, index) => after[index] === id);
  const kept = new Set(after);
  return !prefixOfBefore && !extendsBefore && before.some((id) => !kept.has(id));
}
