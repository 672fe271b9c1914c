import type { ContextEngine, EngineToolContext, JsonValue, Usage } from '@ctxhost/core';

/** Marks an engine wrapped by `withServerFirst`, so the server-context plugin can tell. */
export const SERVER_FIRST = Symbol.for('ctxhost.server-first-engine');

export interface ServerFirstOptions {
  /** Fraction of the window the prompt must pass before the client compacts (default 0.85). */
  fallbackThreshold?: number;
}

/**
 * A context engine that steps back while the API manages the context: it
 * compresses (with the wrapped engine) only when the prompt — as the API
 * reported it, so after the server's clearing or compaction, plus what was
 * appended since — passes `fallbackThreshold` of the window AND the wrapped
 * engine would compress too. Below that, the server's edits keep the prompt
 * small and the client does nothing. Everything else is the wrapped engine's.
 */
export function withServerFirst(
  engine: ContextEngine,
  options: ServerFirstOptions = {},
): ContextEngine & { readonly [SERVER_FIRST]: number } {
  const fallback = options.fallbackThreshold ?? 0.85;
  if (!(fallback > 0 && fallback <= 1))
    throw new RangeError(
      `withServerFirst: fallbackThreshold must be a number between 0 and 1, got ${String(fallback)}`,
    );
  return {
    [SERVER_FIRST]: fallback,
    name: engine.name,
    shouldCompress: (state) =>
      state.contextWindow !== undefined &&
      state.promptTokens >= fallback * state.contextWindow &&
      engine.shouldCompress(state),
    compress: (messages, context) => engine.compress(messages, context),
    ...(engine.tools === undefined ? {} : { tools: () => engine.tools!() }),
    ...(engine.callTool === undefined
      ? {}
      : {
          callTool: (name: string, input: JsonValue, context: EngineToolContext) =>
            engine.callTool!(name, input, context),
        }),
    ...(engine.updateFromUsage === undefined
      ? {}
      : { updateFromUsage: (usage: Usage, sessionId: string) => engine.updateFromUsage!(usage, sessionId) }),
  };
}

/** The fallback threshold of an engine wrapped by `withServerFirst`, else undefined. */
export function serverFirstThreshold(engine: ContextEngine): number | undefined {
  const value = (engine as { [SERVER_FIRST]?: unknown })[SERVER_FIRST];
  return typeof value === 'number' ? value : undefined;
}
