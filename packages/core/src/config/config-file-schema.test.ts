import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_CONFIG } from './config-defaults.js';
import { ConfigFileSchema, createConfigSchema, toCtxhostConfig } from './config-file-schema.js';
import { configErrorMap, toConfigIssues } from './config-issues.js';
import { defineConfigSection, readHookSection } from './config-section.js';
import { type ConfigError, CtxhostError, formatConfigIssue } from '../errors.js';

function problems(input: unknown, schema: z.ZodType = ConfigFileSchema): string[] {
  const result = schema.safeParse(input, { reportInput: true, error: configErrorMap });
  return result.success ? [] : toConfigIssues(result.error.issues).map(formatConfigIssue);
}

describe('ConfigFileSchema', () => {
  it.each([undefined, {}])('parses %j to exactly DEFAULT_CONFIG', (input) => {
    expect(toCtxhostConfig(ConfigFileSchema.parse(input))).toStrictEqual(DEFAULT_CONFIG);
  });

  it('fills the inner defaults of a partly written section', () => {
    const config = toCtxhostConfig(
      ConfigFileSchema.parse({ compression: { threshold: 0.7 }, auxiliary: { compression: { model: 'haiku' } } }),
    );
    expect(config.compression).toStrictEqual({ ...DEFAULT_CONFIG.compression, threshold: 0.7 });
    expect(config.auxiliary.compression).toStrictEqual({ provider: 'auto', model: 'haiku' });
  });

  it('converts every snake_case key to camelCase', () => {
    const config = toCtxhostConfig(
      ConfigFileSchema.parse({
        context: { engine: 'lcm' },
        compression: {
          enabled: false,
          threshold: 0.6,
          target_ratio: 0.3,
          protect_last_n: 5,
          summarizer_cooldown_compactions: 1,
          summarizer_cooldown_minutes: 2.5,
          background: false,
          bill_policy: false,
        },
        redaction: {
          enabled: true,
          disable: ['password'],
          patterns: [{ type: 'acme', regex: 'acme_[a-z]+', group: 1 }],
        },
        auxiliary: {
          compression: {
            model: 'm',
            provider: 'anthropic',
            base_url: 'http://127.0.0.1:8080',
            api_key_env: 'SUMMARY_KEY',
          },
        },
        prompt_caching: { cache_ttl: '1h' },
        model: { name: 'claude', context_length: 200000 },
        models: {
          'my-model': {
            context_window: 8192,
            max_output_tokens: 1024,
            pricing: { input: 1, output: 2, cache_read: 0.1 },
          },
        },
        disabled_hooks: ['session-hygiene'],
        experimental: { aggressive_truncation: true },
        plugin_dirs: ['/opt/plugins'],
        trusted_projects: ['~/work/app'],
        store: { kind: 'postgres', url: 'postgres://x' },
        fidelity: {
          probes: false,
          repair_max_tokens: 500,
          ledger: { enabled: false, max_tokens: 800 },
          rehydration: { max_files: 2 },
        },
      }),
    );
    expect(config).toStrictEqual({
      context: { engine: 'lcm' },
      compression: {
        enabled: false,
        threshold: 0.6,
        targetRatio: 0.3,
        protectLastN: 5,
        summarizerCooldownCompactions: 1,
        summarizerCooldownMinutes: 2.5,
        background: false,
        billPolicy: false,
      },
      redaction: { enabled: true, disable: ['password'], patterns: [{ type: 'acme', regex: 'acme_[a-z]+', group: 1 }] },
      auxiliary: {
        compression: { model: 'm', provider: 'anthropic', baseUrl: 'http://127.0.0.1:8080', apiKeyEnv: 'SUMMARY_KEY' },
      },
      promptCaching: { cacheTtl: '1h' },
      model: { name: 'claude', contextLength: 200000 },
      models: {
        'my-model': { contextWindow: 8192, maxOutputTokens: 1024, pricing: { input: 1, output: 2, cacheRead: 0.1 } },
      },
      disabledHooks: ['session-hygiene'],
      experimental: { aggressiveTruncation: true },
      fidelity: {
        probes: false,
        repairMaxTokens: 500,
        ledger: { enabled: false, maxTokens: 800 },
        rehydration: { enabled: true, maxTokens: 6000, maxFiles: 2 },
      },
      pluginDirs: ['/opt/plugins'],
      trustedProjects: ['~/work/app'],
      store: { kind: 'postgres', url: 'postgres://x' },
      hooks: {},
    });
  });

  it.each([
    [
      { compression: { threshold: 'half' } },
      'config compression.threshold: expected a number between 0 and 1, got "half"',
    ],
    [{ compression: { threshold: 1.5 } }, 'config compression.threshold: expected a number between 0 and 1, got 1.5'],
    [
      { compression: { target_ratio: 0.9 } },
      'config compression.target_ratio: expected a number between 0.1 and 0.8, got 0.9',
    ],
    [
      { compression: { protect_last_n: 0 } },
      'config compression.protect_last_n: expected a whole number of messages, at least 1, got 0',
    ],
    [
      { compression: { protect_last_n: 2.5 } },
      'config compression.protect_last_n: expected a whole number of messages, at least 1, got 2.5',
    ],
    [{ prompt_caching: { cache_ttl: '10m' } }, 'config prompt_caching.cache_ttl: expected "5m" or "1h", got "10m"'],
    [
      { compresion: {} },
      'config compresion: expected one of the keys context, compression, redaction, auxiliary, prompt_caching, model, models, disabled_hooks, experimental, fidelity, plugin_dirs, trusted_projects, store, hooks, got "compresion"',
    ],
    [
      { compression: { thresold: 0.5 } },
      'config compression.thresold: expected one of the keys enabled, threshold, target_ratio, protect_last_n, summarizer_cooldown_compactions, summarizer_cooldown_minutes, background, bill_policy, got "thresold"',
    ],
    [
      { experimental: { aggressive_truncation: 'yes' } },
      'config experimental.aggressive_truncation: expected true or false, got "yes"',
    ],
    [
      { experimental: { auto_resume: true } },
      'config experimental.auto_resume: expected no value: experimental.auto_resume is not a setting (recovery always re-sends the request; see the auto-compact README); remove the key, got true',
    ],
    [
      { fidelity: { ledger: { max_tokens: 10 } } },
      'config fidelity.ledger.max_tokens: expected a whole number of tokens, at least 100, got 10',
    ],
    [{ plugin_dirs: 'plugins' }, 'config plugin_dirs: expected a list of directory paths, got "plugins"'],
    [{ store: { kind: 'redis' } }, 'config store.kind: expected "file", "memory" or "postgres", got "redis"'],
    [{ compression: 3 }, 'config compression: expected a mapping of keys, got 3'],
  ])('rejects %j', (input, message) => {
    expect(problems(input)).toStrictEqual([message]);
  });

  it('lets an unknown name in disabled_hooks through (loading the files warns about it) but not a non-name', () => {
    expect(problems({ disabled_hooks: ['session-hygiene', 'context-monitor'] })).toStrictEqual([]);
    expect(problems({ disabled_hooks: ['session-hygiene', 3] })).toStrictEqual([
      'config disabled_hooks[1]: expected a hook name, one of context-window-monitor, preemptive-compaction, anthropic-auto-compact, session-hygiene, tool-output-truncator, prompt-caching, native-compaction, got 3',
    ]);
  });

  it('reports every problem at once', () => {
    expect(problems({ compression: { threshold: 2, enabled: 'no' }, model: { context_length: -1 } })).toHaveLength(3);
  });
});

