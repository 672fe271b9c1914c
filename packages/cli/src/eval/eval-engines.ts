import {
  selectiveToolCall,
  slidingWindow,
  strategyEngineFactory,
  summarization,
  tokenBudget,
  toolResultCompaction,
  triggers,
  truncation,
  type CompactionStrategy,
  type StrategyBuildOptions,
} from '@ctxhost/compaction';
import type { ContextEngineFactory, CtxhostConfig, Summarizer } from '@ctxhost/core';
import { lcmEngineFactory } from '@ctxhost/engine-lcm';
import { CLI_ERROR_CODES, CliError } from '../errors.js';

/**
 * The Microsoft Agent Framework strategies of @ctxhost/compaction as engines, each
 * compacting to the same budget the compressor's tail gets (`threshold × target_ratio`
 * of the window), so their sizes compare.
 */
const STRATEGIES: Record<string, (options: StrategyBuildOptions) => CompactionStrategy> = {
  'maf-summarization': ({ summarizer, budget }) =>
    summarization({ summarizer: needSummarizer(summarizer), trigger: triggers.tokensExceed(budget) }),
  'maf-token-budget': ({ summarizer, budget }) =>
    tokenBudget({
      budget,
      strategies: [
        toolResultCompaction({ trigger: triggers.tokensExceed(budget) }),
        summarization({ summarizer: needSummarizer(summarizer), trigger: triggers.tokensExceed(budget) }),
        slidingWindow({ trigger: triggers.tokensExceed(budget) }),
      ],
    }),
  'maf-tool-results': ({ budget }) => toolResultCompaction({ trigger: triggers.tokensExceed(budget) }),
  'maf-selective-tool-call': ({ budget }) => selectiveToolCall({ trigger: triggers.tokensExceed(budget) }),
  'maf-sliding-window': ({ budget }) => slidingWindow({ trigger: triggers.tokensExceed(budget), minimumPreserved: 2 }),
  'maf-truncation': ({ budget }) => truncation({ trigger: triggers.tokensExceed(budget), minimumPreserved: 2 }),
};

/** The engines `ctxhost eval` compares when `--engine` is not given: every built-in one. */
export const EVAL_ENGINES: readonly string[] = ['compressor', 'lcm', ...Object.keys(STRATEGIES)];

/** A variant of an engine: `NAME/unchecked` runs it with the fidelity check and the ledger off (its own result as is). */
export const UNCHECKED_SUFFIX = '/unchecked';

/** The engines eval hands the host over the registered ones and plugin folders. */
export function evalEngineFactories(): Record<string, ContextEngineFactory> {
  const factories: Record<string, ContextEngineFactory> = { lcm: lcmEngineFactory };
  for (const [name, build] of Object.entries(STRATEGIES)) factories[name] = strategyEngineFactory(name, build);
  return factories;
}

export interface EvalEngineSpec {
  /** As given: `compressor`, `maf-truncation`, `compressor/unchecked`. */
  label: string;
  /** The engine the host runs. */
  engine: string;
  /** The loaded config as this engine runs with it (the unchecked variant's `fidelity` off). */
  configure(config: CtxhostConfig): CtxhostConfig;
}

/** `--engine a,b --engine c` → the specs, in order, each once. An empty name is a usage error. */
export function parseEngineSpecs(values: readonly string[] | undefined): EvalEngineSpec[] {
  const labels = (values ?? [...EVAL_ENGINES]).flatMap((value) => value.split(',')).map((label) => label.trim());
  const bad = labels.find((label) => label === '' || label === UNCHECKED_SUFFIX);
  if (bad !== undefined) throw new CliError(CLI_ERROR_CODES.usage, '--engine: an empty engine name');
  return [...new Set(labels)].map((label) => {
    const unchecked = label.endsWith(UNCHECKED_SUFFIX);
    const engine = unchecked ? label.slice(0, -UNCHECKED_SUFFIX.length) : label;
    return { label, engine, configure: unchecked ? withoutCheck : (config: CtxhostConfig) => config };
  });
}

function withoutCheck(config: CtxhostConfig): CtxhostConfig {
  return {
    ...config,
    fidelity: { ...config.fidelity, probes: false, ledger: { ...config.fidelity.ledger, enabled: false } },
  };
}

function needSummarizer(summarizer: Summarizer | undefined): Summarizer {
  if (summarizer === undefined) throw new Error('this strategy needs a summarizer (eval always passes one)');
  return summarizer;
}
