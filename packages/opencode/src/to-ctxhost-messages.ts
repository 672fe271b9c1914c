import type { CompactedMark, JsonValue, Message, Part, ToolResultPart, Usage } from '@ctxhost/core';
import type { AssistantMessage, Message as OpencodeMessage, Part as OpencodePart, ToolPart } from '@opencode-ai/sdk';

/** A tool output the truncator shortened in `tool.execute.after`, keyed by call id until its message is mirrored. */
export interface ShortenedOutput {
  original: string;
  compacted: CompactedMark;
}

/** One opencode message as ctxhost messages, the parts a `toolResult` tap shortened, and the usage opencode reported. */
export interface MirroredMessage {
  messages: Message[];
  originals: Part[];
  usage: Usage | undefined;
}

export const TOOL_RESULTS_SUFFIX = ':tool-results';

/** The id of the ctxhost `tool` message that holds an assistant message's tool results. */
export function toolMessageId(opencodeMessageId: string): string {
  return `${opencodeMessageId}${TOOL_RESULTS_SUFFIX}`;
}

/** The opencode message a ctxhost message came from (tool results live in the assistant message in opencode). */
export function opencodeMessageId(ctxhostMessageId: Message['id']): string {
  return ctxhostMessageId.endsWith(TOOL_RESULTS_SUFFIX)
    ? ctxhostMessageId.slice(0, -TOOL_RESULTS_SUFFIX.length)
    : ctxhostMessageId;
}

/**
 * Converts an opencode message and its parts: a user message keeps its
 * texts; an assistant message keeps texts, reasoning and tool calls, and its
 * finished tool calls become one `tool` message of results. A tool-result
 * part keeps opencode's part id, so a later update can be carried back.
 */
export function toCtxhostMessages(
  info: OpencodeMessage,
  parts: readonly OpencodePart[],
  shortened: ReadonlyMap<string, ShortenedOutput>,
): MirroredMessage {
  const meta = { createdAt: new Date(info.time.created).toISOString(), opencodeMessageId: info.id };
  if (info.role === 'user') {
    return {
      messages: [{ id: info.id, role: 'user', parts: parts.flatMap(userPart), meta }],
      originals: [],
      usage: undefined,
    };
  }
  const tools = parts.filter((part): part is ToolPart => part.type === 'tool');
  const assistant: Message = {
    id: info.id,
    role: 'assistant',
    parts: parts.flatMap(assistantPart),
    meta: { ...meta, model: info.modelID },
  };
  const results = tools.flatMap((part) => toolResult(part, shortened));
  const messages =
    results.length === 0
      ? [assistant]
      : [
          assistant,
          { id: toolMessageId(info.id), role: 'tool' as const, parts: results.map((result) => result.part), meta },
        ];
  return { messages, originals: results.flatMap((result) => result.original ?? []), usage: usageOf(info) };
}

function userPart(part: OpencodePart): Part[] {
  if (part.type === 'text' && part.text.length > 0) return [{ id: part.id, type: 'text', text: part.text }];
  if (part.type === 'file') return [{ id: part.id, type: 'text', text: `[file ${part.filename ?? part.url}]` }];
  return [];
}

function assistantPart(part: OpencodePart): Part[] {
  if (part.type === 'text' && part.text.length > 0) return [{ id: part.id, type: 'text', text: part.text }];
  if (part.type === 'reasoning' && part.text.length > 0) return [{ id: part.id, type: 'reasoning', text: part.text }];
  if (part.type === 'tool')
    return [
      {
        id: `${part.id}:call`,
        type: 'tool-call',
        callId: part.callID,
        name: part.tool,
        input: toJson(part.state.input),
      },
    ];
  return [];
}

function toolResult(
  part: ToolPart,
  shortened: ReadonlyMap<string, ShortenedOutput>,
): { part: ToolResultPart; original?: ToolResultPart }[] {
  const base = { id: part.id, type: 'tool-result' as const, callId: part.callID, name: part.tool };
  if (part.state.status === 'error') return [{ part: { ...base, output: part.state.error, isError: true } }];
  if (part.state.status !== 'completed')
    return [{ part: { ...base, output: '[the tool did not finish]', isError: true } }];
  const cut = shortened.get(part.callID);
  if (cut === undefined) return [{ part: { ...base, output: part.state.output } }];
  return [
    {
      part: { ...base, output: part.state.output, compacted: cut.compacted },
      original: { ...base, output: cut.original },
    },
  ];
}

/** opencode's tokens (input excludes cache, as Anthropic reports) as ctxhost usage; undefined when nothing was reported. */
export function usageOf(info: AssistantMessage): Usage | undefined {
  const { input, output, cache } = info.tokens;
  if (input + cache.read + cache.write === 0) return undefined;
  return {
    inputTokens: input,
    outputTokens: output,
    cacheCreationInputTokens: cache.write,
    cacheReadInputTokens: cache.read,
  };
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
