import { ContextWindowStop } from '@ctxhost/core';
import type { AiGenerateResult, AiStreamPart, AiStreamResult } from './ai-sdk-types.js';

const WINDOW_STOP = 'model_context_window_exceeded';

/**
 * A reply that is an overflow in a 200: newer Anthropic models stop with `model_context_window_exceeded`
 * and no content (the AI SDK reports finish reason `length`, raw `model_context_window_exceeded`).
 * Thrown as core's `ContextWindowStop` so the recovery treats it as the overflow it is; when the
 * recovery cannot help, the caller gets the reply as the provider gave it.
 */
export function throwOnWindowStop(result: AiGenerateResult): AiGenerateResult {
  if (
    result.finishReason.raw === WINDOW_STOP &&
    result.content.every((part) => part.type !== 'text' || part.text === '')
  )
    throw new ContextWindowStop(result, result.usage.inputTokens.total);
  return result;
}

/**
 * The same for a stream: reads it until the first content or the finish. A stream that finishes with a
 * window stop before saying anything is thrown as one (its parts replayed if it comes back to the
 * caller); any other stream is handed on whole, the parts read so far first.
 */
export async function throwOnStreamWindowStop(result: AiStreamResult): Promise<AiStreamResult> {
  const reader = result.stream.getReader();
  const seen: AiStreamPart[] = [];
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    seen.push(next.value);
    const part = next.value;
    if (part.type === 'finish') {
      if (part.finishReason.raw === WINDOW_STOP)
        throw new ContextWindowStop({ ...result, stream: replay(seen, undefined) }, part.usage.inputTokens.total);
      break;
    }
    if (saysSomething(part)) break;
  }
  return { ...result, stream: replay(seen, reader) };
}

function saysSomething(part: AiStreamPart): boolean {
  return (
    ((part.type === 'text-delta' || part.type === 'reasoning-delta') && part.delta !== '') ||
    part.type === 'tool-call' ||
    part.type === 'tool-input-start' ||
    part.type === 'error'
  );
}

function replay(
  seen: readonly AiStreamPart[],
  rest: ReadableStreamDefaultReader<AiStreamPart> | undefined,
): ReadableStream<AiStreamPart> {
  let index = 0;
  return new ReadableStream<AiStreamPart>({
    async pull(controller) {
      if (index < seen.length) return controller.enqueue(seen[index++]!);
      const next = rest === undefined ? { done: true as const } : await rest.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => rest?.cancel(reason),
  });
}
