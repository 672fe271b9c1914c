import type { CtxhostConfig } from './config-schema.js';

/**
 * Every default of ctxhost's own configuration, in one place. The file schema
 * (`config-file-schema.ts`) reads its defaults from here, and a test proves that
 * parsing an empty file yields exactly this object.
 */
export const DEFAULT_CONFIG: CtxhostConfig = {
  context: { engine: 'compressor' },
  compression: {
    enabled: true,
    threshold: 0.5,
    targetRatio: 0.2,
    protectLastN: 20,
    summarizerCooldownCompactions: 3,
    summarizerCooldownMinutes: 10,
    background: false,
    billPolicy: true,
  },
  redaction: { enabled: true, disable: [], patterns: [] },
  auxiliary: { compression: { provider: 'auto' } },
  promptCaching: { cacheTtl: '5m' },
  model: {},
  models: {},
  disabledHooks: [],
  experimental: { aggressiveTruncation: false },
  fidelity: {
    probes: true,
    repairMaxTokens: 1_500,
    ledger: { enabled: true, maxTokens: 2_000 },
    rehydration: { enabled: true, maxTokens: 6_000, maxFiles: 5 },
  },
  pluginDirs: [],
  trustedProjects: [],
  store: { kind: 'file' },
  hooks: {},
};

/** The bounds the file schema enforces, exported so docs and messages quote the same numbers. */
export const CONFIG_LIMITS = {
  targetRatio: { min: 0.1, max: 0.8 },
  protectLastN: { min: 1 },
} as const;
