import { ConfigError, createConfigSchema, readHookSection, toCtxhostConfig } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { NativeCompactionConfigSchema } from './config-schema.js';
import {
  SERVER_CONTEXT,
  SERVER_CONTEXT_DEFAULTS,
  ServerContextConfigSchema,
  fromServerContextConfig,
  isServerContextOn,
  serverContextConfigSection,
} from './legacy-server-context-config.js';
import { buildAnthropicContextManagement } from './anthropic-context-management.js';
import { nativeSummaryPrompt } from './summary-prompt.js';

describe('hooks.server-context (deprecated) config', () => {
  it('parses a missing section to exactly the defaults, everything off', () => {
    const parsed = ServerContextConfigSchema.prefault({}).parse(undefined);
    expect(parsed).toEqual(SERVER_CONTEXT_DEFAULTS);
    expect(isServerContextOn(parsed)).toBe(false);
  });

  it('is composed into core’s file schema and reports bad values by key', () => {
    const schema = createConfigSchema([serverContextConfigSection]);
    expect(schema.parse({ hooks: { [SERVER_CONTEXT]: {} } }).hooks[SERVER_CONTEXT]).toEqual(SERVER_CONTEXT_DEFAULTS);
    const config = toCtxhostConfig(schema.parse({}));
    config.hooks[SERVER_CONTEXT] = { compaction: { enabled: true, trigger_tokens: 20_000 }, clear_tool_use: {} };
    let caught: unknown;
    try {
      readHookSection(config, SERVER_CONTEXT, ServerContextConfigSchema);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(
      /hooks\.server-context\.compaction\.trigger_tokens: expected a whole number of tokens, at least 50000/,
    );
    expect((caught as Error).message).toMatch(/clear_tool_use/);
  });

  it('maps onto hooks.native-compaction.anthropic, its instructions becoming the focus of a complete prompt', () => {
    const legacy = ServerContextConfigSchema.parse({
      clear_tool_uses: { enabled: true, trigger_tokens: 30_000, exclude_tools: ['memory'] },
      clear_thinking: { enabled: true, keep_turns: 'all' },
      compaction: { enabled: true, trigger_tokens: 60_000, instructions: 'Keep file paths.' },
      client_fallback_threshold: 0.9,
    });
    const native = NativeCompactionConfigSchema.parse(fromServerContextConfig(legacy));
    expect(native.client_fallback_threshold).toBe(0.9);
    expect(native.anthropic.compaction).toEqual({
      enabled: true,
      trigger_tokens: 60_000,
      pause_after_compaction: false,
      focus: 'Keep file paths.',
    });
    const edits = buildAnthropicContextManagement(native.anthropic)!.contextManagement.edits;
    expect(edits.map((edit) => edit['type'])).toEqual([
      'clear_thinking_20251015',
      'clear_tool_uses_20250919',
      'compact_20260112',
    ]);
    expect(edits[2]!['instructions']).toBe(nativeSummaryPrompt('Keep file paths.'));
  });
});