describe('config sections', () => {
  const monitorSection = defineConfigSection({
    key: 'context-window-monitor',
    schema: z.strictObject({ warn_at: z.number().min(0).max(1).default(0.7) }),
  });
  const schema = createConfigSchema([monitorSection]);

  it('composes a contributed section under hooks with its defaults', () => {
    const config = toCtxhostConfig(schema.parse(undefined));
    expect(config.hooks).toStrictEqual({ 'context-window-monitor': { warn_at: 0.7 } });
    expect(readHookSection(config, 'context-window-monitor', monitorSection.schema)).toStrictEqual({ warn_at: 0.7 });
  });

  it('checks a contributed section strictly and rejects unknown hook sections', () => {
    expect(
      problems({ hooks: { 'context-window-monitor': { warn_at: 2, warn: 1 }, 'no-such-hook': {} } }, schema).sort(),
    ).toStrictEqual(
      [
        'config hooks.context-window-monitor.warn: expected one of the keys warn_at, got "warn"',
        'config hooks.context-window-monitor.warn_at: expected a value at most 1, got 2',
        'config hooks.no-such-hook: expected one of the keys context-window-monitor, preemptive-compaction, anthropic-auto-compact, session-hygiene, tool-output-truncator, prompt-caching, native-compaction, anthropic-context-window-limit-recovery, server-context, got "no-such-hook"',
      ].sort(),
    );
  });

  it('readHookSection reports a bad section as a ConfigError naming the key path', () => {
    const config = { hooks: { 'context-window-monitor': { warn_at: 'high' } } };
    let caught: unknown;
    try {
      readHookSection(config, 'context-window-monitor', monitorSection.schema);
    } catch (error) {
      caught = error;
    }
    expect(CtxhostError.hasCode(caught, 'CTXHOST_CONFIG_INVALID')).toBe(true);
    expect((caught as ConfigError).issues.map(formatConfigIssue)).toStrictEqual([
      'config hooks.context-window-monitor.warn_at: expected a number, got "high"',
    ]);
  });

  it('refuses a section contributed twice', () => {
    expect(() => createConfigSchema([monitorSection, monitorSection])).toThrow(/contributed twice/);
  });
});
