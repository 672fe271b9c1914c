import { z } from 'zod';
import { SIMULATOR_ERROR_CODES, SimulatorError } from '../errors.js';
import { FAULT_KINDS, type RandomFaults } from './fault-kinds.js';
import type { SimulatorFeature } from '../features/features.js';
import type { ScriptedTurn } from '../responders/scripted.js';
import type { MessagesRequest } from '../wire/wire.js';
import {
  ANTHROPIC_OVERFLOW_STYLES,
  CHAT_OVERFLOW_STYLES,
  type ModelLimits,
  type OverflowStyle,
} from '../wire/model-limits.js';

const OVERFLOW_STYLES = [...ANTHROPIC_OVERFLOW_STYLES, ...CHAT_OVERFLOW_STYLES] as const;

/** The defaults of every data option, in one place (README: Options). */
export const SIMULATOR_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  contextLimit: 200_000,
  overflowStyle: 'prompt_too_long' as OverflowStyle,
  minCacheableTokens: 1024,
  models: {} as Record<string, ModelLimits>,
  maxBodyBytes: 32 * 1024 * 1024,
  /** A client has this long to send its request headers, and this long for the whole request with its body. */
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  defaultToolUse: false,
  acceptAnyModel: false,
};

const positive = z.number().int().positive();
const ModelLimitsSchema = z.strictObject({
  contextLimit: positive.optional(),
  overflowStyle: z.enum(OVERFLOW_STYLES).optional(),
  minCacheableTokens: z.number().int().nonnegative().optional(),
});

/** The options' data part, strict: a misspelt key is an error. Functions and turns are checked by shape only. */
export const SimulatorOptionsSchema = z
  .strictObject({
    port: z.number().int().min(0).max(65_535).default(SIMULATOR_DEFAULTS.port),
    host: z.string().min(1).default(SIMULATOR_DEFAULTS.host),
    contextLimit: positive.default(SIMULATOR_DEFAULTS.contextLimit),
    overflowStyle: z.enum(OVERFLOW_STYLES).default(SIMULATOR_DEFAULTS.overflowStyle),
    minCacheableTokens: z.number().int().nonnegative().default(SIMULATOR_DEFAULTS.minCacheableTokens),
    models: z.record(z.string(), ModelLimitsSchema).default(() => ({})),
    maxBodyBytes: positive.default(SIMULATOR_DEFAULTS.maxBodyBytes),
    defaultToolUse: z.boolean().default(SIMULATOR_DEFAULTS.defaultToolUse),
    maxRecordedRequests: positive.optional(),
    maxRecordedBytes: positive.optional(),
    headersTimeoutMs: positive.default(SIMULATOR_DEFAULTS.headersTimeoutMs),
    requestTimeoutMs: positive.default(SIMULATOR_DEFAULTS.requestTimeoutMs),
    acceptAnyModel: z.boolean().default(SIMULATOR_DEFAULTS.acceptAnyModel),
    replay: z
      .array(
        z.custom<ScriptedTurn | ScriptedTurn['content']>(
          (turn) =>
            typeof turn === 'string' ||
            Array.isArray(turn) ||
            (typeof turn === 'object' && turn !== null && 'content' in turn),
        ),
      )
      .optional(),
    faults: z
      .strictObject({
        probability: z.number().min(0).max(1),
        seed: z.number().int(),
        kinds: z.array(z.enum(FAULT_KINDS)).min(1).optional(),
      })
      .optional(),
    now: z.custom<() => number>((value) => typeof value === 'function').optional(),
    warmCache: z.custom<WarmCache>((value) => typeof value === 'function').optional(),
    features: z
      .array(z.custom<SimulatorFeature>((value) => typeof value === 'object' && value !== null && 'name' in value))
      .optional(),
  })
  .prefault({});

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Default context limit for every model (200,000). */
  contextLimit?: number;
  overflowStyle?: OverflowStyle;
  minCacheableTokens?: number;
  /** Per-model overrides, by exact model name. */
  models?: Record<string, ModelLimits>;
  /** Bodies over this many bytes get 413 request_too_large (32 MB). */
  maxBodyBytes?: number;
  /** With nothing scripted and tools offered, call the first tool once before answering in text. */
  defaultToolUse?: boolean;
  /** Keep only the newest this many requests in `requests` (default: all; the `ctxhost-simulator` bin keeps 1,000, so a long-running one does not grow without end). */
  maxRecordedRequests?: number;
  /** Keep recorded requests only while their bodies total at most this many bytes (the oldest go first; default all). */
  maxRecordedBytes?: number;
  /** Milliseconds a client has to send its headers (default 10,000) and its whole request (default 60,000): a slow client is cut off, not waited for. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Answer any model name. Default false: as the API does, a model it does not serve (not an Anthropic model of core's registry, nor in `models`) gets a 404. */
  acceptAnyModel?: boolean;
  /** Assistant turns answered in order (a transcript's): turns, or bare content-block arrays. */
  replay?: (ScriptedTurn | ScriptedTurn['content'])[];
  /** Random faults with a seed. */
  faults?: RandomFaults;
  /** The clock of the prompt cache (tests move it to expire entries). */
  now?: () => number;
  /** Asked before each Messages request is cached: how many tokens of its prefix a cache warmed before this simulator started holds (see `WarmCache`). */
  warmCache?: WarmCache;
  /** Server-side behaviours switched on by beta headers (see features.ts); default `builtInFeatures()` (context editing, server compaction). */
  features?: SimulatorFeature[];
}

/**
 * Tokens of a Messages request's prefix that were already cached when it arrived, though no
 * request to this simulator wrote them (0: none): a replay starting with the cache its recording
 * shows. The prefix through the last block ending within them is cached before the request is
 * priced, so the request reads it instead of writing it.
 */
export type WarmCache = (request: MessagesRequest) => number;

export type ResolvedOptions = z.output<typeof SimulatorOptionsSchema>;

/** Checks and completes the options; every problem is reported at once. */
export function resolveOptions(options: SimulatorOptions | undefined): ResolvedOptions {
  const parsed = SimulatorOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(options)'}: ${issue.message}`);
  throw new SimulatorError(
    SIMULATOR_ERROR_CODES.optionsInvalid,
    `startSimulator: invalid options — ${problems.join('; ')}. See the @ctxhost/simulator README (Options).`,
    { cause: parsed.error },
  );
}

/** The limits that apply to one model: its own entry, else the defaults. */
export function limitsFor(options: ResolvedOptions, model: string): Required<ModelLimits> {
  const own = options.models[model] ?? {};
  return {
    contextLimit: own.contextLimit ?? options.contextLimit,
    overflowStyle: own.overflowStyle ?? options.overflowStyle,
    minCacheableTokens: own.minCacheableTokens ?? options.minCacheableTokens,
  };
}
