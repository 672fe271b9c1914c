import type { JsonValue, Message, Part, ToolResultContent, Usage } from '@ctxhost/core';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { isRecord, parseJsonLine, splitLines, type ParseContext } from './parse-context.js';
import type { Transcript, TranscriptBoundary, TranscriptUsage } from './transcript.js';

/** pi's own texts around a summary, as its `convertToLlm` sends them (pi-coding-agent 0.73, `core/messages.js`). */
const COMPACTION_PREFIX =
  'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
const COMPACTION_SUFFIX = '\n</summary>';
const BRANCH_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
const BRANCH_SUFFIX = '</summary>';

interface Entry {
  type: string;
  id: string;
  parentId: string | null;
  line: number;
  value: Record<string, unknown>;
}

/**
 * The pi coding agent's session JSONL (`@mariozechner/pi-coding-agent`, session
 * version 3): a `session` header, then entries that form a tree by `id`/`parentId`.
 * The conversation is the path from the last entry to the root, as pi rebuilds it
 * (`buildSessionContext`). A `compaction` entry starts a new segment: the model then
 * saw pi's summary, the kept entries from `firstKeptEntryId`, and what came after —
 * the kept messages appear again in the new segment (`meta.keptFromCompaction`).
 * A broken line is skipped; an entry whose parent was on it links to the entry before it.
 */
export function parsePi(text: string, context: ParseContext): Omit<Transcript, 'skipped'> {
  const entries: Entry[] = [];
  const meta: Record<string, JsonValue> = {
    modelChanges: 0,
    thinkingLevelChanges: 0,
    brokenLinks: 0,
    keptMessagesRepeated: 0,
    excludedFromContext: 0,
  };
  for (const { line, text: lineText } of splitLines(text)) {
    const value = parseJsonLine(context, lineText, line);
    if (value === undefined) continue;
    if (!isRecord(value) || typeof value.type !== 'string') {
      context.invalid(line, `line is ${describe(value)}, expected a pi session entry with a "type"`);
      continue;
    }
    if (value.type === 'session') {
      if (typeof value.id === 'string') meta.sessionId = value.id;
      if (typeof value.cwd === 'string') meta.cwd = value.cwd;
      if (typeof value.version === 'number') meta.version = value.version;
      continue;
    }
    if (typeof value.id !== 'string') {
      context.invalid(line, `${value.type} entry has no "id"`);
      continue;
    }
    entries.push({
      type: value.type,
      id: value.id,
      parentId: typeof value.parentId === 'string' ? value.parentId : null,
      line,
      value,
    });
  }
  const path = pathToLeaf(entries, meta);
  const builder = createBuilder(context, meta, path);
  for (const [index, entry] of path.entries()) {
    if (entry.type === 'compaction') builder.compaction(entry, index);
    else builder.entry(entry);
  }
  return {
    format: 'pi',
    messages: builder.messages,
    usage: builder.usage,
    ...(builder.boundaries.length > 0 ? { boundaries: builder.boundaries } : {}),
    meta,
  };
}

/** The path from the root to the last entry; a parent that is not in the file (its line was broken) falls back to the entry before. */
function pathToLeaf(entries: readonly Entry[], meta: Record<string, JsonValue>): Entry[] {
  const byId = new Map(entries.map((entry, index) => [entry.id, index]));
  const path: Entry[] = [];
  const seen = new Set<number>();
  let index = entries.length - 1;
  while (index >= 0 && !seen.has(index)) {
    seen.add(index);
    const entry = entries[index]!;
    path.push(entry);
    if (entry.parentId === null) break;
    const parent = byId.get(entry.parentId);
    if (parent === undefined) meta.brokenLinks = Number(meta.brokenLinks) + 1;
    index = parent ?? index - 1;
  }
  return path.reverse();
}

