import type { JsonValue, Message, Part, Role } from '@ctxhost/core';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { isRecord, type ParseContext } from './parse-context.js';
import type { Transcript } from './transcript.js';

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** Original call id → the id it carries in ctxhost (renamed when the trajectory reuses it). */
type CallIds = Map<string, string>;

/**
 * SWE-agent `.traj`: `history` is an OpenAI-style chat. Assistant `tool_calls`
 * (function-calling runs) become tool calls, `tool` entries their results. Replayed
 * demonstrations reuse call ids; a reused id is renamed `<id>#<n>` so each call
 * pairs with exactly one result. `is_demo` messages keep `meta.isDemo`.
 */
export function parseSweAgent(value: Record<string, unknown>, context: ParseContext): Omit<Transcript, 'skipped'> {
  const history = value.history;
  if (!Array.isArray(history)) {
    context.invalid(undefined, '"history" is not an array');
    return { format: 'swe-agent', messages: [], meta: {} };
  }
  const callIds: CallIds = new Map();
  const seen = new Map<string, number>();
  const messages: Message[] = [];
  let pendingAction: string | undefined;
  history.forEach((entry, index) => {
    try {
      const message = convertEntry(entry, index, callIds, seen);
      // The observation that answers an action (non-function-calling runs): a tool result of that action.
      if (pendingAction !== undefined && message.role === 'user' && message.meta?.isDemo !== true)
        messages.push(observationResult(message, pendingAction));
      else messages.push(message);
      pendingAction = message.role === 'assistant' ? actionCallId(message) : undefined;
    } catch (error) {
      if (!(error instanceof BlockProblem)) throw error;
      context.invalid(undefined, `history[${index}]: ${error.message}`, error);
    }
  });
  if (pendingAction !== undefined) unanswered(messages, history);
  const renamed = [...seen.values()].reduce((sum, count) => sum + count - 1, 0);
  const info = isRecord(value.info) ? value.info : {};
  return {
    format: 'swe-agent',
    messages,
    meta: {
      entries: history.length,
      renamedCallIds: renamed,
      demoMessages: messages.filter((message) => message.meta?.isDemo === true).length,
      ...(typeof info.exit_status === 'string' ? { exitStatus: info.exit_status } : {}),
      ...(typeof value.environment === 'string' ? { environment: value.environment } : {}),
    },
  };
}

function convertEntry(entry: unknown, index: number, callIds: CallIds, seen: Map<string, number>): Message {
  if (!isRecord(entry)) throw new BlockProblem(`entry is ${describe(entry)}, expected an object`);
  const role = entry.role;
  if (typeof role !== 'string' || !ROLES.includes(role as Role))
    throw new BlockProblem(`role must be one of ${ROLES.join(', ')}, got ${describe(role)}`);
  const id = `swe-${index}`;
  const text = contentText(entry.content);
  const meta: Record<string, JsonValue> = {
    ...(entry.is_demo === true ? { isDemo: true } : {}),
    ...(typeof entry.agent === 'string' ? { agent: entry.agent } : {}),
    ...(typeof entry.message_type === 'string' ? { messageType: entry.message_type } : {}),
  };
  if (role === 'tool') return { id, role: 'tool', parts: [toolResult(entry, id, text, callIds)], meta };
  const action =
    role === 'assistant' &&
    !Array.isArray(entry.tool_calls) &&
    entry.is_demo !== true &&
    typeof entry.action === 'string' &&
    entry.action.trim() !== ''
      ? entry.action.trim()
      : undefined;
  const shown = action === undefined ? text : withoutActionBlock(text, action);
  const parts: Part[] = shown === '' && role === 'assistant' ? [] : [{ id: `${id}.0`, type: 'text', text: shown }];
  if (role === 'assistant' && Array.isArray(entry.tool_calls)) {
    entry.tool_calls.forEach((call, callIndex) => parts.push(toolCall(call, `${id}.call${callIndex}`, callIds, seen)));
  }
  // A non-function-calling run writes its command in the text (`action`): the command becomes a tool call, so its output can be a tool result.
  if (action !== undefined)
    parts.push({
      id: `${id}.action`,
      type: 'tool-call',
      callId: `${id}.action`,
      name: action.split(/\s/, 1)[0]!,
      input: { command: action },
    });
  return { id, role: role as Role, parts, meta: action === undefined ? meta : { ...meta, actionInText: true } };
}

