import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';

/** Defaults of `hooks.tool-output-truncator`. */
export const TRUNCATOR_DEFAULTS = {
  /** Cap for one tool output, in tokens (oh-my-opencode's 50k). */
  max_tokens: 50_000,
  /** Per-tool caps by tool name, overriding `max_tokens`. */
  per_tool: {} as Record<string, number>,
  /** Tools whose output is never truncated. */
  exempt: [] as string[],
  /** Share of the kept budget given to the head; the rest keeps the tail. */
  head_ratio: 0.5,
};

const tokenCap = z.number({ error: 'a whole number of tokens, at least 100' }).int().min(100);

export const TruncatorConfigSchema = z.strictObject({
  max_tokens: tokenCap.default(TRUNCATOR_DEFAULTS.max_tokens),
  per_tool: z.record(z.string(), tokenCap).default(TRUNCATOR_DEFAULTS.per_tool),
  exempt: z.array(z.string()).default(TRUNCATOR_DEFAULTS.exempt),
  head_ratio: z
    .number({ error: 'a number between 0.1 and 0.9' })
    .min(0.1)
    .max(0.9)
    .default(TRUNCATOR_DEFAULTS.head_ratio),
});

export type TruncatorConfig = z.output<typeof TruncatorConfigSchema>;

export const truncatorConfigSection = defineConfigSection({
  key: 'tool-output-truncator',
  schema: TruncatorConfigSchema,
});
