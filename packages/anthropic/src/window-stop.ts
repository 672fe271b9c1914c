import type Anthropic from '@anthropic-ai/sdk';
import { Stream } from '@anthropic-ai/sdk/streaming';

const WINDOW_STOP = 'model_context_window_exceeded';

/**
 * A reply that is an overflow in a 200: newer models stop with `model_context_window_exceeded` and no
 * content. The wrapper throws it as core's `ContextWindowStop`, so the recovery treats it as the
 * overflow it is; when the recovery cannot help, the caller gets the reply as the API gave it.
 */
export function isWindowStop(reply: Anthropic.Message): boolean {
  return (
    reply.stop_reason === WINDOW_STOP && reply.content.every((block) => block.type === 'text' && block.text === '')
  );
}

type StreamEvent = Anthropic.RawMessageStreamEvent;

/**
 * The same for a stream: reads it until the first content or the stop. `windowStop` when it stopped at
 * the window before saying anything; either way `stream` replays the events read so far, then the rest.
 */
export async function peekWindowStop(
  stream: Stream<StreamEvent>,
): Promise<{ stream: Stream<StreamEvent>; windowStop: boolean }> {
  const iterator = stream[Symbol.asyncIterator]();
  const seen: StreamEvent[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) break;
    const event = next.value;
    seen.push(event);
    if (event.type === 'message_delta' && event.delta.stop_reason === WINDOW_STOP)
      return { stream: replay(stream, seen, undefined), windowStop: true };
    if (saysSomething(event)) break;
  }
  return { stream: replay(stream, seen, iterator), windowStop: false };
}

function saysSomething(event: StreamEvent): boolean {
  if (event.type === 'content_block_start')
    return !(
      (event.content_block.type === 'text' && event.content_block.text === '') ||
      (event.content_block.type === 'thinking' && event.content_block.thinking === '')
    );
  if (event.type === 'content_block_delta') {
    const delta = event.delta;
    if (delta.type === 'text_delta') return delta.text !== '';
    if (delta.type === 'thinking_delta') return delta.thinking !== '';
    return true;
  }
  return event.type === 'message_stop';
}

function replay(
  source: Stream<StreamEvent>,
  seen: readonly StreamEvent[],
  rest: AsyncIterator<StreamEvent> | undefined,
): Stream<StreamEvent> {
  async function* events(): AsyncGenerator<StreamEvent> {
    yield* seen;
    if (rest === undefined) return;
    for (;;) {
      const next = await rest.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
  return new Stream(events, source.controller);
}
