import type { SecretRedactor, TokenCounter } from '@ctxhost/core';
import type { CompactionIndex } from './compaction-index.js';
import type { CompactionTrigger } from './triggers.js';

/** What a strategy run can use and where it records what it did. */
export interface CompactionContext {
  counter: TokenCounter | undefined;
  signal: AbortSignal | undefined;
  /** Plan only: strategies that call a model use an estimate instead (see `dryRun`). */
  dryRun: boolean;
  /** Strategy names that changed something, in order. */
  steps: string[];
  /** Things the caller should know (a summarizer failure, a budget not reached). */
  notes: string[];
  /** Secret redaction for what a summarizer is sent and returns (the host config's `redaction` section through the plugin). */
  redactor?: SecretRedactor | undefined;
}

/**
 * A compaction strategy: marks groups of the index excluded and inserts
 * summary groups; never mutates messages. `compact` checks the strategy's own
 * trigger and returns true when it changed something.
 */
export interface CompactionStrategy {
  readonly name: string;
  readonly trigger: CompactionTrigger;
  compact(index: CompactionIndex, context: CompactionContext): Promise<boolean>;
}

/** Options every strategy that excludes groups accepts. */
export interface PreserveOptions {
  /** When the strategy runs. */
  trigger?: CompactionTrigger;
  /** When it stops; default: the trigger no longer fires. */
  target?: CompactionTrigger;
  /** The newest N included non-system groups are never excluded (at least 1 is always kept). */
  minimumPreserved?: number;
  /** Never exclude the first user message (the original goal). Default false. */
  pinFirstUserMessage?: boolean;
  /** Never exclude summary groups. Default false (summaries made in the same run are always kept). */
  pinSummaries?: boolean;
}

export function createContext(options: {
  counter?: TokenCounter | undefined;
  signal?: AbortSignal | undefined;
  dryRun?: boolean;
  redactor?: SecretRedactor | undefined;
}): CompactionContext {
  return {
    counter: options.counter,
    signal: options.signal,
    dryRun: options.dryRun ?? false,
    steps: [],
    notes: [],
    ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
  };
}
