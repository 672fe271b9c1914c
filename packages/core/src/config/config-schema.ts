import type { ModelOverride } from '../model-registry/model-info.js';

/** The `redaction` config section (camelCase side). */
export interface RedactionConfig {
  enabled: boolean;
  /** Built-in pattern types to leave out. */
  disable: string[];
  /** Extra patterns: a type (the placeholder label), a regex source, and optionally the capture group to redact. */
  patterns: { type: string; regex: string; group?: number }[];
}

/**
 * The shape of ctxhost's configuration as TypeScript sees it (camelCase).
 * The file on disk uses snake_case keys (`compression.target_ratio`); the
 * loader validates with zod and converts. Sections contributed by hook
 * packages live under `hooks` keyed by the hook's name.
 */
export interface CtxhostConfig {
  context: { engine: string };
  compression: {
    enabled: boolean;
    /** Fraction of the context window at which the engine compresses (default 0.50). */
    threshold: number;
    /** Tail budget as a fraction of the threshold tokens (default 0.20, 0.10–0.80). */
    targetRatio: number;
    /** Messages always kept at the end (default 20, ≥ 1). */
    protectLastN: number;
    /** After a summarizer failure, compactions that use the extractive summary before the summarizer is tried again (default 3). */
    summarizerCooldownCompactions: number;
    /** …or minutes, whichever ends first (default 10). */
    summarizerCooldownMinutes: number;
    /**
     * Prepare the next threshold compaction in the background once the session's growth says the
     * threshold is two requests away (`thresholdNear`), and swap it in when the threshold is reached
     * (default false: it hides the summarizer's latency, but the replayed long sessions cost 7–16% more
     * with it at 64k). A compaction needed with nothing prepared still runs before the request.
     */
    background: boolean;
    /**
     * Weigh dollars (default true; the compressor's `createBillPolicy`): compact under the threshold at the size
     * where a cycle of requests costs least per request, once the session has run long enough, and clear old tool
     * outputs alone when that is predicted cheaper than a summary. Needs the model's prices; false: the threshold alone.
     */
    billPolicy: boolean;
  };
  /** Secret redaction before anything reaches a summarizer and in every summary. */
  redaction: RedactionConfig;
  auxiliary: {
    /** The summary model (Hermes's `auxiliary.compression`): provider `auto` (the main model's), `anthropic`, or `openai` (any OpenAI-compatible `baseUrl`). */
    compression: { model?: string; provider: string; baseUrl?: string; apiKeyEnv?: string };
  };
  promptCaching: { cacheTtl: '5m' | '1h' };
  model: { name?: string; contextLength?: number };
  /** The `models:` section: registry entries overridden or added, by model name (see `getModelInfo`). */
  models: Record<string, ModelOverride>;
  disabledHooks: BuiltInHookName[];
  experimental: { aggressiveTruncation: boolean };
  /** What every compaction is checked and completed with: probes, the ledger, rehydration (see `reviewCompaction`). */
  fidelity: FidelityConfig;
  /** Folders searched for plugins (`context_engine/<name>/`): their code runs. Honoured from a project's own config only when the project is trusted. */
  pluginDirs: string[];
  /** Projects whose own config may load code; read from the user config only (see `loadConfig`). */
  trustedProjects: string[];
  store: {
    kind: 'file' | 'memory' | 'postgres';
    path?: string;
    url?: string;
    /** Seconds a session may sit unused before the host lets go of it (default SESSION_RELEASE_DEFAULTS.idleSeconds; 0: never). */
    releaseIdleAfterSeconds?: number;
    /** Also let go of a session when `session.idle` is emitted for it (default false). */
    releaseOnSessionIdle?: boolean;
  };
  /** Per-hook sections (`hooks.context-window-monitor.warn_at`…), validated by each hook package's own schema. */
  hooks: Record<string, Record<string, unknown>>;
}

/** The `fidelity` config section (camelCase side). */
export interface FidelityConfig {
  /** Probe every compaction against the span it replaces; add what the result missed beside the summary (default true). */
  probes: boolean;
  /** Tokens at most for the facts added beside a summary that missed them (default 1500). */
  repairMaxTokens: number;
  /** The ledger of files written, commands run, constraints and decisions, shown after every compaction. */
  ledger: { enabled: boolean; maxTokens: number };
  /** After a compaction, the files touched most recently (and the instruction files read) re-read from disk by the agent host. */
  rehydration: { enabled: boolean; maxTokens: number; maxFiles: number };
}

/** The built-in hooks' stable names, the values `disabled_hooks` accepts. */
export const BUILT_IN_HOOK_NAMES = [
  'context-window-monitor',
  'preemptive-compaction',
  'anthropic-auto-compact',
  'session-hygiene',
  'tool-output-truncator',
  'prompt-caching',
  'native-compaction',
] as const;
export type BuiltInHookName = (typeof BUILT_IN_HOOK_NAMES)[number];
