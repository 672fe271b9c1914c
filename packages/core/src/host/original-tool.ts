import type { Session } from './session.js';
import { coveredIdAt } from '../model/covered-span.js';
import type { JsonValue, Message, Part } from '../model/message.js';
import type { ToolDefinition } from '../model/model-client.js';
import type { EngineToolResult } from '../engines/context-engine.js';

/** The tool's name, the same for every engine and agent (opencode registers it too). */
export const ORIGINAL_TOOL_NAME = 'ctxhost_original';

/**
 * How a marker names what it replaced, so the model can read it back:
 * a part id (a truncated or pruned tool output), a message id, or
 * `<summary message id>#<n>` (the n-th message a summary covers, oldest first).
 */
export function originalHandleNote(handle: string): string {
  return `read it with ${ORIGINAL_TOOL_NAME}, handle ${handle}`;
}

/** The definition an engine or agent offers the model. */
export const ORIGINAL_TOOL: ToolDefinition = {
  name: ORIGINAL_TOOL_NAME,
  description:
    'Read the original of a tool output or message ctxhost shortened or summarized, by the handle its marker names.',
  inputSchema: {
    type: 'object',
    properties: {
      handle: { type: 'string' },
      fromLine: { type: 'integer', minimum: 1 },
      toLine: { type: 'integer', minimum: 1 },
    },
    required: ['handle'],
  },
};

/** Whether a projection shows a marker or a summary: something `ctxhost_original` can read back. */
export function showsShortened(messages: readonly Message[]): boolean {
  return messages.some(
    (message) =>
      message.meta?.summary !== undefined ||
      message.parts.some((part) => part.type === 'tool-result' && part.compacted !== undefined),
  );
}

export interface OriginalToolInput {
  handle: string;
  fromLine?: number;
  toLine?: number;
}

const DEFAULT_LINES = 200;

/**
 * Reads an original through the session (the store keeps every part as first
 * appended and every message): never from anything else, so what redaction
 * kept out of summaries is only reachable here, by its handle, in its own session.
 */
export async function readOriginal(
  session: Pick<Session, 'original' | 'history' | 'messages'>,
  input: JsonValue,
): Promise<EngineToolResult> {
  const parsed = parseInput(input);
  if (typeof parsed === 'string') return { output: parsed, isError: true };
  const found = await originalText(session, parsed.handle);
  if (found === undefined)
    return {
      output: `No original with handle ${parsed.handle} in this session; check the handle in the marker or the summary.`,
      isError: true,
    };
  const lines = found.text.split('\n');
  const from = Math.min(parsed.fromLine ?? 1, lines.length);
  const to = Math.min(Math.max(parsed.toLine ?? from + DEFAULT_LINES - 1, from), lines.length);
  return {
    output: `Lines ${from}-${to} of ${lines.length} of the original ${found.what}:\n${lines.slice(from - 1, to).join('\n')}`,
  };
}

async function originalText(
  session: Pick<Session, 'original' | 'history' | 'messages'>,
  handle: string,
): Promise<{ text: string; what: string } | undefined> {
  const covered = /^(.+)#(\d+)$/.exec(handle);
  if (covered !== null) {
    const history = session.history();
    const summary = [...session.messages(), ...history].find((message) => message.id === covered[1]);
    const covers = summary?.meta?.summary?.covers;
    const id = covers === undefined ? undefined : coveredIdAt(covers, Number(covered[2]), history);
    return id === undefined ? undefined : originalText(session, id);
  }
  const part = await session.original(handle).catch(() => undefined);
  if (part !== undefined)
    return { text: partText(part), what: `${part.type === 'tool-result' ? 'output' : 'text'} of part ${handle}` };
  const message = session.history().find((candidate) => candidate.id === handle);
  return message === undefined ? undefined : { text: messageText(message), what: `message ${handle}` };
}

function messageText(message: Message): string {
  return `${message.role}:\n${message.parts
    .map(partText)
    .filter((text) => text.length > 0)
    .join('\n')}`;
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'tool-call':
      return `[tool call ${part.name}] ${JSON.stringify(part.input)}`;
    case 'tool-result':
      return typeof part.output === 'string'
        ? part.output
        : part.output.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
    case 'reasoning':
      return '';
    default:
      return `[${part.type}]`;
  }
}

function parseInput(input: JsonValue): OriginalToolInput | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return `${ORIGINAL_TOOL_NAME}: expected an object with a "handle", got ${JSON.stringify(input)}`;
  // `partId` is the name opencode's first version of the tool used.
  const handle = input['handle'] ?? input['partId'];
  if (typeof handle !== 'string' || handle.length === 0)
    return `${ORIGINAL_TOOL_NAME}: "handle" must be a non-empty string`;
  const line = (key: string): number | undefined | string => {
    const value = input[key];
    if (value === undefined || value === null) return undefined;
    return typeof value === 'number' && Number.isInteger(value) && value >= 1
      ? value
      : `${ORIGINAL_TOOL_NAME}: "${key}" must be a whole number ≥ 1, got ${JSON.stringify(value)}`;
  };
  const fromLine = line('fromLine');
  const toLine = line('toLine');
  if (typeof fromLine === 'string') return fromLine;
  if (typeof toLine === 'string') return toLine;
  return { handle, ...(fromLine === undefined ? {} : { fromLine }), ...(toLine === undefined ? {} : { toLine }) };
}
