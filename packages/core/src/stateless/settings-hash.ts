import { createHash } from 'node:crypto';
import { outputBudgetLine } from '../host/compaction-decision.js';
import type { Host } from '../host/host.js';

/**
 * A hash of what makes a projection: the engine, the compression and hook settings, the disabled
 * hooks, the window, and the request's output budget when it draws the compaction line (a budget over
 * `(1 − threshold) × window`, see `outputBudgetLine`). A cached compaction is used only under the
 * settings that made it, so one made for a small `max_tokens` is not sent with a larger one it leaves no
 * room for; the usual budgets, under that share, share one entry.
 */
export function settingsHash(host: Host, contextWindow: number | undefined, maxOutputTokens?: number): string {
  const { compression, hooks, auxiliary, disabledHooks } = host.config;
  const budgetLine =
    contextWindow === undefined || maxOutputTokens === undefined
      ? undefined
      : outputBudgetLine(compression.threshold, contextWindow, maxOutputTokens);
  const text = JSON.stringify([
    host.engine.name,
    compression,
    auxiliary,
    hooks,
    disabledHooks,
    host.plugins,
    contextWindow ?? null,
    ...(budgetLine === undefined ? [] : [budgetLine]),
  ]);
  return `s-${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}
