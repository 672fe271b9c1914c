import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';

export const OPENCODE_SECTION = 'opencode';

/** `provider/model`, as opencode writes a model (`anthropic/claude-haiku-4-5`). */
const ModelRefSchema = z
  .string({ error: 'a model as "provider/model"' })
  .regex(/^[^/\s]+\/\S+$/, { error: 'a model as "provider/model", e.g. "anthropic/claude-haiku-4-5"' });

/** Defaults of `hooks.opencode`. */
export const OPENCODE_DEFAULTS = {
  /** Re-summaries after a compaction whose next reply came back empty, per compaction. */
  max_resummaries: 1,
} as const;

/**
 * `hooks.opencode`: what only the opencode plugin reads. `compaction_model`
 * maps an opencode agent (`build`, `plan`, …, or `default` for every other
 * agent) to the model opencode summarizes with; without an entry the
 * session's own model summarizes.
 */
export const OpencodeConfigSchema = z.strictObject({
  compaction_model: z.record(z.string(), ModelRefSchema).default({}),
  max_resummaries: z
    .number({ error: 'a whole number, 0 or more' })
    .int()
    .min(0)
    .max(5)
    .default(OPENCODE_DEFAULTS.max_resummaries),
});

export type OpencodeConfig = z.output<typeof OpencodeConfigSchema>;

export const opencodeConfigSection = defineConfigSection({ key: OPENCODE_SECTION, schema: OpencodeConfigSchema });
