/**
 * A provider's error answer, held whole so the caller gets it unchanged (status,
 * headers, body) when ctxhost cannot recover. Shaped as the SDKs shape theirs
 * (`status`, the parsed body in `error`, the text as the message), so core's
 * overflow parser reads it as it reads any provider's error.
 */
export class UpstreamError extends Error {
  readonly error: unknown;
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[]>,
    readonly body: string,
    /** The error as the provider gave it, when the body is not it (an `error` event inside a stream). */
    error?: unknown,
  ) {
    super(body.length > 0 ? body : `upstream answered ${status}`);
    this.name = 'UpstreamError';
    this.error = error ?? parseJson(body);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
