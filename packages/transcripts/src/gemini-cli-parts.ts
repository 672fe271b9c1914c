import type { JsonValue, Part, Usage } from '@ctxhost/core';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { isRecord } from './parse-context.js';

/**
 * A record's `content` (a Gemini `PartListUnion`: a string, a part or a list of
 * parts) as a list of part objects.
 */
export function contentParts(content: unknown): Record<string, unknown>[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const list = Array.isArray(content) ? (content as unknown[]) : [content];
  return list.map((part, index) => {
    if (typeof part === 'string') return { text: part };
    if (!isRecord(part)) throw new BlockProblem(`content[${index}] is ${describe(part)}, expected a part`);
    return part;
  });
}

/** A user or model part that is not a function call or response: text, thought, image or file. */
export function plainPart(part: Record<string, unknown>, id: string): Part | undefined {
  if (typeof part.text === 'string') {
    if (part.text === '') return undefined;
    return part.thought === true ? { id, type: 'reasoning', text: part.text } : { id, type: 'text', text: part.text };
  }
  if (isRecord(part.inlineData)) {
    const mediaType =
      typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType : 'application/octet-stream';
    const data = typeof part.inlineData.data === 'string' ? part.inlineData.data : '';
    const source = { kind: 'base64' as const, mediaType, data };
    return mediaType.startsWith('image/') ? { id, type: 'image', source } : { id, type: 'file', source };
  }
  if (isRecord(part.fileData) && typeof part.fileData.fileUri === 'string')
    return { id, type: 'file', source: { kind: 'url', url: part.fileData.fileUri } };
  return undefined;
}

/** A thought as Gemini CLI rebuilds it for the model (`**subject** description`). */
export function thoughtText(thought: unknown, index: number): string {
  if (!isRecord(thought)) throw new BlockProblem(`thoughts[${index}] is ${describe(thought)}, expected an object`);
  const description = typeof thought.description === 'string' ? thought.description : '';
  const subject = typeof thought.subject === 'string' ? thought.subject : '';
  return subject === '' ? description : `**${subject}** ${description}`;
}

export interface ToolCallRecord {
  callId: string;
  name: string;
  input: JsonValue;
  /** The functionResponse(s) recorded as its result, or undefined when none was. */
  output: string | undefined;
  isError: boolean;
}

/** One entry of a gemini record's `toolCalls`: `{ id, name, args, result, status }`. */
export function toolCallRecord(value: unknown, index: number): ToolCallRecord {
  const where = `toolCalls[${index}]`;
  if (!isRecord(value)) throw new BlockProblem(`${where} is ${describe(value)}, expected an object`);
  if (typeof value.id !== 'string' || value.id === '') throw new BlockProblem(`${where} has no "id"`);
  if (typeof value.name !== 'string') throw new BlockProblem(`${where} (${value.id}) has no "name"`);
  const result = resultOutput(value.result);
  const status = typeof value.status === 'string' ? value.status : '';
  return {
    callId: value.id,
    name: value.name,
    input: (isRecord(value.args) ? value.args : {}) as JsonValue,
    output: result?.output,
    isError: status === 'error' || status === 'cancelled' || result?.isError === true,
  };
}

/** A result as the model got it: the functionResponse's `output` (or `error`, or its JSON), plus any text parts. */
export function resultOutput(result: unknown): { output: string; isError: boolean } | undefined {
  if (result === undefined || result === null) return undefined;
  if (typeof result === 'string') return { output: result, isError: false };
  const texts: string[] = [];
  let isError = false;
  for (const part of Array.isArray(result) ? (result as unknown[]) : [result]) {
    if (!isRecord(part)) continue;
    if (isRecord(part.functionResponse)) {
      const response = part.functionResponse.response;
      const answer = responseText(response);
      isError ||= isRecord(response) && response.error !== undefined;
      texts.push(answer);
    } else if (typeof part.text === 'string') texts.push(part.text);
  }
  return { output: texts.join('\n'), isError };
}

export function responseText(response: unknown): string {
  if (!isRecord(response)) return response === undefined ? '' : asJson(response);
  if (typeof response.output === 'string' && Object.keys(response).length === 1) return response.output;
  if (typeof response.error === 'string' && Object.keys(response).length === 1) return response.error;
  return asJson(response);
}

/** JSON.stringify recurses: a response nested past the stack (200,000 levels) is a problem of that record, not a RangeError. */
function asJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError)
      throw new BlockProblem('functionResponse.response is nested too deeply to read (past the call stack)');
    throw error;
  }
}

/**
 * A gemini record's `tokens` (Gemini's `usageMetadata`): `input` is the whole
 * prompt including the `cached` part, `thoughts` are billed as output.
 */
export function readTokens(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const number = (key: string): number => (typeof value[key] === 'number' ? value[key] : 0);
  const cached = number('cached');
  return {
    inputTokens: Math.max(0, number('input') - cached),
    outputTokens: number('output') + number('thoughts'),
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
  };
}
