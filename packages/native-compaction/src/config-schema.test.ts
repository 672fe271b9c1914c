import {
  ConfigError,
  createConfigJsonSchema,
  createConfigSchema,
  readHookSection,
  toCtxhostConfig,
} from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import {
  anthropicTriggerTokens,
  buildAnthropicContextManagement,
  COMPACTION_BETA,
  CONTEXT_MANAGEMENT_BETA,
} from './anthropic-context-management.js';
import {
  isNativeCompactionOn,
  NATIVE_COMPACTION,
  NATIVE_COMPACTION_DEFAULTS,
  nativeCompactionConfigSection,
  NativeCompactionConfigSchema,
} from './config-schema.js';
import { buildResponsesContextManagement } from './responses-context-management.js';
import { nativeSummaryPrompt } from './summary-prompt.js';

function configError(section: unknown): string {
  const config = toCtxhostConfig(createConfigSchema([]).parse({}));
  config.hooks[NATIVE_COMPACTION] = section as Record<string, unknown>;
  try {
    readHookSection(config, NATIVE_COMPACTION, NativeCompactionConfigSchema);
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a config error');
}

describe('hooks.native-compaction config', () => {
  it('parses a missing section to exactly the defaults, every mechanism off', () => {
    const parsed = NativeCompactionConfigSchema.prefault({}).parse(undefined);
    expect(parsed).toEqual(NATIVE_COMPACTION_DEFAULTS);
    expect(isNativeCompactionOn(parsed)).toBe(false);
    expect(buildAnthropicContextManagement(parsed.anthropic)).toBeUndefined();
    expect(buildResponsesContextManagement(parsed.openai)).toBeUndefined();
  });

  it('is composed into core’s file schema and its JSON schema', () => {
    const schema = createConfigSchema([nativeCompactionConfigSection]);
    expect(schema.parse({ hooks: { [NATIVE_COMPACTION]: {} } }).hooks[NATIVE_COMPACTION]).toEqual(
      NATIVE_COMPACTION_DEFAULTS,
    );
    const json = JSON.stringify(createConfigJsonSchema([nativeCompactionConfigSection]));
    for (const key of ['on_demand', 'keep_tail_tokens', 'compact_threshold', 'standalone', 'readable_copy'])
      expect(json).toContain(`"${key}"`);
  });

  it.each([
    [
      { anthropic: { compaction: { trigger_tokens: 20_000 } } },
      /anthropic\.compaction\.trigger_tokens: expected a whole number of tokens, at least 50000/,
    ],
    [
      { anthropic: { on_demand: { trigger: 1.5 } } },
      /anthropic\.on_demand\.trigger: expected a number between 0 and 1/,
    ],
    [
      { openai: { inline: { compact_threshold: 0 } } },
      /openai\.inline\.compact_threshold: expected a whole number of tokens, at least 1/,
    ],
    [{ openai: { standalone: { keep_tail: 3 } } }, /openai\.standalone.*keep_tail/],
    [{ readable_copy: { summarizer: 'gpt' } }, /readable_copy\.summarizer: expected "configured" or "extractive"/],
    [{ anthropic: { compaction: { instructions: 'x' } } }, /instructions/],
  ])('reports %j by key', (section, message) => {
    expect(configError(section)).toMatch(message);
  });
});

describe('buildAnthropicContextManagement', () => {
  it('emits clear_thinking first, then clear_tool_uses, then compaction, each beta once; a focus as a complete prompt', () => {
    const { anthropic } = NativeCompactionConfigSchema.parse({
      anthropic: {
        clear_tool_uses: {
          enabled: true,
          trigger_tokens: 30_000,
          keep_tool_uses: 2,
          clear_at_least_tokens: 5_000,
          exclude_tools: ['memory'],
          clear_tool_inputs: true,
        },
        clear_thinking: { enabled: true, keep_turns: 'all' },
        compaction: { enabled: true, trigger_tokens: 60_000, focus: 'the database migration' },
      },
    });
    const instructions = nativeSummaryPrompt('the database migration');
    expect(instructions).toMatch(/## Goal[\s\S]*## Next Steps/);
    expect(instructions).toContain('the database migration');
    expect(buildAnthropicContextManagement(anthropic)).toEqual({
      betas: [CONTEXT_MANAGEMENT_BETA, COMPACTION_BETA],
      contextManagement: {
        edits: [
          { type: 'clear_thinking_20251015', keep: 'all' },
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 30_000 },
            keep: { type: 'tool_uses', value: 2 },
            clear_at_least: { type: 'input_tokens', value: 5_000 },
            exclude_tools: ['memory'],
            clear_tool_inputs: true,
          },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 }, instructions },
        ],
      },
    });
    expect(anthropicTriggerTokens(anthropic)).toBe(30_000);
  });

  it('sends no instructions without a focus (the server keeps its own complete prompt)', () => {
    const { anthropic } = NativeCompactionConfigSchema.parse({ anthropic: { compaction: { enabled: true } } });
    expect(buildAnthropicContextManagement(anthropic)?.contextManagement.edits).toEqual([
      { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150_000 } },
    ]);
  });
});

describe('buildResponsesContextManagement', () => {
  it('is the Responses field for inline compaction', () => {
    const { openai } = NativeCompactionConfigSchema.parse({
      openai: { inline: { enabled: true, compact_threshold: 90_000 } },
    });
    expect(buildResponsesContextManagement(openai)).toEqual([{ type: 'compaction', compact_threshold: 90_000 }]);
  });
});
