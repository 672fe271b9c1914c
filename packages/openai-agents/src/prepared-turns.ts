/** Pending turns kept at most: as many as core's stateless views (`maxViews`), one per run in flight. */
export const MAX_PREPARED_TURNS = 256;

/** What a prepared turn must offer to be let go: its end, which gives its view back. */
interface Finishable {
  finish(): Promise<void>;
}

/**
 * The turns the input filter prepared, waiting for the model call that sends them, matched by what is
 * sent (the key). A run aborted between the filter and the call never takes its turn; past `limit`
 * waiting turns the oldest is finished (its view given back idle) and forgotten, so such runs cannot
 * pile up turns and busy views. A call whose turn was let go is sent as the filter projected it.
 */
export function createPreparedTurns<T extends Finishable>(limit = MAX_PREPARED_TURNS) {
  /** Insertion order is age: a Map iterates oldest first. */
  const waiting = new Map<T, string>();
  const byKey = new Map<string, T[]>();

  const forget = (turn: T): void => {
    const key = waiting.get(turn);
    if (key === undefined) return;
    waiting.delete(turn);
    const queue = byKey.get(key)!;
    queue.splice(queue.indexOf(turn), 1);
    if (queue.length === 0) byKey.delete(key);
  };

  return {
    add(key: string, turn: T): void {
      waiting.set(turn, key);
      byKey.set(key, [...(byKey.get(key) ?? []), turn]);
      for (const [oldest] of waiting) {
        if (waiting.size <= limit) break;
        forget(oldest);
        void oldest.finish().catch(() => undefined);
      }
    },
    /** The oldest turn waiting under `key`, no longer waiting. */
    take(key: string): T | undefined {
      const turn = byKey.get(key)?.[0];
      if (turn !== undefined) forget(turn);
      return turn;
    },
    get size(): number {
      return waiting.size;
    },
  };
}
