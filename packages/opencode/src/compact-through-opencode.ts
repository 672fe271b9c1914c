import type { CompactionReason, CompactionReport, Host, Session } from '@ctxhost/core';

/**
 * Compacts a session the opencode way: the host's engine (opencode-summarize
 * inside the plugin) plans it on ctxhost's mirror and `applyCompaction` is
 * carried out by the sync store as opencode's summarize. Returns the report, or
 * undefined when there was nothing before the last prompt to summarize.
 */
export async function compactThroughOpencode(
  host: Host,
  session: Session,
  reason: CompactionReason,
  contextWindow: number,
): Promise<CompactionReport | undefined> {
  const result = await host.engine.compress(session.messages(), {
    sessionId: session.id,
    contextWindow,
    counter: host.counter,
    reason,
    original: (partId) => session.original(partId),
  });
  if (result.report.tokensAfter >= result.report.tokensBefore) return undefined;
  await session.applyCompaction(result.messages, result.report);
  return result.report;
}
