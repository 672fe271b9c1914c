import { isRecord } from './parse-context.js';
import type { TranscriptFormat } from './transcript.js';

export interface FormatDetection {
  format: TranscriptFormat | undefined;
  /** Why each format that was tried did not match. */
  reasons: Record<TranscriptFormat, string>;
  /** The whole text parsed as JSON, when it did (reused by the importer). */
  json?: unknown;
}

const LINES_TRIED = 5;

/**
 * Detects the format from the content, never the file name: a whole-file JSON
 * object with a `history` of role messages is SWE-agent; a JSON array of events
 * (or JSONL lines with a `history` of events) is OpenHands; JSONL lines with a
 * `type` and a `uuid`/`leafUuid`/`sessionId` are Claude Code; a whole-file JSON
 * object with an `info` and `messages` of `{ info, parts }` is an opencode export;
 * JSONL lines `{ type, payload }` of Codex's line types are a Codex rollout;
 * a `sessionId` + `projectHash` header (JSONL, or one JSON object with `messages`)
 * is a Gemini CLI session.
 */
export function detectFormat(text: string): FormatDetection {
  const reasons = {
    'claude-code': '',
    openhands: '',
    'swe-agent': '',
    pi: '',
    opencode: '',
    codex: '',
    'gemini-cli': '',
  } satisfies Record<TranscriptFormat, string>;
  if (text.trim() === '')
    return {
      format: undefined,
      reasons: {
        'claude-code': 'the file is empty',
        openhands: 'the file is empty',
        'swe-agent': 'the file is empty',
        pi: 'the file is empty',
        opencode: 'the file is empty',
        codex: 'the file is empty',
        'gemini-cli': 'the file is empty',
      },
    };
  const json = parseOrUndefined(text);
  const lines = firstJsonLines(text);
  const sample = json !== undefined && !isRecord(json) ? [] : lines;
  if (json !== undefined && isSweAgent(json, reasons)) return { format: 'swe-agent', reasons, json };
  if (isOpencode(json, reasons)) return { format: 'opencode', reasons, json };
  if (json === undefined) reasons['swe-agent'] = 'the file is not one JSON document';
  if (isGeminiCli(json, sample, reasons)) return { format: 'gemini-cli', reasons, json };
  if (isOpenHands(json, sample, reasons)) return { format: 'openhands', reasons, json };
  if (isClaudeCode(sample, reasons)) return { format: 'claude-code', reasons };
  if (isPi(sample, reasons)) return { format: 'pi', reasons };
  if (isCodex(sample, reasons)) return { format: 'codex', reasons };
  return { format: undefined, reasons };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstJsonLines(text: string): unknown[] {
  const found: unknown[] = [];
  for (const line of text.split('\n', 200)) {
    if (found.length === LINES_TRIED) break;
    const value = line.trim() === '' ? undefined : parseOrUndefined(line);
    if (value !== undefined) found.push(value);
  }
  return found;
}

function isSweAgent(json: unknown, reasons: Record<TranscriptFormat, string>): boolean {
  if (!isRecord(json) || !Array.isArray(json.history)) {
    reasons['swe-agent'] = 'no top-level object with a "history" array';
    return false;
  }
  const first: unknown = json.history[0];
  if (json.history.length > 0 && !(isRecord(first) && typeof first.role === 'string')) {
    reasons['swe-agent'] = '"history" entries have no "role"';
    return false;
  }
  return true;
}

function isEvent(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.source === 'string' &&
    (typeof value.action === 'string' || typeof value.observation === 'string')
  );
}

function isOpenHands(json: unknown, lines: unknown[], reasons: Record<TranscriptFormat, string>): boolean {
  if (Array.isArray(json)) {
    if (json.length > 0 && json.every(isEvent)) return true;
    reasons.openhands = 'a JSON array, but not of events with "source" and "action"/"observation"';
    return false;
  }
  const first = lines[0];
  if (isRecord(first) && Array.isArray(first.history) && (first.history.length === 0 || isEvent(first.history[0])))
    return true;
  reasons.openhands = 'neither a JSON array of events nor JSONL runs with a "history" of events';
  return false;
}

