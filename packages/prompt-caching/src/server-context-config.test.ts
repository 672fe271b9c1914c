import { ConfigError, createConfigSchema, readHookSection, toCtxhostConfig } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import {
  SERVER_CONTEXT,
  SERVER_CONTEXT_DEFAULTS,
  ServerContextConfigSchema,
  isServerContextOn,
  serverContextConfigSection,
} from './server-context-config.js';
import {
  buildServerContextRequest,
  COMPACTION_BETA,
  CONTEXT_MANAGEMENT_BETA,
  serverTriggerTokens,
} from './server-context-request.js';

describe('hooks.server-context config', () => {
  it('parses a missing section to exactly the defaults, everything off', () => {
    const parsed = ServerContextConfigSchema.prefault({}).parse(undefined);
    expect(parsed).toEqual(SERVER_CONTEXT_DEFAULTS);
    expect(isServerContextOn(parsed)).toBe(false);
    expect(buildServerContextRequest(parsed)).toBeUndefined();
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
});

describe('buildServerContextRequest', () => {
  it('emits clear_thinking first, then clear_tool_uses, then compaction, with each beta once', () => {
    const config = ServerContextConfigSchema.parse({
      clear_tool_uses: {
        enabled: true,
        trigger_tokens: 30_000,
        keep_tool_uses: 2,
        clear_at_least_tokens: 5_000,
        exclude_tools: ['memory'],
        clear_tool_inputs: true,
      },
      clear_thinking: { enabled: true, keep_turns: 'all' },
      compaction: { enabled: true, trigger_tokens: 60_000, instructions: 'Keep file paths.' },
    });
    expect(buildServerContextRequest(config)).toEqual({
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
          {
            type: 'compact_20260112',
            trigger: { type: 'input_tokens', value: 60_000 },
            instructions: 'Keep file paths.',
          },
        ],
      },
    });
    expect(serverTriggerTokens(config)).toBe(30_000);
  });

  it('omits options left at "none" and names only the beta in use', () => {
    const config = ServerContextConfigSchema.parse({ clear_tool_uses: { enabled: true } });
    expect(buildServerContextRequest(config)).toEqual({
      betas: [CONTEXT_MANAGEMENT_BETA],
      contextManagement: {
        edits: [
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 100_000 },
            keep: { type: 'tool_uses', value: 3 },
          },
        ],
      },
    });
  });
});
