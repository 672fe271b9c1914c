import { z } from 'zod';
import { DEFAULT_CONFIG, CONFIG_LIMITS } from './config-defaults.js';
import { BUILT_IN_HOOK_NAMES, type CtxhostConfig } from './config-schema.js';
import type { ConfigSection } from './config-section.js';
import { canonicalHookName, HOOK_ALIASES } from './disabled-hooks.js';
import { linearPatternProblem } from './linear-pattern.js';
import { ModelsSectionSchema, toModelOverrides } from '../model-registry/models-config-schema.js';

/*
 * The configuration FILE as zod sees it: snake_case keys, strict objects (a
 * misspelt key is an error), every default read from DEFAULT_CONFIG, nested
 * sections `.prefault({})` so their inner defaults apply to a missing section.
 */

const defaults = DEFAULT_CONFIG;

function numberBetween(min: number, max: number) {
  const error = `a number between ${min} and ${max}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
}

function wholeNumberAtLeast(min: number, what: string) {
  const error = `a whole number of ${what}, at least ${min}`;
  return z.number({ error }).int({ error }).min(min, { error });
}

function text(what: string) {
  const error = `${what} (a non-empty string)`;
  return z.string({ error }).min(1, { error });
}

function flag() {
  return z.boolean({ error: 'true or false' });
}

const hookNameList = BUILT_IN_HOOK_NAMES.join(', ');

export const ContextSectionSchema = z.strictObject({
  engine: text('an engine name').default(defaults.context.engine),
});

export const CompressionSectionSchema = z.strictObject({
  enabled: flag().default(defaults.compression.enabled),
  threshold: numberBetween(0, 1).default(defaults.compression.threshold),
  target_ratio: numberBetween(CONFIG_LIMITS.targetRatio.min, CONFIG_LIMITS.targetRatio.max).default(
    defaults.compression.targetRatio,
  ),
  protect_last_n: wholeNumberAtLeast(CONFIG_LIMITS.protectLastN.min, 'messages').default(
    defaults.compression.protectLastN,
  ),
  summarizer_cooldown_compactions: wholeNumberAtLeast(0, 'compactions').default(
    defaults.compression.summarizerCooldownCompactions,
  ),
  summarizer_cooldown_minutes: z
    .number({ error: 'a number of minutes, at least 0' })
    .min(0, { error: 'a number of minutes, at least 0' })
    .default(defaults.compression.summarizerCooldownMinutes),
  background: flag().default(defaults.compression.background),
  bill_policy: flag().default(defaults.compression.billPolicy),
});

function compilesAsRegex(source: string): boolean {
  try {
    new RegExp(source, 'g');
    return true;
  } catch {
    return false;
  }
}

export const RedactionSectionSchema = z.strictObject({
  enabled: flag().default(defaults.redaction.enabled),
  disable: z
    .array(text('a built-in pattern type'), { error: 'a list of pattern types' })
    .default(() => [...defaults.redaction.disable]),
  patterns: z
    .array(
      z.strictObject({
        type: text('a placeholder label'),
        regex: text('a regular expression')
          .refine(compilesAsRegex, { error: 'a valid regular expression' })
          .refine((source) => !compilesAsRegex(source) || linearPatternProblem(source) === undefined, {
            error: (issue) =>
              `a pattern that runs in linear time (RE2 cannot run it: ${linearPatternProblem(String(issue.input)) ?? 'unsupported'}; rewrite it without lookarounds or backreferences)`,
          }),
        group: z
          .number({ error: 'a capture group number, at least 1' })
          .int({ error: 'a capture group number, at least 1' })
          .min(1, { error: 'a capture group number, at least 1' })
          .optional(),
      }),
      { error: 'a list of { type, regex, group? }' },
    )
    .default(() => [...defaults.redaction.patterns]),
});

export const AuxiliarySectionSchema = z.strictObject({
  compression: z
    .strictObject({
      model: text('a model name').optional(),
      provider: text('a provider name').default(defaults.auxiliary.compression.provider),
      base_url: z.url({ error: 'an http(s) URL' }).optional(),
      api_key_env: text('an environment variable name').optional(),
    })
    .prefault({}),
});

export const PromptCachingSectionSchema = z.strictObject({
  cache_ttl: z.enum(['5m', '1h'], { error: '"5m" or "1h"' }).default(defaults.promptCaching.cacheTtl),
});

export const ModelSectionSchema = z.strictObject({
  name: text('a model name').optional(),
  context_length: wholeNumberAtLeast(1, 'tokens').optional(),
});

export const ExperimentalSectionSchema = z.strictObject({
  aggressive_truncation: flag().default(defaults.experimental.aggressiveTruncation),
  // Accepted once, read by nothing: an error that says so, not a setting silently ignored.
  auto_resume: z
    .never({
      error:
        'no value: experimental.auto_resume is not a setting (recovery always re-sends the request; see the auto-compact README); remove the key',
    })
    .optional(),
});

export const FidelitySectionSchema = z.strictObject({
  probes: flag().default(defaults.fidelity.probes),
  repair_max_tokens: wholeNumberAtLeast(0, 'tokens').default(defaults.fidelity.repairMaxTokens),
  ledger: z
    .strictObject({
      enabled: flag().default(defaults.fidelity.ledger.enabled),
      max_tokens: wholeNumberAtLeast(100, 'tokens').default(defaults.fidelity.ledger.maxTokens),
    })
    .prefault({}),
  rehydration: z
    .strictObject({
      enabled: flag().default(defaults.fidelity.rehydration.enabled),
      max_tokens: wholeNumberAtLeast(0, 'tokens').default(defaults.fidelity.rehydration.maxTokens),
      max_files: wholeNumberAtLeast(0, 'files').default(defaults.fidelity.rehydration.maxFiles),
    })
    .prefault({}),
});

export const StoreSectionSchema = z.strictObject({
  kind: z
    .enum(['file', 'memory', 'postgres'], { error: '"file", "memory" or "postgres"' })
    .default(defaults.store.kind),
  path: text('a directory path').optional(),
  url: text('a connection URL').optional(),
  release_idle_after: z
    .number({ error: 'a number of seconds ≥ 0 (0: never)' })
    .min(0, { error: 'a number of seconds ≥ 0 (0: never)' })
    .optional(),
  release_on_session_idle: z.boolean({ error: 'true or false' }).optional(),
});

/**
 * Hook names as written: a built-in name or an alias passes; anything else is not an error
 * here but a warning with a suggestion (`resolveDisabledHooks`, when the files are loaded),
 * so one misspelt name does not fail the whole file. The enum is there for editors' completion.
 */
const DisabledHooksSchema = z
  .array(
    z.union(
      [z.enum([...BUILT_IN_HOOK_NAMES, ...Object.keys(HOOK_ALIASES)] as [string, ...string[]]), z.string().min(1)],
      { error: `a hook name, one of ${hookNameList}` },
    ),
    { error: 'a list of hook names' },
  )
  .default(() => [...defaults.disabledHooks]);

const PluginDirsSchema = z
  .array(text('a directory path'), { error: 'a list of directory paths' })
  .default(() => [...defaults.pluginDirs]);

/** Projects whose own config may load code (`plugin_dirs`, a plugin engine); read from the user config only. */
const TrustedProjectsSchema = z
  .array(text('a project folder (an absolute or ~/ path)'), { error: 'a list of project folders' })
  .default(() => [...defaults.trustedProjects]);

/** A hook section no package contributed: accepted as is (the hook validates it when it reads it). */
const UncheckedHookSectionSchema = z.record(z.string(), z.unknown(), { error: 'a mapping of keys' });

/** The `hooks` object: each contributed section strictly, uncontributed built-in names loosely, anything else an error. */
function createHooksSchema(sections: readonly ConfigSection[]) {
  const shape: Record<string, z.ZodType> = {};
  // A renamed hook's old section key is still accepted (its plugin reads it and warns).
  for (const name of [...BUILT_IN_HOOK_NAMES, ...Object.keys(HOOK_ALIASES)])
    shape[name] = UncheckedHookSectionSchema.optional();
  const seen = new Set<string>();
  for (const section of sections) {
    if (seen.has(section.key)) {
      throw new TypeError(
        `config section "${section.key}" is contributed twice; each hook contributes its section once`,
      );
    }
    seen.add(section.key);
    shape[section.key] = section.schema.prefault({});
  }
  return z.strictObject(shape) as unknown as z.ZodType<Record<string, Record<string, unknown>>>;
}

/** The file schema with the given hook sections composed under `hooks`. */
export function createConfigSchema(sections: readonly ConfigSection[] = []) {
  return z
    .strictObject({
      context: ContextSectionSchema.prefault({}),
      compression: CompressionSectionSchema.prefault({}),
      redaction: RedactionSectionSchema.prefault({}),
      auxiliary: AuxiliarySectionSchema.prefault({}),
      prompt_caching: PromptCachingSectionSchema.prefault({}),
      model: ModelSectionSchema.prefault({}),
      models: ModelsSectionSchema,
      disabled_hooks: DisabledHooksSchema,
      experimental: ExperimentalSectionSchema.prefault({}),
      fidelity: FidelitySectionSchema.prefault({}),
      plugin_dirs: PluginDirsSchema,
      trusted_projects: TrustedProjectsSchema,
      store: StoreSectionSchema.prefault({}),
      hooks: createHooksSchema(sections).prefault({}),
    })
    .prefault({});
}

/** Core's file schema, without any contributed hook section. */
export const ConfigFileSchema = createConfigSchema();

/** A parsed config file (snake_case, defaults applied). */
export type ConfigFile = z.output<typeof ConfigFileSchema>;
/** What may be written in a config file. */
export type ConfigFileInput = z.input<typeof ConfigFileSchema>;

/** Converts a parsed file to the camelCase `CtxhostConfig`; absent optional keys stay absent. */
export function toCtxhostConfig(file: ConfigFile): CtxhostConfig {
  return {
    context: { engine: file.context.engine },
    compression: {
      enabled: file.compression.enabled,
      threshold: file.compression.threshold,
      targetRatio: file.compression.target_ratio,
      protectLastN: file.compression.protect_last_n,
      summarizerCooldownCompactions: file.compression.summarizer_cooldown_compactions,
      summarizerCooldownMinutes: file.compression.summarizer_cooldown_minutes,
      background: file.compression.background,
      billPolicy: file.compression.bill_policy,
    },
    redaction: {
      enabled: file.redaction.enabled,
      disable: [...file.redaction.disable],
      patterns: file.redaction.patterns.map((pattern) =>
        withoutUndefined({ type: pattern.type, regex: pattern.regex, group: pattern.group }),
      ),
    },
    auxiliary: {
      compression: withoutUndefined({
        model: file.auxiliary.compression.model,
        provider: file.auxiliary.compression.provider,
        baseUrl: file.auxiliary.compression.base_url,
        apiKeyEnv: file.auxiliary.compression.api_key_env,
      }),
    },
    promptCaching: { cacheTtl: file.prompt_caching.cache_ttl },
    model: withoutUndefined({ name: file.model.name, contextLength: file.model.context_length }),
    models: toModelOverrides(file.models),
    disabledHooks: file.disabled_hooks.flatMap((name) => canonicalHookName(name) ?? []),
    experimental: { aggressiveTruncation: file.experimental.aggressive_truncation },
    fidelity: {
      probes: file.fidelity.probes,
      repairMaxTokens: file.fidelity.repair_max_tokens,
      ledger: { enabled: file.fidelity.ledger.enabled, maxTokens: file.fidelity.ledger.max_tokens },
      rehydration: {
        enabled: file.fidelity.rehydration.enabled,
        maxTokens: file.fidelity.rehydration.max_tokens,
        maxFiles: file.fidelity.rehydration.max_files,
      },
    },
    pluginDirs: [...file.plugin_dirs],
    trustedProjects: [...file.trusted_projects],
    store: withoutUndefined({
      kind: file.store.kind,
      path: file.store.path,
      url: file.store.url,
      releaseIdleAfterSeconds: file.store.release_idle_after,
      releaseOnSessionIdle: file.store.release_on_session_idle,
    }),
    hooks: { ...file.hooks },
  };
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
