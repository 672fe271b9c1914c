import type { JsonValue, Message, Part, Usage } from '@ctxhost/core';
import { reportedTokens } from './token-count.js';
import { BlockProblem, blockToPart, describe } from './claude-code-blocks.js';
import { isRecord, parseJsonLine, splitLines, type ParseContext } from './parse-context.js';
import { readBoundary, uiOnlyReason } from './claude-code-boundaries.js';
import type { Transcript, TranscriptBoundary, TranscriptOptions, TranscriptUsage } from './transcript.js';

interface Entry {
  message: Message;
  thread: string;
}

interface Request {
  usage: Usage;
  requestId: string | undefined;
  entry: Entry;
}

interface State {
  entries: Entry[];
  assistantById: Map<string, Entry>;
  requests: Map<string, Request>;
  threadOfUuid: Map<string, string>;
  lastOfThread: Map<string, Entry>;
  /** Main-thread compaction boundaries; `messageIndex` is the index the next message will take. */
  boundaries: TranscriptBoundary[];
  meta: {
    summaries: JsonValue[];
    ignoredLines: Map<string, number>;
    excludedSidechainLines: number;
    sessionId?: string;
    version?: string;
    cwd?: string;
  };
}

/**
 * Claude Code session JSONL. Streamed lines of one API message (same `message.id`)
 * merge into one assistant message; consecutive tool_result lines of a thread merge
 * into one `tool` message (as Claude Code sends them); sidechain (subagent) lines are
 * left out unless `includeSidechains`; `summary` lines and unknown line types go to `meta`.
 */
export function parseClaudeCode(
  text: string,
  context: ParseContext,
  options: TranscriptOptions,
): Omit<Transcript, 'skipped'> {
  const state: State = {
    entries: [],
    assistantById: new Map(),
    requests: new Map(),
    threadOfUuid: new Map(),
    lastOfThread: new Map(),
    boundaries: [],
    meta: { summaries: [], ignoredLines: new Map(), excludedSidechainLines: 0 },
  };
  for (const { line, text: lineText } of splitLines(text)) {
    const value = parseJsonLine(context, lineText, line);
    if (value === undefined) continue;
    try {
      readLine(state, value, line, options.includeSidechains === true);
    } catch (error) {
      if (!(error instanceof BlockProblem)) throw error;
      context.invalid(line, error.message, error);
    }
  }
  markLocalCommands(state);
  const messages = state.entries.map((entry) => entry.message);
  // A Map, then Object.fromEntries: a line type such as "constructor" or "__proto__" is counted as an own key, never read from Object.prototype.
  const meta = { ...state.meta, ignoredLines: Object.fromEntries(state.meta.ignoredLines) };
  const boundaries = state.boundaries.filter((boundary) => boundary.messageIndex < messages.length);
  return {
    format: 'claude-code',
    messages,
    usage: placeUsage(state),
    ...(boundaries.length > 0 ? { boundaries } : {}),
    meta: meta,
  };
}

function readLine(state: State, value: unknown, line: number, includeSidechains: boolean): void {
  if (!isRecord(value)) throw new BlockProblem(`line is ${describe(value)}, expected a JSON object`);
  const type = value.type;
  if (type === 'summary') {
    state.meta.summaries.push({ summary: String(value.summary ?? ''), leafUuid: String(value.leafUuid ?? '') });
    return;
  }
  if (typeof type !== 'string') throw new BlockProblem('line has no "type"');
  if (type === 'system' && value.subtype === 'compact_boundary') {
    if (value.isSidechain !== true) state.boundaries.push(readBoundary(value, line, state.entries.length));
    return;
  }
  if (type !== 'user' && type !== 'assistant') {
    state.meta.ignoredLines.set(type, (state.meta.ignoredLines.get(type) ?? 0) + 1);
    return;
  }
  const uuid = value.uuid;
  if (typeof uuid !== 'string' || uuid === '') throw new BlockProblem(`${type} line has no "uuid"`);
  if (!isRecord(value.message)) throw new BlockProblem(`${type} line has no "message" object`);
  rememberSession(state, value);
  const sidechain = value.isSidechain === true;
  const parent = typeof value.parentUuid === 'string' ? state.threadOfUuid.get(value.parentUuid) : undefined;
  const thread = sidechain ? (parent ?? `side:${uuid}`) : 'main';
  state.threadOfUuid.set(uuid, thread);
  if (sidechain && !includeSidechains) {
    state.meta.excludedSidechainLines += 1;
    return;
  }
  const meta = lineMeta(value, line, thread);
  if (
    type === 'user' &&
    value.isCompactSummary === true &&
    thread === 'main' &&
    state.boundaries.at(-1)?.messageIndex !== state.entries.length
  ) {
    state.boundaries.push({ messageIndex: state.entries.length, line, source: 'summary-message' });
  }
  if (type === 'assistant') readAssistant(state, value, value.message, meta, thread);
  else readUser(state, value.message, uuid, meta, thread);
}

function rememberSession(state: State, value: Record<string, unknown>): void {
  if (state.meta.sessionId === undefined && typeof value.sessionId === 'string') state.meta.sessionId = value.sessionId;
  if (state.meta.version === undefined && typeof value.version === 'string') state.meta.version = value.version;
  if (state.meta.cwd === undefined && typeof value.cwd === 'string') state.meta.cwd = value.cwd;
}

function lineMeta(value: Record<string, unknown>, line: number, thread: string): Record<string, JsonValue> {
  return {
    ...(typeof value.timestamp === 'string' ? { createdAt: value.timestamp } : {}),
    sourceLine: line,
    ...(value.isMeta === true ? { isMeta: true } : {}),
    ...(value.isCompactSummary === true ? { compactSummary: true } : {}),
    ...(thread === 'main' ? {} : { sidechain: true, thread }),
  };
}

