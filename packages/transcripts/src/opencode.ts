import type { JsonValue, Message, Part, Usage } from '@ctxhost/core';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { isRecord, type ParseContext } from './parse-context.js';
import type { Transcript, TranscriptBoundary, TranscriptUsage } from './transcript.js';

/** opencode's own texts, as its `toModelMessages` sends them (opencode 1.18, `session/message-v2`). */
const COMPACTION_QUESTION = 'What did we do so far?';
const CLEARED_OUTPUT = '[Old tool result content cleared]';
const INTERRUPTED_OUTPUT = '[Tool execution was interrupted]';

/** Parts that record a step, a file snapshot or a retry: never in the model's context. */
const BOOKKEEPING_PARTS = new Set(['step-start', 'step-finish', 'snapshot', 'patch', 'retry', 'agent', 'subtask']);

/** One model request inside an assistant message: the parts between two `step-start`s, with its `step-finish`. */
interface Step {
  parts: { part: Record<string, unknown>; index: number }[];
  finish: Record<string, unknown> | undefined;
}

/**
 * An opencode session as `opencode export <sessionId>` prints it (opencode-ai 1.18):
 * `{ info, messages: [{ info, parts }] }`. A user message's text parts are the user's
 * turn; each step of an assistant message (the parts from one `step-start` to its
 * `step-finish`) is one model request: an assistant message with its text, reasoning
 * and tool calls, then a tool message with the results. A `compaction` part opens a
 * new segment: opencode then sends the model only that message (as its question) and
 * what follows, the next assistant message being its summary.
 * Unknown part types are skipped and counted in `meta.unknownParts`.
 */
export function parseOpencode(json: Record<string, unknown>, context: ParseContext): Omit<Transcript, 'skipped'> {
  const meta: Record<string, JsonValue> = { unknownParts: 0, compactedToolOutputs: 0, skippedAssistantErrors: 0 };
  const info = json.info;
  if (isRecord(info)) {
    for (const key of ['id', 'title', 'directory', 'version'] as const)
      if (typeof info[key] === 'string') meta[key === 'id' ? 'sessionId' : key] = info[key];
  }
  const builder = createBuilder(meta);
  const entries = Array.isArray(json.messages) ? json.messages : [];
  if (!Array.isArray(json.messages))
    context.invalid(undefined, `"messages" is ${describe(json.messages)}, expected a list`);
  entries.forEach((entry, index) => {
    try {
      builder.message(entry, index);
    } catch (error) {
      if (!(error instanceof BlockProblem)) throw error;
      context.invalid(undefined, `messages[${index}]: ${error.message}`, error);
    }
  });
  const unknownTypes = [...builder.unknownTypes].sort();
  if (unknownTypes.length > 0) meta.unknownPartTypes = unknownTypes;
  return {
    format: 'opencode',
    messages: builder.messages,
    usage: builder.usage,
    ...(builder.boundaries.length > 0 ? { boundaries: builder.boundaries } : {}),
    meta,
  };
}

function createBuilder(meta: Record<string, JsonValue>) {
  const messages: Message[] = [];
  const usage: TranscriptUsage[] = [];
  const boundaries: TranscriptBoundary[] = [];
  const unknownTypes = new Set<string>();
  const count = (key: string): void => void (meta[key] = Number(meta[key] ?? 0) + 1);
  const skipUnknown = (type: unknown): void => {
    unknownTypes.add(typeof type === 'string' ? type : describe(type));
    count('unknownParts');
  };
  let summaryPending = false;

  const user = (id: string, parts: Record<string, unknown>[], index: number): void => {
    const converted: Part[] = [];
    for (const [offset, part] of parts.entries()) {
      const partId = partIdOf(part, id, offset);
      if (part.type === 'text') {
        if (part.ignored === true || typeof part.text !== 'string') continue;
        converted.push({ id: partId, type: 'text', text: part.text });
      } else if (part.type === 'file') {
        if (typeof part.url !== 'string') throw new BlockProblem(`parts[${offset}]: file part has no "url"`);
        converted.push({
          id: partId,
          type: 'file',
          source: { kind: 'url', url: part.url },
          ...(typeof part.filename === 'string' ? { title: part.filename } : {}),
        });
      } else if (part.type === 'compaction') {
        boundaries.push({
          messageIndex: messages.length,
          line: index + 1,
          trigger: part.auto === true ? 'auto' : 'manual',
          source: 'boundary-line',
        });
        converted.push({ id: partId, type: 'text', text: COMPACTION_QUESTION });
        summaryPending = true;
      } else if (!BOOKKEEPING_PARTS.has(String(part.type))) skipUnknown(part.type);
    }
    if (converted.length > 0) messages.push({ id, role: 'user', parts: converted });
  };

  const assistant = (id: string, info: Record<string, unknown>, parts: Record<string, unknown>[]): void => {
    const steps = splitSteps(parts);
    const summary = info.summary === true || summaryPending;
    summaryPending = false;
    let pushed = false;
    for (const [stepIndex, step] of steps.entries()) {
      const stepId = steps.length === 1 ? id : `${id}.step${stepIndex}`;
      const { said, results } = stepParts(stepId, step, {
        skipUnknown,
        compacted: () => count('compactedToolOutputs'),
      });
      if (said.length === 0) continue;
      const messageMeta: Record<string, JsonValue> = {};
      if (typeof info.modelID === 'string') messageMeta.model = info.modelID;
      if (typeof info.providerID === 'string') messageMeta.provider = info.providerID;
      if (summary) {
        messageMeta.compactSummary = true;
        const boundary = boundaries.at(-1);
        if (boundary !== undefined && boundary.summaryIndex === undefined) boundary.summaryIndex = messages.length;
      }
      messages.push({ id: stepId, role: 'assistant', parts: said, meta: messageMeta });
      pushed = true;
      const reported = readTokens(step.finish?.tokens) ?? (steps.length === 1 ? readTokens(info.tokens) : undefined);
      if (reported !== undefined)
        usage.push({ usage: reported, messageIndex: messages.length - 2, replyIndex: messages.length - 1 });
      if (results.length > 0) messages.push({ id: `${stepId}.tools`, role: 'tool', parts: results });
    }
    // A request that failed before saying anything was not part of the conversation.
    if (!pushed) count('skippedAssistantErrors');
  };

  return {
    messages,
    usage,
    boundaries,
    unknownTypes,
    message(entry: unknown, index: number): void {
      if (!isRecord(entry) || !isRecord(entry.info))
        throw new BlockProblem(`entry is ${describe(entry)}, expected { info, parts }`);
      const { info } = entry;
      if (typeof info.id !== 'string') throw new BlockProblem('"info.id" is missing');
      if (!Array.isArray(entry.parts)) throw new BlockProblem(`"parts" is ${describe(entry.parts)}, expected a list`);
      const parts = entry.parts.map((part, offset) => {
        if (!isRecord(part)) throw new BlockProblem(`parts[${offset}] is ${describe(part)}, expected an object`);
        return part;
      });
      if (info.role === 'user') user(info.id, parts, index);
      else if (info.role === 'assistant') assistant(info.id, info, parts);
      else throw new BlockProblem(`unknown role ${describe(info.role)}`);
    },
  };
}

