import type { CompressResult } from '../engines/context-engine.js';
import { ADDENDUM, reviewCompaction, type ReviewedCompaction } from '../fidelity/review-compaction.js';
import { rehydrationPaths, renderRehydrated } from '../fidelity/rehydration.js';
import type { FidelityConfig } from '../config/config-schema.js';
import type { LedgerFolded } from '../fidelity/ledger.js';
import type { CompactionReport } from '../model/compaction-report.js';
import type { Message } from '../model/message.js';
import type { Host } from './host.js';

export interface CompleteOptions {
  sessionId: string;
  /** The window compacted for: the ledger, the added facts and the re-read files each take a bounded share of it. */
  contextWindow: number;
  /** A recovery's size to reach: re-read files never push the result past it. */
  targetTokens?: number;
  signal?: AbortSignal;
}

/**
 * What every compaction the host runs goes through before it is used: the
 * probes check and the ledger (`reviewCompaction`), then rehydration (the
 * agent host re-reads the files the span touched, through the `rehydrate`
 * hook). ctxhost's own trouble here never costs the compaction: on an error
 * the engine's result is used as it came, with a note.
 */
export async function completeCompaction(
  host: Host,
  before: readonly Message[],
  result: CompressResult,
  options: CompleteOptions,
): Promise<CompressResult> {
  const config = withinWindow(host.config.fidelity, options.contextWindow);
  const countText = (text: string) => host.counter.countText(text);
  let reviewed: ReviewedCompaction;
  try {
    reviewed = reviewCompaction(before, result.messages, { fidelity: config, countText });
  } catch (error) {
    return withNote(result, `fidelity check failed and was skipped: ${describe(error)}`);
  }
  const messages = reviewed.messages;
  const report: CompactionReport = {
    ...result.report,
    fidelity: reviewed.fidelity,
    ...(reviewed.ledger === undefined
      ? {}
      : {
          ledger: {
            entries: reviewed.ledger.entries.length,
            folded: foldedCount(reviewed.ledger.folded),
            tokens: reviewed.ledger.tokens,
          },
        }),
    ...(reviewed.notes.length === 0 ? {} : { notes: [...(result.report.notes ?? []), ...reviewed.notes] }),
  };
  const rehydration = config.rehydration;
  if (rehydration.enabled && reviewed.carrier !== undefined && host.hooks.rehydrate.isUsed()) {
    const tokensNow = host.counter.countAll(messages);
    const budget = Math.min(
      rehydration.maxTokens,
      options.targetTokens === undefined ? Infinity : options.targetTokens - tokensNow,
      // Never give back more than half of what the compaction saved.
      Math.floor((result.report.tokensBefore - tokensNow) / 2),
    );
    const paths = rehydrationPaths(reviewed.dropped, reviewed.ledger, rehydration.maxFiles);
    if (budget > 0 && paths.length > 0) {
      try {
        const files = await host.hooks.rehydrate.promise({
          sessionId: options.sessionId,
          paths,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
        const block = renderRehydrated(files ?? [], budget, countText);
        if (block.text.length > 0) {
          const carrier = messages[reviewed.carrier]!;
          messages[reviewed.carrier] = {
            ...carrier,
            parts: [...carrier.parts, { id: carrier.id + ADDENDUM.files, type: 'text', text: block.text }],
          };
          report.rehydrated = { files: block.files, tokens: countText(block.text), skipped: block.skipped };
        }
      } catch (error) {
        report.notes = [...(report.notes ?? []), `rehydration failed and was skipped: ${describe(error)}`];
      }
    }
  }
  // What ctxhost added beside the engine's result, on the engine's own count (its tokensBefore is on that basis).
  report.tokensAfter =
    result.report.tokensAfter + host.counter.countAll(messages) - host.counter.countAll(result.messages);
  report.messagesAfter = messages.length;
  return { messages, report };
}

/** Shares of the window at most: the ledger 5%, the added facts 5%, re-read files 10% (a small window is not filled with them). */
function withinWindow(config: FidelityConfig, contextWindow: number): FidelityConfig {
  const share = (tokens: number, fraction: number, floor: number) =>
    Math.min(tokens, Math.max(floor, Math.floor(contextWindow * fraction)));
  return {
    ...config,
    repairMaxTokens: share(config.repairMaxTokens, 0.05, 0),
    ledger: { ...config.ledger, maxTokens: share(config.ledger.maxTokens, 0.05, 100) },
    rehydration: { ...config.rehydration, maxTokens: share(config.rehydration.maxTokens, 0.1, 0) },
  };
}

function foldedCount(folded: LedgerFolded): number {
  return folded.file + folded.command + folded.constraint + folded.decision;
}

function withNote(result: CompressResult, note: string): CompressResult {
  return { ...result, report: { ...result.report, notes: [...(result.report.notes ?? []), note] } };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
