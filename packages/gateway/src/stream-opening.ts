/** What one event at the opening of a stream says, before anything reached the client. */
export type OpeningEvent = 'wait' | 'content' | 'error' | 'window-stop';

/** A stream's opening read: the stream to relay (unchanged), an error event, or a stop at the window. */
export type StreamOpening =
  | { kind: 'stream'; upstream: Response }
  | { kind: 'error'; data: unknown; text: string }
  | { kind: 'window-stop'; replay: Response };

/**
 * Reads a server-sent stream up to its first event that is not an opening (`message_start`, `ping`):
 * an error event or a stop at the window there is an overflow in a 200 that nothing has relayed yet,
 * so it can be recovered like an error status. Otherwise the stream is handed on whole (what was read,
 * then the rest as it comes): the first token reaches the client when it would have.
 */
export async function readStreamOpening(
  upstream: Response,
  classify: (name: string, data: unknown) => OpeningEvent,
): Promise<StreamOpening> {
  if (upstream.body === null) return { kind: 'stream', upstream };
  const reader = (upstream.body as ReadableStream<Uint8Array>).getReader();
  const read: Uint8Array[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  const ended = (name: string, data: unknown, said: 'error' | 'window-stop', all: Uint8Array[]): StreamOpening =>
    said === 'error'
      ? { kind: 'error', data, text: Buffer.concat(all).toString('utf8') }
      : { kind: 'window-stop', replay: replayOf(upstream, all, undefined) };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      // A stream that ended inside its opening: its last event may lack the blank line after it.
      const last = parseEvent(pending);
      const said = pending.trim().length === 0 ? 'wait' : classify(last.name, last.data);
      if (said === 'error' || said === 'window-stop') return ended(last.name, last.data, said, read);
      return { kind: 'stream', upstream: replayOf(upstream, read, undefined) };
    }
    read.push(value);
    pending += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let boundary = pending.indexOf('\n\n');
    while (boundary >= 0) {
      const { name, data } = parseEvent(pending.slice(0, boundary));
      pending = pending.slice(boundary + 2);
      boundary = pending.indexOf('\n\n');
      const said = classify(name, data);
      if (said === 'wait') continue;
      if (said === 'content') return { kind: 'stream', upstream: replayOf(upstream, read, reader) };
      return ended(name, data, said, await drain(reader, read));
    }
  }
}

/** The rest of a stream that ended at an overflow (an error event is its last; a stop has only `message_stop` after it). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, read: Uint8Array[]): Promise<Uint8Array[]> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return read;
    read.push(value);
  }
}

/** The upstream's response again: the chunks already read, then (when given) the rest of its body. */
function replayOf(
  upstream: Response,
  read: readonly Uint8Array[],
  rest: ReadableStreamDefaultReader<Uint8Array> | undefined,
): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of read) controller.enqueue(chunk);
      if (rest === undefined) controller.close();
    },
    async pull(controller) {
      if (rest === undefined) return;
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => rest?.cancel(reason),
  });
  return new Response(body, { status: upstream.status, statusText: upstream.statusText, headers: upstream.headers });
}

function parseEvent(text: string): { name: string; data: unknown } {
  let name = 'message';
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) lines.push(line.slice(5).replace(/^ /, ''));
  }
  try {
    return { name, data: JSON.parse(lines.join('\n')) };
  } catch {
    return { name, data: undefined };
  }
}
