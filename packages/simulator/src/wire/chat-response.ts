import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-error.js';
import { chatErrorBody, type ChatToolCall, type ChatUsage } from './chat-wire.js';
import type { AssistantTurn } from './wire.js';

const TEXT_CHUNK = 64;

/** A Messages stop reason as Chat Completions says it. */
export function finishReason(stopReason: string): string {
  if (stopReason === 'tool_use') return 'tool_calls';
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') return 'length';
  if (stopReason === 'refusal') return 'content_filter';
  return 'stop';
}

/** The turn's text (thinking is not part of the chat format) and its tool calls. */
export function chatMessageOf(turn: AssistantTurn): { content: string | null; toolCalls: ChatToolCall[] } {
  const text = turn.content.flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : [])).join('');
  const toolCalls = turn.content
    .filter((block) => block.type === 'tool_use')
    .map((block): ChatToolCall => ({
      id: String(block['id']),
      type: 'function',
      function: { name: String(block['name']), arguments: JSON.stringify(block['input'] ?? {}) },
    }));
  return { content: text.length === 0 && toolCalls.length > 0 ? null : text, toolCalls };
}

export interface ChatCompletionAnswer {
  id: string;
  model: string;
  created: number;
  turn: AssistantTurn;
  usage: ChatUsage;
}

/** `chat.completion` as JSON. */
export function chatCompletionBody(answer: ChatCompletionAnswer): object {
  const { content, toolCalls } = chatMessageOf(answer.turn);
  return {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: finishReason(answer.turn.stop_reason),
      },
    ],
    usage: answer.usage,
    system_fingerprint: null,
  };
}

/**
 * `chat.completion.chunk`s over SSE: the role, text in 64-character pieces,
 * each tool call (id and name, then its arguments in pieces), the finish
 * reason, the usage chunk when `stream_options.include_usage` asks, `[DONE]`.
 * With `failAfterStart`, an error chunk follows the first one (as a server
 * failing mid-stream sends it) and the stream ends.
 */
export function streamChatCompletion(
  response: ServerResponse,
  answer: ChatCompletionAnswer,
  options: { includeUsage: boolean; failAfterStart?: ApiError },
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: object, finish: string | null = null) =>
    send(response, {
      id: answer.id,
      object: 'chat.completion.chunk',
      created: answer.created,
      model: answer.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  chunk({ role: 'assistant', content: '', refusal: null });
  if (options.failAfterStart !== undefined) {
    response.end(`data: ${chatErrorBody(options.failAfterStart).body}\n\n`);
    return;
  }
  const { content, toolCalls } = chatMessageOf(answer.turn);
  for (const piece of pieces(content ?? '')) chunk({ content: piece });
  toolCalls.forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    for (const piece of pieces(call.function.arguments))
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  chunk({}, finishReason(answer.turn.stop_reason));
  if (options.includeUsage)
    send(response, {
      id: answer.id,
      object: 'chat.completion.chunk',
      created: answer.created,
      model: answer.model,
      choices: [],
      usage: answer.usage,
    });
  response.end('data: [DONE]\n\n');
}

function send(response: ServerResponse, data: object): void {
  response.write(`data: ${JSON.stringify(data)}\n\n`);
}

function pieces(text: string): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += TEXT_CHUNK) result.push(text.slice(start, start + TEXT_CHUNK));
  return result;
}
