import type { JsonValue, Message, Part, Usage } from '@ctxhost/core';
import { reportedTokens } from './token-count.js';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { codexItem, type CodexItem } from './codex-items.js';
import { isRecord, parseJsonLine, splitLines, type ParseContext } from './parse-context.js';
import type { Transcript, TranscriptBoundary, TranscriptUsage } from './transcript.js';

/**
 * The prompt Codex appends to the history when it compacts (codex-cli 0.169.0, as it sent it to the
 * simulator). The rollout does not record it; the importer puts it back before the summary it asked for.
 */
export const CODEX_COMPACTION_PROMPT =
  'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.\n\nInclude:\n- Current progress and key decisions made\n- Important context, constraints, or user preferences\n- What remains to be done (clear next steps)\n- Any critical data, examples, or references needed to continue\n\nBe concise, structured, and focused on helping the next LLM seamlessly continue the work.\n';

interface Line {
  line: number;
  timestamp: string | undefined;
}

/**
 * A Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): lines
 * `{ timestamp, type, payload }`. The model saw `session_meta`'s base
 * instructions, then the `response_item`s in order; a `compacted` line replaces
 * everything before it with its `replacement_history`. `turn_context` gives the
 * model of the turn, `event_msg` `token_count` each request's usage (a repeated
 * total is the same request, logged again). Other lines (`world_state`,
 * `token_usage_record`, UI events) are counted in `meta.ignoredLines`.
 */
export function parseCodex(text: string, context: ParseContext): Omit<Transcript, 'skipped'> {
  const meta: Record<string, JsonValue> = { ignoredLines: 0, skippedItems: 0, repeatedTokenCounts: 0 };
  const builder = createCodexBuilder(meta);
  for (const { line, text: lineText } of splitLines(text)) {
    const value = parseJsonLine(context, lineText, line);
    if (value === undefined) continue;
    if (!isRecord(value) || typeof value.type !== 'string' || !isRecord(value.payload)) {
      context.invalid(line, `line is ${describe(value)}, expected a rollout line { timestamp, type, payload }`);
      continue;
    }
    try {
      builder.line(value.type, value.payload, {
        line,
        timestamp: typeof value.timestamp === 'string' ? value.timestamp : undefined,
      });
    } catch (error) {
      if (!(error instanceof BlockProblem)) throw error;
      context.invalid(line, `${value.type}: ${error.message}`, error);
    }
  }
  builder.finish();
  return {
    format: 'codex',
    messages: builder.messages,
    usage: builder.usage,
    ...(builder.boundaries.length > 0 ? { boundaries: builder.boundaries } : {}),
    meta,
  };
}

/** Distinct skipped item types counted by name; the rest are counted together. */
const MAX_SKIPPED_TYPES = 64;
const OTHER_TYPES = '(other types)';