function readAssistant(
  state: State,
  line: Record<string, unknown>,
  message: Record<string, unknown>,
  meta: Record<string, JsonValue>,
  thread: string,
): void {
  const id = message.id;
  if (typeof id !== 'string' || id === '') throw new BlockProblem('assistant line has no message.id');
  if (!Array.isArray(message.content))
    throw new BlockProblem(`assistant message.content is ${describe(message.content)}, expected an array`);
  let entry = state.assistantById.get(id);
  const parts = convertBlocks(id, entry?.message.parts.length ?? 0, message.content);
  if (entry === undefined) {
    const model: Record<string, JsonValue> = typeof message.model === 'string' ? { model: message.model } : {};
    entry = push(state, { id, role: 'assistant', parts: [], meta: { ...meta, ...model } }, thread);
    state.assistantById.set(id, entry);
  }
  entry.message.parts.push(...parts);
  const usage = readUsage(message.usage);
  if (usage !== undefined)
    state.requests.set(id, {
      usage,
      requestId: typeof line.requestId === 'string' ? line.requestId : undefined,
      entry,
    });
}

function readUser(
  state: State,
  message: Record<string, unknown>,
  uuid: string,
  meta: Record<string, JsonValue>,
  thread: string,
): void {
  const content = message.content;
  if (typeof content === 'string') {
    const uiOnly = meta.compactSummary === true ? undefined : uiOnlyReason(content);
    push(
      state,
      {
        id: uuid,
        role: 'user',
        parts: [{ id: `${uuid}.0`, type: 'text', text: content }],
        meta: uiOnly === undefined ? meta : { ...meta, uiOnly },
      },
      thread,
    );
    return;
  }
  if (!Array.isArray(content))
    throw new BlockProblem(`user message.content is ${describe(content)}, expected a string or an array`);
  const results = content.filter((block) => isRecord(block) && block.type === 'tool_result');
  const others = content.filter((block) => !(isRecord(block) && block.type === 'tool_result'));
  const last = state.lastOfThread.get(thread);
  const toolTarget = last !== undefined && last.message.role === 'tool' ? last.message : undefined;
  const toolId = toolTarget?.id ?? uuid;
  const resultParts = convertBlocks(toolId, toolTarget?.parts.length ?? 0, results);
  const userId = results.length > 0 ? `${uuid}.user` : uuid;
  const otherParts = convertBlocks(userId, 0, others);
  if (resultParts.length > 0) {
    if (toolTarget === undefined) push(state, { id: toolId, role: 'tool', parts: resultParts, meta }, thread);
    else toolTarget.parts.push(...resultParts);
  }
  if (otherParts.length === 0) return;
  const texts = otherParts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const uiOnly =
    texts.length === otherParts.length && meta.compactSummary !== true ? uiOnlyReason(texts.join('\n')) : undefined;
  push(
    state,
    { id: userId, role: 'user', parts: otherParts, meta: uiOnly === undefined ? meta : { ...meta, uiOnly } },
    thread,
  );
}

/** A `<command-name>` line answered by `<local-command-stdout>` ran a local command (`/exit`, `/cost`): the model never saw either. */
function markLocalCommands(state: State): void {
  const previousOfThread = new Map<string, Entry>();
  for (const entry of state.entries) {
    const previous = previousOfThread.get(entry.thread);
    if (
      entry.message.meta?.uiOnly === 'local-command-output' &&
      previous?.message.role === 'user' &&
      isCommandLine(previous.message)
    ) {
      previous.message.meta = { ...previous.message.meta, uiOnly: 'local-command' };
    }
    previousOfThread.set(entry.thread, entry);
  }
}

function isCommandLine(message: Message): boolean {
  const first = message.parts[0];
  return message.parts.length === 1 && first?.type === 'text' && /<command-name>/.test(first.text);
}

function push(state: State, message: Message, thread: string): Entry {
  const entry = { message, thread };
  state.entries.push(entry);
  state.lastOfThread.set(thread, entry);
  return entry;
}

/** Converts every block first, so a bad block leaves no half-built message behind. */
function convertBlocks(messageId: string, offset: number, blocks: unknown[]): Part[] {
  return blocks.map((block, index) => blockToPart(block, `${messageId}.${offset + index}`));
}

function readUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const count = (key: string): number => reportedTokens(value[key]);
  const creation = value.cache_creation;
  return {
    inputTokens: count('input_tokens'),
    outputTokens: count('output_tokens'),
    cacheCreationInputTokens: count('cache_creation_input_tokens'),
    cacheReadInputTokens: count('cache_read_input_tokens'),
    ...(isRecord(creation)
      ? {
          cacheCreation: {
            ephemeral5mInputTokens: reportedTokens(creation.ephemeral_5m_input_tokens),
            ephemeral1hInputTokens: reportedTokens(creation.ephemeral_1h_input_tokens),
          },
        }
      : {}),
  };
}

/** Each request's usage, with the reply's index and the index of the last earlier message of its thread. */
function placeUsage(state: State): TranscriptUsage[] {
  const indexOf = new Map<Entry, number>(state.entries.map((entry, index) => [entry, index]));
  const previousInThread = new Map<Entry, number>();
  const lastIndex = new Map<string, number>();
  state.entries.forEach((entry, index) => {
    previousInThread.set(entry, lastIndex.get(entry.thread) ?? -1);
    lastIndex.set(entry.thread, index);
  });
  return [...state.requests.values()].map(({ usage, requestId, entry }) => ({
    usage,
    messageIndex: previousInThread.get(entry)!,
    replyIndex: indexOf.get(entry)!,
    ...(requestId === undefined ? {} : { requestId }),
    ...(entry.thread === 'main' ? {} : { sidechain: true }),
  }));
}
