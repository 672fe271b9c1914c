import { z } from 'zod';
import type { ModelOverride } from './model-info.js';
import { defaultModelRegistry } from './model-registry.js';

/*
 * The config file's `models:` section: a model name (any spelling the
 * registry resolves) mapped to fields that override the registry's, or a new
 * model, which then needs at least `context_window`.
 */

const tokens = (what: string) => {
  const error = `a whole number of ${what}, at least 1`;
  return z.number({ error }).int({ error }).min(1, { error });
};
const dollars = () => {
  const error = 'USD per million tokens (a number ≥ 0)';
  return z.number({ error }).min(0, { error });
};
const text = (what: string) => {
  const error = `${what} (a non-empty string)`;
  return z.string({ error }).min(1, { error });
};

export const ModelPricesSchema = z.strictObject({
  input: dollars(),
  output: dollars(),
  cache_read: dollars().optional(),
  cache_write: dollars().optional(),
});

export const ModelEntrySchema = z.strictObject({
  provider: text('a provider name').optional(),
  context_window: tokens('tokens').optional(),
  max_output_tokens: tokens('tokens').optional(),
  pricing: ModelPricesSchema.optional(),
  tokenizer: text('an encoding name such as o200k_base').optional(),
});

export const ModelsSectionSchema = z
  .record(z.string().min(1, { error: 'a model name' }), ModelEntrySchema, {
    error: 'a mapping of model names to entries',
  })
  // `when`: run even when some entry failed, so every problem is reported at once.
  .superRefine(
    (section, context) => {
      for (const [name, entry] of Object.entries(section as Record<string, unknown>)) {
        if (!isEntryWithoutWindow(entry) || defaultModelRegistry().get(name) !== undefined) continue;
        context.addIssue({
          code: 'custom',
          path: [name, 'context_window'],
          message: `required: the model registry does not know "${name}", so give its window in tokens`,
        });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .default({});

function isEntryWithoutWindow(entry: unknown): boolean {
  return (
    typeof entry === 'object' && entry !== null && (entry as { context_window?: unknown }).context_window === undefined
  );
}

export type ModelsSection = z.output<typeof ModelsSectionSchema>;

/** The file's snake_case entries as `ModelOverride`s (camelCase, absent keys absent). */
export function toModelOverrides(section: ModelsSection): Record<string, ModelOverride> {
  const overrides: Record<string, ModelOverride> = {};
  for (const [name, entry] of Object.entries(section)) {
    const override: ModelOverride = {};
    if (entry.provider !== undefined) override.provider = entry.provider;
    if (entry.context_window !== undefined) override.contextWindow = entry.context_window;
    if (entry.max_output_tokens !== undefined) override.maxOutputTokens = entry.max_output_tokens;
    if (entry.tokenizer !== undefined) override.tokenizer = entry.tokenizer;
    if (entry.pricing !== undefined) {
      const { input, output, cache_read: cacheRead, cache_write: cacheWrite } = entry.pricing;
      override.pricing = {
        input,
        output,
        ...(cacheRead === undefined ? {} : { cacheRead }),
        ...(cacheWrite === undefined ? {} : { cacheWrite }),
      };
    }
    overrides[name] = override;
  }
  return overrides;
}
