import type { JsonValue, Message, ToolCallPart, ToolResultPart } from '../model/message.js';

/*
 * What a span of conversation did, read from its tool calls and results:
 * the facts both the probes and the ledger are made of. One pass over the
 * span; a tool output is read only at its end (where exit codes and error
 * summaries are), so the cost is bounded per message.
 */

const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'filename', 'file', 'target_file'];
const COMMAND_KEYS = ['command', 'cmd', 'script'];
const WRITE_TOOL = /write|edit|create|patch|replace|append|insert|notebook|update_file/i;
const CONTENT_KEYS = ['content', 'contents', 'file_text', 'new_string', 'new_str', 'text', 'patch', 'input'];
const ERROR_WORD = /error\b|\b(?:failed|failure|traceback|exception|panic|cannot|not found|fatal)\b/i;
const EXIT_CODE =
  /(?:exit(?:ed)?(?: with)?(?: code| status)?|exit_code|returncode|status code)[ \t]*[:=]?[ \t]*(-?\d{1,3})\b/i;
const OUTPUT_TAIL_CHARS = 4_000;

export interface WrittenFile {
  path: string;
  /** What the write or edit put there, when the call carries it (hashed by the ledger). */
  content?: string;
  tool: string;
}

export interface CommandRun {
  command: string;
  tool: string;
  exitCode?: number;
  failed: boolean;
  /** The last error line of a failed command's output. */
  errorLine?: string;
}

/** A path a tool call read or wrote, with the tool's name. */
export interface TouchedPath {
  path: string;
  tool: string;
  wrote: boolean;
}

/** A tool call's main path argument, if it has one. */
export function pathArgument(input: JsonValue): string | undefined {
  const object = asObject(input);
  if (object === undefined) return undefined;
  for (const key of PATH_KEYS) {
    const value = object[key];
    if (typeof value === 'string' && value.length > 0 && value.length < 500) return value;
  }
  return undefined;
}

/** A tool call's shell command, if it runs one (first line only: a heredoc's body is not the command). */
export function commandArgument(call: ToolCallPart): string | undefined {
  const object = asObject(call.input);
  if (object === undefined) return undefined;
  for (const key of COMMAND_KEYS) {
    const value = object[key];
    if (typeof value === 'string' && value.trim().length > 0) return value.trim().split('\n')[0]!.slice(0, 300);
    if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      return value.join(' ').split('\n')[0]!.slice(0, 300);
  }
  return undefined;
}

export function isWriteCall(call: ToolCallPart): boolean {
  return WRITE_TOOL.test(call.name);
}

export function writtenContent(input: JsonValue): string | undefined {
  const object = asObject(input);
  if (object === undefined) return undefined;
  for (const key of CONTENT_KEYS) {
    const value = object[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

export function outputText(part: ToolResultPart): string {
  return typeof part.output === 'string'
    ? part.output
    : part.output.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** Exit code, failure and last error line of a command's result, read from its end. */
export function commandOutcome(result: ToolResultPart | undefined): Omit<CommandRun, 'command' | 'tool'> {
  if (result === undefined) return { failed: false };
  const output = outputText(result);
  const tail = output.length > OUTPUT_TAIL_CHARS ? output.slice(-OUTPUT_TAIL_CHARS) : output;
  const code = EXIT_CODE.exec(tail)?.[1];
  const exitCode = code === undefined ? undefined : Number(code);
  const lines = tail.split('\n');
  let errorLine: string | undefined;
  for (let index = lines.length - 1; index >= 0 && errorLine === undefined; index--) {
    const line = lines[index]!.trim();
    if (line.length > 3 && ERROR_WORD.test(line)) errorLine = line.slice(0, 200);
  }
  const failed = result.isError === true || (exitCode !== undefined && exitCode !== 0);
  return {
    failed,
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(failed && errorLine !== undefined ? { errorLine } : {}),
  };
}

/** The tool results of a span by call id (a result answers a call of the same span, or of none). */
export function resultsByCall(messages: readonly Message[]): Map<string, ToolResultPart> {
  const results = new Map<string, ToolResultPart>();
  for (const message of messages)
    for (const part of message.parts) if (part.type === 'tool-result') results.set(part.callId, part);
  return results;
}

function asObject(input: JsonValue): Record<string, JsonValue> | undefined {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : undefined;
}