function createBuilder(context: ParseContext, meta: Record<string, JsonValue>, path: readonly Entry[]) {
  const messages: Message[] = [];
  const positions = new Map(path.map((entry, index) => [entry.id, index]));
  /** Where the previous compaction's kept entries began: a later one keeps from there on at most (it cut the context that one left). */
  let keptFloor = 0;
  /** Kept entries repeated so far; past the number of entries, a crafted file is building quadratically many messages. */
  let repeated = 0;
  const usage: TranscriptUsage[] = [];
  const boundaries: TranscriptBoundary[] = [];
  const push = (message: Message, entry: Entry, extra: Record<string, JsonValue> = {}): void => {
    const last = messages.at(-1);
    // Consecutive tool results are one message, as the providers receive them.
    if (message.role === 'tool' && last?.role === 'tool') {
      last.parts.push(
        ...message.parts.map((part, offset) => ({ ...part, id: `${last.id}.${last.parts.length + offset}` })),
      );
      return;
    }
    messages.push({
      ...message,
      meta: {
        ...message.meta,
        sourceLine: entry.line,
        ...(typeof entry.value.timestamp === 'string' ? { createdAt: entry.value.timestamp } : {}),
        ...extra,
      },
    });
    // A kept message repeated after a compaction was not a new request: its usage counts once, where it was made.
    const reported =
      message.role === 'assistant' && extra.keptFromCompaction === undefined
        ? readUsage((entry.value.message as Record<string, unknown>).usage)
        : undefined;
    if (reported !== undefined)
      usage.push({ usage: reported, messageIndex: messages.length - 2, replyIndex: messages.length - 1 });
  };
  const convert = (entry: Entry, extra: Record<string, JsonValue> = {}): void => {
    try {
      const message = toMessage(entry, meta);
      if (message !== undefined) push(message, entry, extra);
    } catch (error) {
      if (!(error instanceof BlockProblem)) throw error;
      context.invalid(entry.line, error.message, error);
    }
  };
  return {
    messages,
    usage,
    boundaries,
    entry(entry: Entry): void {
      if (entry.type === 'model_change') meta.modelChanges = Number(meta.modelChanges) + 1;
      else if (entry.type === 'thinking_level_change')
        meta.thinkingLevelChanges = Number(meta.thinkingLevelChanges) + 1;
      else convert(entry);
    },
    /** pi's context after a compaction: its summary, then the kept entries, then what follows. */
    compaction(entry: Entry, index: number): void {
      const summary = typeof entry.value.summary === 'string' ? entry.value.summary : '';
      const tokensBefore = typeof entry.value.tokensBefore === 'number' ? entry.value.tokensBefore : undefined;
      boundaries.push({
        messageIndex: messages.length,
        line: entry.line,
        trigger: entry.value.fromHook === true ? 'extension' : 'auto',
        source: 'boundary-line',
        ...(tokensBefore === undefined ? {} : { preTokens: tokensBefore }),
      });
      push(
        {
          id: entry.id,
          role: 'user',
          parts: [{ id: `${entry.id}.0`, type: 'text', text: COMPACTION_PREFIX + summary + COMPACTION_SUFFIX }],
          meta: { compactSummary: true },
        },
        entry,
      );
      const firstKept = entry.value.firstKeptEntryId;
      const first = typeof firstKept === 'string' ? (positions.get(firstKept) ?? -1) : -1;
      if (first === -1 || first >= index) return;
      // Linear: all kept spans together repeat at most the session's entries (plus slack for a short session compacted twice).
      if (first < keptFloor || repeated + (index - first) > path.length + KEPT_SLACK) {
        context.invalid(
          entry.line,
          `compaction keeps ${index - first} entries from "${String(firstKept)}", before what the previous compaction kept or more than the session holds (${path.length} entries); its kept entries are left out`,
        );
        return;
      }
      keptFloor = first;
      repeated += index - first;
      for (const kept of path.slice(first, index)) {
        const count = messages.length;
        convert({ ...kept, id: `${kept.id}@${entry.id}` }, { keptFromCompaction: kept.id });
        meta.keptMessagesRepeated = Number(meta.keptMessagesRepeated) + (messages.length - count);
      }
    },
  };
}

/** Kept entries a session may repeat beyond its own length: two compactions of a short session overlap. */
const KEPT_SLACK = 64;

function toMessage(entry: Entry, meta: Record<string, JsonValue>): Message | undefined {
  const { id, value } = entry;
  if (entry.type === 'custom_message')
    return {
      id,
      role: 'user',
      parts: userParts(id, value.content),
      meta: { piCustomType: String(value.customType ?? '') },
    };
  if (entry.type === 'branch_summary')
    return typeof value.summary === 'string' && value.summary !== ''
      ? textMessage(id, BRANCH_PREFIX + value.summary + BRANCH_SUFFIX)
      : undefined;
  if (entry.type !== 'message') return undefined; // custom, label, session_info: never in the model's context
  const message = value.message;
  if (!isRecord(message)) throw new BlockProblem('message entry has no "message" object');
  switch (message.role) {
    case 'user':
      return { id, role: 'user', parts: userParts(id, message.content) };
    case 'assistant':
      return assistantMessage(id, message);
    case 'toolResult':
      return { id, role: 'tool', parts: [toolResult(id, message)] };
    case 'bashExecution':
      if (message.excludeFromContext === true) {
        meta.excludedFromContext = Number(meta.excludedFromContext) + 1;
        return undefined;
      }
      return textMessage(id, bashText(message));
    case 'custom':
      return { id, role: 'user', parts: userParts(id, message.content) };
    case 'branchSummary':
      return textMessage(id, BRANCH_PREFIX + String(message.summary ?? '') + BRANCH_SUFFIX);
    case 'compactionSummary':
      return textMessage(id, COMPACTION_PREFIX + String(message.summary ?? '') + COMPACTION_SUFFIX);
    default:
      throw new BlockProblem(`unknown message role ${describe(message.role)}`);
  }
}

