import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';

/** The plugin's name, its taps and its config key (`hooks.native-compaction`). */
export const NATIVE_COMPACTION = 'native-compaction';

/** Anthropic's documented minimum for a threshold compaction trigger (its compaction guide). */
export const MIN_COMPACTION_TRIGGER = 50_000;

/**
 * Every default of `hooks.native-compaction`, in the file's spelling: every
 * mechanism off. The server-side token figures are the providers' own defaults
 * (Anthropic: context editing at 100,000 input tokens keeping 3 tool uses,
 * threshold compaction at 150,000). The ctxhost-driven mechanisms (Anthropic
 * on-demand, OpenAI `responses/compact`) run ahead of need: once the prompt
 * passes `trigger` of the window, at the session's next idle.
 */
export const NATIVE_COMPACTION_DEFAULTS = {
  anthropic: {
    compaction: { enabled: false, trigger_tokens: 150_000, pause_after_compaction: false },
    on_demand: { enabled: false, trigger: 0.6, keep_tail_tokens: 16_000 },
    clear_tool_uses: {
      enabled: false,
      trigger_tokens: 100_000,
      keep_tool_uses: 3,
      clear_at_least_tokens: 0,
      exclude_tools: [] as string[],
      clear_tool_inputs: false,
    },
    clear_thinking: { enabled: false, keep_turns: 1 as number | 'all' },
  },
  openai: {
    inline: { enabled: false, compact_threshold: 150_000 },
    standalone: { enabled: false, trigger: 0.6, keep_tail_tokens: 16_000 },
  },
  readable_copy: { enabled: true, summarizer: 'configured' as 'configured' | 'extractive' },
  client_fallback_threshold: 0.85,
};

const defaults = NATIVE_COMPACTION_DEFAULTS;
const flag = () => z.boolean({ error: 'true or false' });
const whole = (what: string, min: number) =>
  z
    .number({ error: `a whole number of ${what}, at least ${min}` })
    .int({ error: `a whole number of ${what}, at least ${min}` })
    .min(min, { error: `a whole number of ${what}, at least ${min}` });
const fraction = () =>
  z
    .number({ error: 'a number between 0 and 1' })
    .gt(0, { error: 'a number between 0 and 1' })
    .max(1, { error: 'a number between 0 and 1' });
/** What the summary should keep above all; ctxhost sends it inside its complete summary prompt, never alone. */
const focus = () => z.string({ error: 'a non-empty string' }).min(1, { error: 'a non-empty string' }).optional();

/** A mechanism ctxhost drives itself: when to run it and how much of the end stays verbatim. */
const driven = (section: { enabled: boolean; trigger: number; keep_tail_tokens: number }) =>
  z
    .strictObject({
      enabled: flag().default(section.enabled),
      trigger: fraction().default(section.trigger),
      keep_tail_tokens: whole('tokens', 0).default(section.keep_tail_tokens),
      focus: focus(),
    })
    .prefault({});

const anthropic = defaults.anthropic;
const AnthropicSchema = z
  .strictObject({
    compaction: z
      .strictObject({
        enabled: flag().default(anthropic.compaction.enabled),
        trigger_tokens: whole('tokens', MIN_COMPACTION_TRIGGER).default(anthropic.compaction.trigger_tokens),
        focus: focus(),
        pause_after_compaction: flag().default(anthropic.compaction.pause_after_compaction),
      })
      .prefault({}),
    on_demand: driven(anthropic.on_demand),
    clear_tool_uses: z
      .strictObject({
        enabled: flag().default(anthropic.clear_tool_uses.enabled),
        trigger_tokens: whole('tokens', 1).default(anthropic.clear_tool_uses.trigger_tokens),
        keep_tool_uses: whole('tool uses', 0).default(anthropic.clear_tool_uses.keep_tool_uses),
        clear_at_least_tokens: whole('tokens', 0).default(anthropic.clear_tool_uses.clear_at_least_tokens),
        exclude_tools: z
          .array(z.string({ error: 'a tool name' }).min(1, { error: 'a tool name' }), { error: 'a list of tool names' })
          .default(() => [...anthropic.clear_tool_uses.exclude_tools]),
        clear_tool_inputs: flag().default(anthropic.clear_tool_uses.clear_tool_inputs),
      })
      .prefault({}),
    clear_thinking: z
      .strictObject({
        enabled: flag().default(anthropic.clear_thinking.enabled),
        keep_turns: z
          .union([z.literal('all'), z.number().int().min(0)], {
            error: 'a whole number of turns, at least 0, or "all"',
          })
          .default(anthropic.clear_thinking.keep_turns),
      })
      .prefault({}),
  })
  .prefault({});

const OpenAISchema = z
  .strictObject({
    inline: z
      .strictObject({
        enabled: flag().default(defaults.openai.inline.enabled),
        compact_threshold: whole('tokens', 1).default(defaults.openai.inline.compact_threshold),
      })
      .prefault({}),
    standalone: driven(defaults.openai.standalone),
  })
  .prefault({});

export const NativeCompactionConfigSchema = z.strictObject({
  anthropic: AnthropicSchema,
  openai: OpenAISchema,
  readable_copy: z
    .strictObject({
      enabled: flag().default(defaults.readable_copy.enabled),
      summarizer: z
        .enum(['configured', 'extractive'], { error: '"configured" or "extractive"' })
        .default(defaults.readable_copy.summarizer),
    })
    .prefault({}),
  client_fallback_threshold: fraction().default(defaults.client_fallback_threshold),
});

export type NativeCompactionConfig = z.output<typeof NativeCompactionConfigSchema>;
export type NativeCompactionConfigInput = z.input<typeof NativeCompactionConfigSchema>;

export const nativeCompactionConfigSection = defineConfigSection({
  key: NATIVE_COMPACTION,
  schema: NativeCompactionConfigSchema,
});

/** True when any mechanism is switched on, for any provider. */
export function isNativeCompactionOn(config: NativeCompactionConfig): boolean {
  const { anthropic: a, openai: o } = config;
  return (
    a.compaction.enabled ||
    a.on_demand.enabled ||
    a.clear_tool_uses.enabled ||
    a.clear_thinking.enabled ||
    o.inline.enabled ||
    o.standalone.enabled
  );
}