function isClaudeCode(lines: unknown[], reasons: Record<TranscriptFormat, string>): boolean {
  const matches = lines.filter(
    (line) =>
      isRecord(line) &&
      typeof line.type === 'string' &&
      ['uuid', 'leafUuid', 'sessionId'].some((key) => typeof line[key] === 'string'),
  );
  if (lines.length > 0 && matches.length === lines.length) return true;
  reasons['claude-code'] =
    lines.length === 0 ? 'no JSON line found' : 'lines are not objects with "type" and "uuid"/"sessionId"';
  return false;
}

const PI_ENTRY_TYPES = new Set([
  'session',
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

/** pi: a `session` header line (`id`, `cwd`), or entries with `id` and `parentId` of pi's entry types. */
function isPi(lines: unknown[], reasons: Record<TranscriptFormat, string>): boolean {
  const first = lines[0];
  if (isRecord(first) && first.type === 'session' && typeof first.id === 'string') return true;
  const entries = lines.filter(
    (line) =>
      isRecord(line) &&
      typeof line.type === 'string' &&
      PI_ENTRY_TYPES.has(line.type) &&
      typeof line.id === 'string' &&
      'parentId' in line,
  );
  if (lines.length > 0 && entries.length === lines.length) return true;
  reasons.pi =
    lines.length === 0 ? 'no JSON line found' : 'no "session" header line and no entries with "id" and "parentId"';
  return false;
}

/** opencode's `export`: `{ info: { id }, messages: [{ info: { role }, parts: [] }] }`. */
function isOpencode(json: unknown, reasons: Record<TranscriptFormat, string>): boolean {
  if (!isRecord(json) || !isRecord(json.info) || !Array.isArray(json.messages)) {
    reasons.opencode =
      json === undefined
        ? 'the file is not one JSON document'
        : 'no top-level object with "info" and a "messages" array';
    return false;
  }
  const first: unknown = json.messages[0];
  if (json.messages.length > 0 && !(isRecord(first) && isRecord(first.info) && Array.isArray(first.parts))) {
    reasons.opencode = '"messages" entries are not { info, parts }';
    return false;
  }
  return true;
}

const CODEX_LINE_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** Codex CLI rollouts: every line `{ timestamp, type, payload }`, of Codex's line types (newer ones are tolerated). */
function isCodex(lines: unknown[], reasons: Record<TranscriptFormat, string>): boolean {
  const shaped = lines.filter((line) => isRecord(line) && typeof line.type === 'string' && isRecord(line.payload));
  const known = shaped.some((line) => CODEX_LINE_TYPES.has((line as { type: string }).type));
  if (lines.length > 0 && shaped.length === lines.length && known) return true;
  reasons.codex =
    lines.length === 0
      ? 'no JSON line found'
      : 'lines are not { type, payload } objects of session_meta, response_item, …';
  return false;
}

/** Gemini CLI: a JSONL header `{ sessionId, projectHash }`, or a legacy JSON object with them and `messages`. */
function isGeminiCli(json: unknown, lines: unknown[], reasons: Record<TranscriptFormat, string>): boolean {
  const header = (value: unknown): value is Record<string, unknown> =>
    isRecord(value) && typeof value.sessionId === 'string' && typeof value.projectHash === 'string';
  if (header(json) && Array.isArray(json.messages)) return true;
  if (isRecord(json) && !header(json)) {
    reasons['gemini-cli'] = 'not an object with "sessionId", "projectHash" and a "messages" list';
    return false;
  }
  if (header(lines[0])) return true;
  reasons['gemini-cli'] = 'the first line is not a header with "sessionId" and "projectHash"';
  return false;
}
