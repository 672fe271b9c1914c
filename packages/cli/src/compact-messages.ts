import {
  CORE_ERROR_CODES,
  CtxhostError,
  createMemoryStore,
  runCompaction,
  toAnthropic,
  type CompactionReport,
  type ContextEngineFactory,
  type CtxhostConfig,
  type HostLogger,
  type Message,
  type Summarizer,
  type ToAnthropicResult,
} from '@ctxhost/core';
import { createDefaultHost } from 'ctxhost';
import { CLI_ERROR_CODES, CliError } from './errors.js';

/** The window used when neither `--window` nor `model.context_length` gives one (Claude's 200k). */
export const DEFAULT_COMPACT_WINDOW = 200_000;

export interface CompactMessagesOptions {
  config: CtxhostConfig;
  /** Plugin folders are looked up from here. */
  cwd: string;
  /** `--window`: wins over `model.context_length`. */
  window?: number;
  /** `--engine`: wins over `context.engine`; an engine that is not found is a usage error. */
  engine?: string;
  /** `--project-plugins`: also look in `<cwd>/.ctxhost/plugins`. */
  projectPlugins?: boolean;
  /** The summarizer engines use (default: the one the config gives, else none: the compressor's summary is extractive). */
  summarizer?: Summarizer;
  /** Engines by name over the registered ones and plugin folders (`ctxhost eval`'s lcm and strategies). */
  engines?: Record<string, ContextEngineFactory>;
  /** Told the file a plugin engine is about to be imported from (the CLI prints it). */
  onPluginLoad?: (info: { name: string; file: string }) => void;
}

export interface CompactOutcome {
  engine: string;
  window: number;
  windowSource: 'flag' | 'config' | 'default';
  report: CompactionReport;
  /** The compacted conversation: what the model sees next. */
  messages: Message[];
  /** The compacted conversation as Anthropic Messages request params. */
  request: ToAnthropicResult;
  /** What the host warned about (a config-named engine that was not found, …). */
  warnings: string[];
}

/**
 * Runs the configured engine once over `messages`, offline: a default host
 * (every built-in hook, the compressor as fallback) on a memory store, with the
 * host's summarizer if the config gives one, else the compressor's extractive summary.
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactMessagesOptions,
): Promise<CompactOutcome> {
  const window = options.window ?? options.config.model.contextLength ?? DEFAULT_COMPACT_WINDOW;
  const windowSource =
    options.window !== undefined ? 'flag' : options.config.model.contextLength !== undefined ? 'config' : 'default';
  const engineName = options.engine ?? options.config.context.engine;
  const config: CtxhostConfig = {
    ...options.config,
    context: { engine: engineName },
    model: { ...options.config.model, contextLength: window },
    store: { kind: 'memory' },
  };
  const warnings: string[] = [];
  const host = await createDefaultHost({
    config,
    cwd: options.cwd,
    store: createMemoryStore(),
    logger: warningCollector(warnings),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
    ...(options.engines === undefined ? {} : { engines: options.engines }),
    ...(options.projectPlugins === undefined ? {} : { projectPlugins: options.projectPlugins }),
    ...(options.onPluginLoad === undefined ? {} : { onPluginLoad: options.onPluginLoad }),
  }).catch((error: unknown) => {
    if (
      options.engine !== undefined &&
      CtxhostError.isInstance(error) &&
      error.code === CORE_ERROR_CODES.engineNotFound
    )
      throw new CliError(CLI_ERROR_CODES.usage, `--engine ${options.engine}: ${error.message}`, { cause: error });
    throw error;
  });
  try {
    // Through core's runCompaction, so a plugin's `compaction.before` (instructions, veto) and the started/failed
    // events apply here too. The messages are passed as they are, not appended: appending would run the message hooks.
    const result = await runCompaction(host, await host.session('ctxhost-compact'), {
      reason: 'manual',
      contextWindow: window,
      messages,
    });
    if (result.status === 'vetoed')
      throw new CliError(CLI_ERROR_CODES.compactionFailed, `compaction vetoed by ${result.by}: ${result.why}`);
    if (result.status === 'failed') throw new CliError(CLI_ERROR_CODES.compactionFailed, result.error);
    if (result.status === 'no-window') throw new Error('compact: no context window (it is always given here)');
    return {
      engine: host.engine.name,
      window,
      windowSource,
      report: result.report,
      messages: result.messages,
      request: toAnthropic(result.messages),
      warnings,
    };
  } finally {
    await host.dispose();
  }
}

function warningCollector(warnings: string[]): HostLogger {
  const ignore = (): void => undefined;
  return {
    debug: ignore,
    info: ignore,
    warn: (message) => void warnings.push(message),
    error: (message) => void warnings.push(message),
  };
}