function createCodexBuilder(meta: Record<string, JsonValue>) {
  const messages: Message[] = [];
  const usage: TranscriptUsage[] = [];
  const boundaries: TranscriptBoundary[] = [];
  // A Map, not an object: an item type named `constructor` or `__proto__` is a key like any other.
  const skippedTypes = new Map<string, number>();
  let model: string | undefined;
  let assistantOpen = false;
  let lastTotal: number | undefined;

  /** The last assistant message's index, found from where the previous search ended (a scan back per token count was quadratic). */
  let assistantSearched = 0;
  let assistantAt = -1;
  const lastAssistant = (): number => {
    for (; assistantSearched < messages.length; assistantSearched++)
      if (messages[assistantSearched]!.role === 'assistant') assistantAt = assistantSearched;
    return assistantAt;
  };
  const count = (key: string) => (meta[key] = Number(meta[key] ?? 0) + 1);
  const push = (message: Message, at: Line, extra: Record<string, JsonValue> = {}): void => {
    messages.push({
      ...message,
      meta: {
        ...message.meta,
        sourceLine: at.line,
        ...(at.timestamp === undefined ? {} : { createdAt: at.timestamp }),
        ...extra,
      },
    });
  };

  /** One converted item: consecutive assistant items of one request are one message, consecutive outputs one tool message. */
  const add = (item: CodexItem, id: string, role: unknown, at: Line, extra: Record<string, JsonValue> = {}): void => {
    if (item.kind === 'skipped') {
      count('skippedItems');
      // Counted per type up to a bound, and written to meta once at the end (a copy per item was quadratic).
      const type = skippedTypes.has(item.type) || skippedTypes.size < MAX_SKIPPED_TYPES ? item.type : OTHER_TYPES;
      skippedTypes.set(type, (skippedTypes.get(type) ?? 0) + 1);
      return;
    }
    const last = messages.at(-1);
    if (item.kind === 'assistant' && assistantOpen && last?.role === 'assistant') {
      last.parts.push(...item.parts);
      return;
    }
    if (item.kind === 'tool' && last?.role === 'tool') {
      last.parts.push(...item.parts);
      return;
    }
    assistantOpen = item.kind === 'assistant';
    if (item.parts.length === 0) return;
    push({ id, role: item.kind, parts: item.parts }, at, {
      ...(item.kind === 'system' ? { codexRole: String(role) } : {}),
      ...(item.kind === 'assistant' && model !== undefined ? { model } : {}),
      ...extra,
    });
  };

  return {
    messages,
    usage,
    boundaries,
    /** Writes what was counted along the way into meta. */
    finish(): void {
      if (skippedTypes.size > 0) meta.skippedItemTypes = Object.fromEntries(skippedTypes);
    },
    line(type: string, payload: Record<string, unknown>, at: Line): void {
      if (type === 'session_meta') sessionMeta(payload, at);
      else if (type === 'turn_context') model = typeof payload.model === 'string' ? payload.model : model;
      else if (type === 'response_item')
        add(codexItem(payload, itemId(payload, at.line)), itemId(payload, at.line), payload.role, at);
      else if (type === 'event_msg' && payload.type === 'token_count') tokenCount(payload.info);
      else if (type === 'compacted') compacted(payload, at);
      else count('ignoredLines');
    },
  };

  function sessionMeta(payload: Record<string, unknown>, at: Line): void {
    if (meta.sessionId !== undefined) {
      count('ignoredLines');
      return;
    }
    const id = typeof payload.id === 'string' ? payload.id : `L${at.line}`;
    meta.sessionId = id;
    for (const [key, field] of [
      ['cwd', 'cwd'],
      ['cliVersion', 'cli_version'],
      ['originator', 'originator'],
      ['modelProvider', 'model_provider'],
    ] as const)
      if (typeof payload[field] === 'string') meta[key] = payload[field];
    const base = isRecord(payload.base_instructions) ? payload.base_instructions.text : payload.instructions;
    if (typeof base === 'string' && base !== '')
      push(
        { id: `${id}.instructions`, role: 'system', parts: [{ id: `${id}.instructions.0`, type: 'text', text: base }] },
        at,
        {
          codexRole: 'base-instructions',
        },
      );
  }

  /** A request's usage: OpenAI's `input_tokens` include the cached ones; ctxhost's `inputTokens` do not. */
  function tokenCount(info: unknown): void {
    if (!isRecord(info) || !isRecord(info.last_token_usage)) return;
    const total = isRecord(info.total_token_usage) ? info.total_token_usage.total_tokens : undefined;
    if (typeof total === 'number' && total === lastTotal) {
      count('repeatedTokenCounts');
      return;
    }
    if (typeof total === 'number') lastTotal = total;
    const last = info.last_token_usage;
    const number = (key: string): number => reportedTokens(last[key]);
    const reply = lastAssistant();
    if (reply < 0 || (number('input_tokens') === 0 && number('output_tokens') === 0)) return;
    const cached = number('cached_input_tokens');
    const written = number('cache_write_input_tokens');
    const reported: Usage = {
      inputTokens: Math.max(0, number('input_tokens') - cached - written),
      outputTokens: number('output_tokens'),
      cacheCreationInputTokens: written,
      cacheReadInputTokens: cached,
    };
    usage.push({ usage: reported, messageIndex: reply - 1, replyIndex: reply });
    assistantOpen = false;
  }

  /**
   * Codex's own compaction. The summary it asked for is the assistant message just
   * before (its prompt, not recorded, is put back before it); from here the model saw
   * the `replacement_history` (the kept user messages, fresh context and the summary).
   */
  function compacted(payload: Record<string, unknown>, at: Line): void {
    const summary = typeof payload.message === 'string' ? payload.message : '';
    markCompactionReply(summary, at);
    const start = messages.length;
    let summaryIndex: number | undefined;
    const history = payload.replacement_history;
    if (Array.isArray(history)) {
      history.forEach((entry, index) => {
        if (!isRecord(entry)) throw new BlockProblem(`replacement_history[${index}] is ${describe(entry)}`);
        const original = typeof entry.id === 'string' ? entry.id : `L${at.line}.${index}`;
        const isSummary = entry.type === 'message' && textOf(codexItem(entry, original)) === summary && summary !== '';
        if (isSummary) summaryIndex = messages.length;
        add(codexItem(entry, `${original}@L${at.line}`), `${original}@L${at.line}`, entry.role, at, {
          keptFromCompaction: original,
          ...(isSummary ? { compactSummary: true } : {}),
        });
      });
    } else if (summary !== '') {
      summaryIndex = messages.length;
      push(
        {
          id: `L${at.line}.summary`,
          role: 'user',
          parts: [{ id: `L${at.line}.summary.0`, type: 'text', text: summary }],
        },
        at,
        {
          compactSummary: true,
        },
      );
    }
    assistantOpen = false;
    boundaries.push({
      messageIndex: start,
      line: at.line,
      source: 'boundary-line',
      ...(summaryIndex !== undefined && summaryIndex !== start ? { summaryIndex } : {}),
    });
  }

  /** The assistant message that answered the compaction request, if it is the last one: its prompt goes before it. */
  function markCompactionReply(summary: string, at: Line): void {
    const reply = messages.at(-1);
    const text = reply?.role === 'assistant' ? partsText(reply.parts) : '';
    if (reply === undefined || text === '' || !summary.endsWith(text)) return;
    const index = messages.length - 1;
    reply.meta = { ...reply.meta, compactionReply: true };
    const prompt: Message = {
      id: `${reply.id}.compaction-prompt`,
      role: 'user',
      parts: [{ id: `${reply.id}.compaction-prompt.0`, type: 'text', text: CODEX_COMPACTION_PROMPT }],
      meta: { sourceLine: at.line, codexCompactionPrompt: true },
    };
    messages.splice(index, 0, prompt);
    if (assistantAt >= index) assistantAt += 1;
    if (assistantSearched > index) assistantSearched += 1;
    // Usage entries are in order: only the last ones can point at or past the reply (a full pass per compaction was quadratic).
    for (let at = usage.length - 1; at >= 0 && usage[at]!.replyIndex >= index; at--) {
      usage[at]!.replyIndex += 1;
      usage[at]!.messageIndex += 1;
    }
  }
}

function itemId(payload: Record<string, unknown>, line: number): string {
  return typeof payload.id === 'string' && payload.id !== '' ? payload.id : `L${line}`;
}

function textOf(item: CodexItem): string {
  return item.kind === 'skipped' ? '' : partsText(item.parts);
}

function partsText(parts: readonly Part[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