function splitSteps(parts: Record<string, unknown>[]): Step[] {
  const steps: Step[] = [];
  let current: Step | undefined;
  parts.forEach((part, index) => {
    if (part.type === 'step-start' || current === undefined) {
      current = { parts: [], finish: undefined };
      steps.push(current);
    }
    if (part.type === 'step-finish') current.finish = part;
    else if (part.type !== 'step-start') current.parts.push({ part, index });
  });
  return steps;
}

function stepParts(
  id: string,
  step: Step,
  notes: { skipUnknown: (type: unknown) => void; compacted: () => void },
): { said: Part[]; results: Part[] } {
  const said: Part[] = [];
  const results: Part[] = [];
  for (const { part, index } of step.parts) {
    const partId = partIdOf(part, id, index);
    if (part.type === 'text') {
      if (typeof part.text === 'string' && part.text !== '' && part.ignored !== true)
        said.push({ id: partId, type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      const signature = anthropicSignature(part.metadata);
      said.push({
        id: partId,
        type: 'reasoning',
        text: typeof part.text === 'string' ? part.text : '',
        ...(signature === undefined ? {} : { signature }),
      });
    } else if (part.type === 'tool') {
      const { call, result } = toolParts(partId, part, index, notes.compacted);
      said.push(call);
      results.push(result);
    } else if (!BOOKKEEPING_PARTS.has(String(part.type))) notes.skipUnknown(part.type);
  }
  return { said, results };
}

function toolParts(
  partId: string,
  part: Record<string, unknown>,
  index: number,
  compacted: () => void,
): { call: Part; result: Part } {
  const where = `parts[${index}] (${partId})`;
  if (typeof part.callID !== 'string' || part.callID === '')
    throw new BlockProblem(`${where}: tool part has no "callID"`);
  if (typeof part.tool !== 'string') throw new BlockProblem(`${where}: tool part has no "tool" name`);
  const state = part.state;
  if (!isRecord(state) || typeof state.status !== 'string')
    throw new BlockProblem(`${where}: tool part has no "state.status"`);
  const call: Part = {
    id: partId,
    type: 'tool-call',
    callId: part.callID,
    name: part.tool,
    input: (isRecord(state.input) ? state.input : {}) as JsonValue,
  };
  const base = { id: `${partId}.result`, type: 'tool-result' as const, callId: part.callID, name: part.tool };
  if (state.status === 'completed') {
    const output = typeof state.output === 'string' ? state.output : '';
    const time = isRecord(state.time) ? state.time : {};
    if (time.compacted === undefined) return { call, result: { ...base, output } };
    compacted();
    return {
      call,
      result: {
        ...base,
        output: CLEARED_OUTPUT,
        compacted: { by: 'opencode', reason: 'opencode pruned an old tool output', originalChars: output.length },
      },
    };
  }
  if (state.status === 'error')
    return { call, result: { ...base, output: typeof state.error === 'string' ? state.error : '', isError: true } };
  if (state.status === 'pending' || state.status === 'running')
    return { call, result: { ...base, output: INTERRUPTED_OUTPUT, isError: true } };
  throw new BlockProblem(`${where}: unknown tool state ${describe(state.status)}`);
}

function partIdOf(part: Record<string, unknown>, messageId: string, index: number): string {
  return typeof part.id === 'string' && part.id !== '' ? part.id : `${messageId}.${index}`;
}

function anthropicSignature(metadata: unknown): string | undefined {
  if (!isRecord(metadata) || !isRecord(metadata.anthropic)) return undefined;
  const signature = metadata.anthropic.signature;
  return typeof signature === 'string' ? signature : undefined;
}

/** opencode's tokens: `input` (uncached), `output` (without `reasoning`, which the provider bills as output), `cache.read`, `cache.write`. */
function readTokens(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const cache = isRecord(value.cache) ? value.cache : {};
  const number = (record: Record<string, unknown>, key: string): number =>
    typeof record[key] === 'number' ? record[key] : 0;
  return {
    inputTokens: number(value, 'input'),
    outputTokens: number(value, 'output') + number(value, 'reasoning'),
    cacheCreationInputTokens: number(cache, 'write'),
    cacheReadInputTokens: number(cache, 'read'),
  };
}
