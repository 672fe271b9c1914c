import type { JsonValue, Message, Part } from '@ctxhost/core';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { isRecord } from './parse-context.js';

type Event = Record<string, unknown>;

export interface EventsResult {
  messages: Message[];
  ignoredEvents: Record<string, number>;
}

/**
 * Turns one OpenHands event stream into messages. Actions with
 * `tool_call_metadata` become assistant tool calls (the thought as text first),
 * observations with it become `tool` results, paired by `tool_call_id` (and `cause`).
 * Message actions are user or assistant text; the system action is the system prompt;
 * an `error` observation without a tool call (a rejected call) is a user message.
 * State changes, recalls and empty observations are counted in `ignoredEvents`.
 */
export function convertEvents(
  events: unknown[],
  idPrefix: string,
  reportInvalid: (event: number, what: string) => void,
): EventsResult {
  const argumentsByCallId = collectArguments(events);
  const result: EventsResult = { messages: [], ignoredEvents: {} };
  events.forEach((event, index) => {
    try {
      const message = convertEvent(event, idPrefix, argumentsByCallId);
      if (typeof message === 'string') result.ignoredEvents[message] = (result.ignoredEvents[message] ?? 0) + 1;
      else result.messages.push(message);
    } catch (error) {
      if (!(error instanceof BlockProblem)) throw error;
      reportInvalid(index, error.message);
    }
  });
  return result;
}

/** The JSON arguments the model sent, from `model_response` on the action or its observation. */
function collectArguments(events: unknown[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const event of events) {
    if (!isRecord(event) || !isRecord(event.tool_call_metadata)) continue;
    const response = event.tool_call_metadata.model_response;
    const choices = isRecord(response) && Array.isArray(response.choices) ? response.choices : [];
    for (const choice of choices) {
      const calls =
        isRecord(choice) && isRecord(choice.message) && Array.isArray(choice.message.tool_calls)
          ? choice.message.tool_calls
          : [];
      for (const call of calls) {
        if (
          isRecord(call) &&
          typeof call.id === 'string' &&
          isRecord(call.function) &&
          typeof call.function.arguments === 'string'
        )
          found.set(call.id, call.function.arguments);
      }
    }
  }
  return found;
}

/** A message, or the name under which an ignored event is counted. */
function convertEvent(event: unknown, idPrefix: string, argumentsByCallId: Map<string, string>): Message | string {
  if (!isRecord(event)) throw new BlockProblem(`event is ${describe(event)}, expected an object`);
  if (typeof event.id !== 'number') throw new BlockProblem(`event has no numeric "id" (got ${describe(event.id)})`);
  const id = `${idPrefix}${event.id}`;
  const meta = { ...(typeof event.timestamp === 'string' ? { createdAt: event.timestamp } : {}), eventId: event.id };
  if (typeof event.action === 'string') return convertAction(event, id, meta, argumentsByCallId);
  if (typeof event.observation === 'string') return convertObservation(event, id, meta);
  throw new BlockProblem('event has neither "action" nor "observation"');
}

function convertAction(
  event: Event,
  id: string,
  meta: Record<string, JsonValue>,
  argumentsByCallId: Map<string, string>,
): Message | string {
  const args = isRecord(event.args) ? event.args : {};
  const metadata = event.tool_call_metadata;
  if (isRecord(metadata)) {
    const callId = requireString(metadata, 'tool_call_id');
    const name = requireString(metadata, 'function_name');
    const thought = typeof args.thought === 'string' ? args.thought : '';
    const parts: Part[] = thought === '' ? [] : [{ id: `${id}.text`, type: 'text', text: thought }];
    parts.push({
      id: `${id}.call`,
      type: 'tool-call',
      callId,
      name,
      input: callInput(argumentsByCallId.get(callId), args),
    });
    return { id, role: 'assistant', parts, meta: { ...meta, action: String(event.action) } };
  }
  if (event.action === 'message' || event.action === 'system') {
    const text = typeof args.content === 'string' ? args.content : event.message;
    if (typeof text !== 'string')
      throw new BlockProblem(`${event.action} action has no text in args.content or message`);
    const role = event.action === 'system' ? 'system' : event.source === 'user' ? 'user' : 'assistant';
    return { id, role, parts: [{ id: `${id}.0`, type: 'text', text }], meta };
  }
  return `action:${String(event.action)}`;
}

function convertObservation(event: Event, id: string, meta: Record<string, JsonValue>): Message | string {
  const metadata = event.tool_call_metadata;
  const content = typeof event.content === 'string' ? event.content : event.message;
  if (isRecord(metadata)) {
    if (typeof content !== 'string')
      throw new BlockProblem(`${String(event.observation)} observation has no string "content"`);
    const callId = requireString(metadata, 'tool_call_id');
    const name = typeof metadata.function_name === 'string' ? { name: metadata.function_name } : {};
    const isError = event.observation === 'error' ? { isError: true } : {};
    const cause: Record<string, JsonValue> = typeof event.cause === 'number' ? { cause: event.cause } : {};
    return {
      id,
      role: 'tool',
      parts: [{ id: `${id}.result`, type: 'tool-result', callId, ...name, output: content, ...isError }],
      meta: { ...meta, ...cause, observation: String(event.observation) },
    };
  }
  if (event.observation === 'error' && typeof content === 'string') {
    return {
      id,
      role: 'user',
      parts: [{ id: `${id}.0`, type: 'text', text: content }],
      meta: { ...meta, observation: 'error' },
    };
  }
  return `observation:${String(event.observation)}`;
}

function callInput(modelArguments: string | undefined, args: Record<string, unknown>): JsonValue {
  if (modelArguments !== undefined) {
    try {
      const parsed = JSON.parse(modelArguments) as JsonValue;
      if (isRecord(parsed)) return parsed;
    } catch {
      // The model sent arguments that are not JSON; fall back to what OpenHands parsed.
    }
  }
  const { thought: _thought, ...rest } = args;
  return rest as JsonValue;
}

function requireString(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value !== 'string' || value === '')
    throw new BlockProblem(`tool_call_metadata.${key} must be a non-empty string, got ${describe(value)}`);
  return value;
}