/** The action's fenced block at the end of the text, taken out: the tool call carries it now. */
function withoutActionBlock(text: string, action: string): string {
  const fence = text.lastIndexOf('```');
  const open = fence <= 0 ? -1 : text.lastIndexOf('```', fence - 1);
  if (open === -1 || text.slice(open + 3, fence).trim() !== action) return text;
  return `${text.slice(0, open)}${text.slice(fence + 3)}`.trim();
}

/** The last action had no observation (a `submit`): it stays the assistant's text, not a call left unanswered. */
function unanswered(messages: Message[], history: unknown[]): void {
  const last = messages.at(-1);
  if (last === undefined) return;
  const index = Number(last.id.slice('swe-'.length));
  const original = history[index];
  const text = isRecord(original) ? contentText(original.content) : '';
  const { actionInText: _actionInText, ...meta } = last.meta ?? {};
  messages[messages.length - 1] = {
    ...last,
    parts: text === '' ? [] : [{ id: `${last.id}.0`, type: 'text', text }],
    meta,
  };
}

function actionCallId(message: Message): string | undefined {
  const call = message.parts.find((part) => part.type === 'tool-call' && part.id.endsWith('.action'));
  return call?.type === 'tool-call' ? call.callId : undefined;
}

function observationResult(message: Message, callId: string): Message {
  const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return {
    id: message.id,
    role: 'tool',
    parts: [{ id: `${message.id}.result`, type: 'tool-result', callId, output: text }],
    meta: { ...message.meta, observation: true },
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((item) => (isRecord(item) && typeof item.text === 'string' ? item.text : '')).join('');
  }
  throw new BlockProblem(`content is ${describe(content)}, expected a string or a list of text parts`);
}

function toolCall(call: unknown, id: string, callIds: CallIds, seen: Map<string, number>): Part {
  if (!isRecord(call) || typeof call.id !== 'string' || call.id === '') throw new BlockProblem('tool call has no "id"');
  const fn = call.function;
  if (!isRecord(fn) || typeof fn.name !== 'string' || fn.name === '')
    throw new BlockProblem(`tool call ${call.id} has no function.name`);
  const count = (seen.get(call.id) ?? 0) + 1;
  seen.set(call.id, count);
  const callId = count === 1 ? call.id : `${call.id}#${count}`;
  callIds.set(call.id, callId);
  return { id, type: 'tool-call', callId, name: fn.name, input: parseArguments(fn.arguments, call.id) };
}

function parseArguments(value: unknown, callId: string): JsonValue {
  if (isRecord(value)) return value as JsonValue;
  if (typeof value !== 'string')
    throw new BlockProblem(`tool call ${callId}: arguments are ${describe(value)}, expected a JSON string`);
  try {
    return JSON.parse(value === '' ? '{}' : value) as JsonValue;
  } catch (error) {
    throw new BlockProblem(`tool call ${callId}: arguments are not valid JSON (${(error as Error).message})`);
  }
}

function toolResult(entry: Record<string, unknown>, id: string, text: string, callIds: CallIds): Part {
  const ids = Array.isArray(entry.tool_call_ids) ? entry.tool_call_ids : [entry.tool_call_id];
  const original: unknown = ids[0];
  if (typeof original !== 'string' || original === '') throw new BlockProblem('tool entry has no tool_call_ids');
  return { id: `${id}.result`, type: 'tool-result', callId: callIds.get(original) ?? original, output: text };
}
