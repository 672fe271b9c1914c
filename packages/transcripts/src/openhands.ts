import type { JsonValue } from '@ctxhost/core';
import { TRANSCRIPT_ERROR_CODES, TranscriptError, formatLocation } from './errors.js';
import { convertEvents } from './openhands-events.js';
import { isRecord, parseJsonLine, splitLines, type ParseContext } from './parse-context.js';
import type { Transcript, TranscriptOptions } from './transcript.js';

/**
 * OpenHands event streams: a JSON array of events (one run), or evaluation
 * output JSONL with one run a line, each `{ instance_id, history: [events], … }`.
 * `{ run: n }` picks the run (0-based, default 0); `meta.runs` says how many there are.
 */
export function parseOpenHands(
  text: string,
  context: ParseContext,
  options: TranscriptOptions,
): Omit<Transcript, 'skipped'> {
  const whole = tryParse(text);
  if (Array.isArray(whole)) return fromEvents(whole, context, 'oh-', undefined, { runs: 1, run: 0 });
  const lines = splitLines(text);
  const run = options.run ?? 0;
  const chosen = lines[run];
  if (!Number.isInteger(run) || run < 0 || chosen === undefined) {
    throw new TranscriptError(
      TRANSCRIPT_ERROR_CODES.runNotFound,
      `${formatLocation(context.file, undefined)}: run ${run} does not exist; the file has ${lines.length} run(s), numbered from 0`,
      { file: context.file },
    );
  }
  const value = parseJsonLine(context, chosen.text, chosen.line);
  if (value === undefined) return { format: 'openhands', messages: [], meta: { runs: lines.length, run } };
  if (!isRecord(value) || !Array.isArray(value.history)) {
    context.invalid(chosen.line, 'run line has no "history" array of events');
    return { format: 'openhands', messages: [], meta: { runs: lines.length, run } };
  }
  const instance: Record<string, JsonValue> =
    typeof value.instance_id === 'string' ? { instanceId: value.instance_id } : {};
  return fromEvents(value.history, context, `oh-${run}-`, chosen.line, { runs: lines.length, run, ...instance });
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function fromEvents(
  events: unknown[],
  context: ParseContext,
  idPrefix: string,
  line: number | undefined,
  meta: Record<string, JsonValue>,
): Omit<Transcript, 'skipped'> {
  const { messages, ignoredEvents } = convertEvents(events, idPrefix, (event, what) =>
    context.invalid(line, `event ${event}: ${what}`),
  );
  return { format: 'openhands', messages, meta: { ...meta, events: events.length, ignoredEvents } };
}
