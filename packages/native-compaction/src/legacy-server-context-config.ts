import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';
import { MIN_COMPACTION_TRIGGER, type NativeCompactionConfigInput } from './config-schema.js';

/**
 * The deprecated key (`hooks.server-context`) of the Anthropic-only section
 * `hooks.native-compaction` replaced. Still read: the plugin maps it onto
 * `hooks.native-compaction.anthropic` and warns once.
 */
export const SERVER_CONTEXT = 'server-context';

/**
 * Every default of `hooks.server-context`, in the file's spelling: everything
 * off. The token figures are Anthropic's own defaults (context editing at
 * 100,000 input tokens keeping 3 tool uses; compaction at 150,000).
 */
export const SERVER_CONTEXT_DEFAULTS = {
  clear_tool_uses: {
    enabled: false,
    trigger_tokens: 100_000,
    keep_tool_uses: 3,
    clear_at_least_tokens: 0,
    exclude_tools: [] as string[],
    clear_tool_inputs: false,
  },
  clear_thinking: { enabled: false, keep_turns: 1 as number | 'all' },
  compaction: { enabled: false, trigger_tokens: 150_000, pause_after_compaction: false },
  client_fallback_threshold: 0.85,
};

const defaults = SERVER_CONTEXT_DEFAULTS;
const flag = () => z.boolean({ error: 'true or false' });
const tokens = (min: number) =>
  z
    .number({ error: `a whole number of tokens, at least ${min}` })
    .int({ error: `a whole number of tokens, at least ${min}` })
    .min(min, { error: `a whole number of tokens, at least ${min}` });

export const ServerContextConfigSchema = z.strictObject({
  clear_tool_uses: z
    .strictObject({
      enabled: flag().default(defaults.clear_tool_uses.enabled),
      trigger_tokens: tokens(1).default(defaults.clear_tool_uses.trigger_tokens),
      keep_tool_uses: z
        .number({ error: 'a whole number of tool uses, at least 0' })
        .int({ error: 'a whole number of tool uses, at least 0' })
        .min(0, { error: 'a whole number of tool uses, at least 0' })
        .default(defaults.clear_tool_uses.keep_tool_uses),
      clear_at_least_tokens: tokens(0).default(defaults.clear_tool_uses.clear_at_least_tokens),
      exclude_tools: z
        .array(z.string({ error: 'a tool name' }).min(1, { error: 'a tool name' }), { error: 'a list of tool names' })
        .default(() => [...defaults.clear_tool_uses.exclude_tools]),
      clear_tool_inputs: flag().default(defaults.clear_tool_uses.clear_tool_inputs),
    })
    .prefault({}),
  clear_thinking: z
    .strictObject({
      enabled: flag().default(defaults.clear_thinking.enabled),
      keep_turns: z
        .union([z.literal('all'), z.number().int().min(0)], { error: 'a whole number of turns, at least 0, or "all"' })
        .default(defaults.clear_thinking.keep_turns),
    })
    .prefault({}),
  compaction: z
    .strictObject({
      enabled: flag().default(defaults.compaction.enabled),
      trigger_tokens: tokens(MIN_COMPACTION_TRIGGER).default(defaults.compaction.trigger_tokens),
      instructions: z.string({ error: 'a non-empty string' }).min(1, { error: 'a non-empty string' }).optional(),
      pause_after_compaction: flag().default(defaults.compaction.pause_after_compaction),
    })
    .prefault({}),
  client_fallback_threshold: z
    .number({ error: 'a number between 0 and 1' })
    .gt(0, { error: 'a number between 0 and 1' })
    .max(1, { error: 'a number between 0 and 1' })
    .default(defaults.client_fallback_threshold),
});

export type ServerContextConfig = z.output<typeof ServerContextConfigSchema>;

export const serverContextConfigSection = defineConfigSection({
  key: SERVER_CONTEXT,
  schema: ServerContextConfigSchema,
});

/** True when any server-side strategy is switched on. */
export function isServerContextOn(config: ServerContextConfig): boolean {
  return config.clear_tool_uses.enabled || config.clear_thinking.enabled || config.compaction.enabled;
}

/**
 * A `hooks.server-context` section as the `hooks.native-compaction` section it
 * stands for: its strategies under `anthropic`, its `instructions` as the
 * compaction's focus (sent inside ctxhost's complete summary prompt).
 */
export function fromServerContextConfig(legacy: ServerContextConfig): NativeCompactionConfigInput {
  const { instructions, ...compaction } = legacy.compaction;
  return {
    anthropic: {
      compaction: { ...compaction, ...(instructions === undefined ? {} : { focus: instructions }) },
      clear_tool_uses: { ...legacy.clear_tool_uses, exclude_tools: [...legacy.clear_tool_uses.exclude_tools] },
      clear_thinking: { ...legacy.clear_thinking },
    },
    client_fallback_threshold: legacy.client_fallback_threshold,
  };
}
