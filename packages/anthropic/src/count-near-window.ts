import type { ModelClient, ModelRequest, Session } from '@ctxhost/core';

/** How close to the window an estimated prompt must be for an exact count to be worth a round trip. */
export const COUNT_NEAR_WINDOW_RATIO = 0.05;

/**
 * When the estimated prompt is within 5% of the window — where the estimator's
 * error decides between "fits" and "overflows" — and the client can count
 * (Anthropic's `count_tokens`), asks for the exact size and gives it to the
 * session, so the engine and hygiene decide on it. Elsewhere it costs nothing.
 * A failed count is not an error: the estimate stands.
 */
export async function countNearWindow(
  session: Session,
  model: ModelClient,
  request: ModelRequest,
  window: number | undefined,
  signal?: AbortSignal,
): Promise<number | undefined> {
  if (model.countTokens === undefined || session.reportCount === undefined || window === undefined) return undefined;
  const size = session.promptSize();
  if (size.source === 'reported' || Math.abs(size.tokens - window) > window * COUNT_NEAR_WINDOW_RATIO) return undefined;
  try {
    const exact = await model.countTokens(request, signal === undefined ? {} : { signal });
    session.reportCount(exact);
    return exact;
  } catch {
    return undefined;
  }
}
