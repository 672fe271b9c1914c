import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-error.js';
import type { ResponsesOutputItem, ResponsesUsage } from './responses-wire.js';
import type { AssistantTurn, ContentBlock } from './wire.js';

const TEXT_CHUNK = 64;

export interface ResponsesAnswer {
  id: string;
  model: string;
  createdAt: number;
  turn: AssistantTurn;
  usage: ResponsesUsage;
  /** Names of the request's `custom` tools: a call to one is a `custom_tool_call` with a text input. */
  customTools: ReadonlySet<string>;
  /** The request's `include` asks for `reasoning.encrypted_content`. */
  encryptedReasoning: boolean;
  /** Inline compaction's item, first in `output`, when the server compacted before answering. */
  compaction?: ResponsesOutputItem;
}

/**
 * The turn's blocks as output items: thinking → `reasoning` (its text as the
 * summary, its signature as `encrypted_content` when asked), text → a
 * `message`, tool_use → a `function_call` (or a `custom_tool_call` for a
 * custom tool, whose input is the block's `input` string or `input.input`).
 */
export function outputItemsOf(answer: ResponsesAnswer): ResponsesOutputItem[] {
  const suffix = answer.id.slice('resp_'.length);
  const answered = answer.turn.content.flatMap((block, index): ResponsesOutputItem[] => {
    const id = (prefix: string) => `${prefix}_${suffix}_${index}`;
    if (block.type === 'text' && (block.text ?? '').length > 0)
      return [
        {
          type: 'message',
          id: id('msg'),
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: block.text ?? '', annotations: [], logprobs: [] }],
        },
      ];
    if (block.type === 'thinking') return [reasoningItem(block, id('rs'), answer.encryptedReasoning)];
    if (block.type === 'tool_use') return [toolCallItem(block, id, answer.customTools)];
    return [];
  });
  return answer.compaction === undefined ? answered : [answer.compaction, ...answered];
}

function reasoningItem(block: ContentBlock, id: string, encrypted: boolean): ResponsesOutputItem {
  const text = String(block['thinking'] ?? '');
  return {
    type: 'reasoning',
    id,
    summary: text.length === 0 ? [] : [{ type: 'summary_text', text }],
    ...(encrypted ? { encrypted_content: String(block['signature'] ?? '') } : {}),
  };
}

function toolCallItem(
  block: ContentBlock,
  id: (prefix: string) => string,
  customTools: ReadonlySet<string>,
): ResponsesOutputItem {
  const name = String(block['name']);
  const input = block['input'];
  if (customTools.has(name)) {
    const text =
      typeof input === 'string'
        ? input
        : String((input as { input?: unknown } | undefined)?.input ?? JSON.stringify(input ?? {}));
    return {
      type: 'custom_tool_call',
      id: id('ctc'),
      call_id: String(block['id']),
      name,
      input: text,
      status: 'completed',
    };
  }
  return {
    type: 'function_call',
    id: id('fc'),
    call_id: String(block['id']),
    name,
    arguments: JSON.stringify(input ?? {}),
    status: 'completed',
  };
}

/** The `response` object: in progress (no output, no usage) or finished. */
export function responseBody(answer: ResponsesAnswer, finished: boolean): Record<string, unknown> {
  const incomplete = ['max_tokens', 'model_context_window_exceeded'].includes(answer.turn.stop_reason);
  const status = !finished ? 'in_progress' : incomplete ? 'incomplete' : 'completed';
  return {
    id: answer.id,
    object: 'response',
    created_at: answer.createdAt,
    status,
    error: null,
    incomplete_details: finished && incomplete ? { reason: 'max_output_tokens' } : null,
    model: answer.model,
    output: finished ? outputItemsOf(answer) : [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: finished ? answer.usage : null,
    metadata: {},
  };
}

/**
 * The response as SSE, in the API's order: `response.created`,
 * `response.in_progress`, then per item `response.output_item.added`, its
 * deltas (text in 64-character pieces with `content_part.added/done` and
 * `output_text.done`; function arguments; custom tool input; reasoning
 * summary text) and `response.output_item.done`; then `response.completed`
 * (or `response.incomplete`) with the usage. Every event carries its
 * `sequence_number`. With `failAfterStart`, an `error` event follows
 * `response.created` and the stream ends.
 */
export function streamResponse(response: ServerResponse, answer: ResponsesAnswer, failAfterStart?: ApiError): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sequence = 0;
  const send = (type: string, data: object) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  send('response.created', { response: responseBody(answer, false) });
  if (failAfterStart !== undefined) {
    send('error', { code: 'server_error', message: failAfterStart.message, param: null });
    response.end();
    return;
  }
  send('response.in_progress', { response: responseBody(answer, false) });
  outputItemsOf(answer).forEach((item, outputIndex) => {
    send('response.output_item.added', { output_index: outputIndex, item: startedItem(item) });
    for (const [type, data] of itemDeltas(item)) send(type, { item_id: item.id, output_index: outputIndex, ...data });
    send('response.output_item.done', { output_index: outputIndex, item });
  });
  const finished = responseBody(answer, true);
  send(finished['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: finished });
  response.end();
}

/** An item as `output_item.added` announces it: no text, arguments or summary yet. */
function startedItem(item: ResponsesOutputItem): object {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] };
  if (item.type === 'function_call') return { ...item, status: 'in_progress', arguments: '' };
  if (item.type === 'custom_tool_call') return { ...item, status: 'in_progress', input: '' };
  if (item.type === 'compaction') return item;
  return { ...item, summary: [] };
}

function itemDeltas(item: ResponsesOutputItem): [string, object][] {
  if (item.type === 'message') {
    const part = item.content[0]!;
    const at = { content_index: 0 };
    return [
      ['response.content_part.added', { ...at, part: { ...part, text: '' } }],
      ...pieces(part.text).map((delta): [string, object] => [
        'response.output_text.delta',
        { ...at, delta, logprobs: [] },
      ]),
      ['response.output_text.done', { ...at, text: part.text, logprobs: [] }],
      ['response.content_part.done', { ...at, part }],
    ];
  }
  if (item.type === 'function_call')
    return [
      ...pieces(item.arguments).map((delta): [string, object] => ['response.function_call_arguments.delta', { delta }]),
      ['response.function_call_arguments.done', { name: item.name, arguments: item.arguments }],
    ];
  if (item.type === 'custom_tool_call')
    return [
      ...pieces(item.input).map((delta): [string, object] => ['response.custom_tool_call_input.delta', { delta }]),
      ['response.custom_tool_call_input.done', { input: item.input }],
    ];
  if (item.type === 'compaction') return [];
  return item.summary.flatMap((part, summaryIndex): [string, object][] => {
    const at = { summary_index: summaryIndex };
    return [
      ['response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } }],
      ...pieces(part.text).map((delta): [string, object] => [
        'response.reasoning_summary_text.delta',
        { ...at, delta },
      ]),
      ['response.reasoning_summary_text.done', { ...at, text: part.text }],
      ['response.reasoning_summary_part.done', { ...at, part }],
    ];
  });
}

function pieces(text: string): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += TEXT_CHUNK) result.push(text.slice(start, start + TEXT_CHUNK));
  return result;
}