function textMessage(id: string, text: string): Message {
  return { id, role: 'user', parts: [{ id: `${id}.0`, type: 'text', text }] };
}

function userParts(id: string, content: unknown): Part[] {
  if (typeof content === 'string') return [{ id: `${id}.0`, type: 'text', text: content }];
  if (!Array.isArray(content))
    throw new BlockProblem(`user content is ${describe(content)}, expected a string or a list`);
  return content.map((block, index): Part => {
    const item = mediaOrText(block);
    return item.type === 'text'
      ? { id: `${id}.${index}`, type: 'text', text: item.text }
      : { id: `${id}.${index}`, type: 'image', source: item.source };
  });
}

function mediaOrText(block: unknown): ToolResultContent {
  if (!isRecord(block)) throw new BlockProblem(`content block is ${describe(block)}, expected an object`);
  if (block.type === 'text' && typeof block.text === 'string') return { type: 'text', text: block.text };
  if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string')
    return { type: 'image', source: { kind: 'base64', mediaType: block.mimeType, data: block.data } };
  throw new BlockProblem(`unknown content block ${describe(block.type)}`);
}

function assistantMessage(id: string, message: Record<string, unknown>): Message | undefined {
  if (!Array.isArray(message.content))
    throw new BlockProblem(`assistant content is ${describe(message.content)}, expected a list`);
  const parts = message.content.flatMap((block, index): Part[] => {
    if (!isRecord(block)) throw new BlockProblem(`assistant block is ${describe(block)}`);
    const partId = `${id}.${index}`;
    if (block.type === 'text')
      return typeof block.text === 'string' && block.text !== ''
        ? [{ id: partId, type: 'text', text: block.text }]
        : [];
    if (block.type === 'thinking')
      return [
        {
          id: partId,
          type: 'reasoning',
          text: String(block.thinking ?? ''),
          ...(typeof block.thinkingSignature === 'string' ? { signature: block.thinkingSignature } : {}),
        },
      ];
    if (block.type === 'toolCall') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string')
        throw new BlockProblem('toolCall block needs "id" and "name"');
      return [
        {
          id: partId,
          type: 'tool-call',
          callId: block.id,
          name: block.name,
          input: (isRecord(block.arguments) ? block.arguments : {}) as JsonValue,
        },
      ];
    }
    throw new BlockProblem(`unknown assistant block ${describe(block.type)}`);
  });
  // An errored or aborted request with nothing said was not part of the conversation.
  if (parts.length === 0) return undefined;
  const meta: Record<string, JsonValue> = {};
  if (typeof message.model === 'string') meta.model = message.model;
  if (typeof message.provider === 'string') meta.provider = message.provider;
  return { id, role: 'assistant', parts, meta };
}

function toolResult(id: string, message: Record<string, unknown>): Part {
  if (typeof message.toolCallId !== 'string') throw new BlockProblem('toolResult message has no "toolCallId"');
  const content = Array.isArray(message.content) ? message.content.map(mediaOrText) : [];
  const output = content.every((item) => item.type === 'text')
    ? content.map((item) => (item.type === 'text' ? item.text : '')).join('\n')
    : content;
  return {
    id: `${id}.0`,
    type: 'tool-result',
    callId: message.toolCallId,
    ...(typeof message.toolName === 'string' ? { name: message.toolName } : {}),
    output,
    ...(message.isError === true ? { isError: true } : {}),
  };
}

/** pi's `bashExecutionToText`: a `!command` the user ran, as the model sees it. */
function bashText(message: Record<string, unknown>): string {
  let text = `Ran \`${String(message.command ?? '')}\`\n`;
  text +=
    typeof message.output === 'string' && message.output !== '' ? `\`\`\`\n${message.output}\n\`\`\`` : '(no output)';
  if (message.cancelled === true) text += '\n\n(command cancelled)';
  else if (typeof message.exitCode === 'number' && message.exitCode !== 0)
    text += `\n\nCommand exited with code ${message.exitCode}`;
  if (message.truncated === true && typeof message.fullOutputPath === 'string')
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

/** pi's usage: `input` (uncached), `output`, `cacheRead`, `cacheWrite`. */
function readUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const count = (key: string): number => (typeof value[key] === 'number' ? value[key] : 0);
  return {
    inputTokens: count('input'),
    outputTokens: count('output'),
    cacheCreationInputTokens: count('cacheWrite'),
    cacheReadInputTokens: count('cacheRead'),
  };
}
