import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';

/** Defaults of `hooks.preemptive-compaction`. */
export const PREEMPTIVE_DEFAULTS = {
  /** `notice`: suggest making room (oh-my-opencode's); `compact`: run the active engine instead. */
  mode: 'notice',
  /** Fraction of the context window at which it acts. */
  threshold: 0.8,
} as const;

export const PreemptiveConfigSchema = z.strictObject({
  mode: z.enum(['notice', 'compact'], { error: '"notice" or "compact"' }).default(PREEMPTIVE_DEFAULTS.mode),
  threshold: z.number({ error: 'a number between 0 and 1' }).gt(0).lt(1).default(PREEMPTIVE_DEFAULTS.threshold),
});

export type PreemptiveConfig = z.output<typeof PreemptiveConfigSchema>;

export const preemptiveConfigSection = defineConfigSection({
  key: 'preemptive-compaction',
  schema: PreemptiveConfigSchema,
});
