import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';

/** Every constant of the cascade (oh-my-opencode's recovery hook), with its key under `hooks.anthropic-auto-compact`. */
export const AUTO_COMPACT_DEFAULTS = {
  /** Aggressive truncation (with `experimental.aggressive_truncation`): target share of the maximum. */
  target_token_ratio: 0.5,
  /** Tool outputs truncated per session at most. */
  max_truncate_attempts: 20,
  /** Outputs shorter than this (characters) are never truncated by the cascade. */
  min_output_size: 500,
  /** Reverts per session at most, and never below this many messages. */
  max_revert_attempts: 3,
  min_messages: 2,
  /** Empty-content fixes per session at most. */
  max_empty_fix_attempts: 3,
  /** Re-sends per incident, with backoff initial × factor^attempt capped at max. */
  max_retry_attempts: 2,
  initial_delay_ms: 2000,
  backoff_factor: 2,
  max_delay_ms: 30_000,
  /** Plan: skip to the first step whose estimated result fits. False walks oh-my-opencode's order one retry at a time. */
  plan: true,
  /** Share of the reported maximum a recovered prompt aims for (room for the reply and estimation error). */
  headroom: 0.85,
} as const;

const count = (min: number) => z.number().int().min(min);
const share = z.number().gt(0).lte(1);

export const AutoCompactConfigSchema = z.strictObject({
  target_token_ratio: share.default(AUTO_COMPACT_DEFAULTS.target_token_ratio),
  max_truncate_attempts: count(0).default(AUTO_COMPACT_DEFAULTS.max_truncate_attempts),
  min_output_size: count(0).default(AUTO_COMPACT_DEFAULTS.min_output_size),
  max_revert_attempts: count(0).default(AUTO_COMPACT_DEFAULTS.max_revert_attempts),
  min_messages: count(1).default(AUTO_COMPACT_DEFAULTS.min_messages),
  max_empty_fix_attempts: count(0).default(AUTO_COMPACT_DEFAULTS.max_empty_fix_attempts),
  max_retry_attempts: count(0).default(AUTO_COMPACT_DEFAULTS.max_retry_attempts),
  initial_delay_ms: count(0).default(AUTO_COMPACT_DEFAULTS.initial_delay_ms),
  backoff_factor: z.number().min(1).default(AUTO_COMPACT_DEFAULTS.backoff_factor),
  max_delay_ms: count(0).default(AUTO_COMPACT_DEFAULTS.max_delay_ms),
  plan: z.boolean().default(AUTO_COMPACT_DEFAULTS.plan),
  headroom: share.default(AUTO_COMPACT_DEFAULTS.headroom),
});

export type AutoCompactConfig = z.output<typeof AutoCompactConfigSchema>;

export const autoCompactConfigSection = defineConfigSection({
  key: 'anthropic-auto-compact',
  schema: AutoCompactConfigSchema,
});

/** The delay before re-send number `attempt` (0-based): 2 s, 4 s, 8 s … capped at 30 s. */
export function backoffDelay(
  attempt: number,
  config: Pick<AutoCompactConfig, 'initial_delay_ms' | 'backoff_factor' | 'max_delay_ms'>,
): number {
  return Math.min(config.initial_delay_ms * config.backoff_factor ** attempt, config.max_delay_ms);
}
