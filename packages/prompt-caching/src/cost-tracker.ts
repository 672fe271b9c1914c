import type { Plugin, Usage } from '@ctxhost/core';
import { compactionUsages } from '@ctxhost/native-compaction';
import { sessionCost, type CostOptions, type CostReport } from './usage-cost.js';

export const COST_TRACKER = 'cost-tracker';

export interface CostTracker {
  readonly plugin: Plugin;
  /** The session's running cost: dollars and tokens by kind, cache hit ratio, dollars saved by caching. */
  report(sessionId: string): CostReport | undefined;
  /** Every session's report, by id. */
  reports(): Map<string, CostReport>;
}

/**
 * A running cost total per session, from the usage the API reported with
 * each assistant message: what caching saved, and the cache hit ratio — the
 * figures that show how compaction choices affect the cache. A reply that
 * carries a server compaction also adds that pass (`usage.iterations`).
 */
export function createCostTracker(options: CostOptions & { model: string }): CostTracker {
  const usages = new Map<string, Usage[]>();
  const report = (sessionId: string) => {
    const list = usages.get(sessionId);
    return list === undefined ? undefined : sessionCost(list, options.model, options);
  };
  return {
    plugin: {
      name: COST_TRACKER,
      apply(host) {
        host.hooks.messageUpdated.tapPromise(COST_TRACKER, async ({ sessionId, usage, message }) => {
          if (usage === undefined) return;
          const list = usages.get(sessionId) ?? [];
          // A server compaction's own pass is billed too, though the top-level usage leaves it out.
          list.push(...compactionUsages(message), usage);
          usages.set(sessionId, list);
        });
        host.hooks.sessionDeleted.tapPromise(COST_TRACKER, async ({ sessionId }) => {
          usages.delete(sessionId);
        });
      },
    },
    report,
    reports: () => new Map([...usages.keys()].map((id) => [id, report(id)!])),
  };
}
