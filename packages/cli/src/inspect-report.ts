import { promptTokens, type Message } from '@ctxhost/core';
import type { CostReport } from '@ctxhost/prompt-caching';
import type { Transcript, TranscriptBoundary } from '@ctxhost/transcripts';
import { buildDemoReport, type KindRow, type ToolOutputRow } from './demo-report.js';
import { priceByModel, type ModelCost, type ModelOverrides } from './pricing.js';

export type { ModelCost } from './pricing.js';

export interface UsageSummary {
  requests: number;
  /** The largest prompt (input + cache writes + cache reads) any request reported. */
  peakPromptTokens: number;
  /** The last request's prompt size. */
  lastPromptTokens: number;
  outputTokens: number;
  byModel: ModelCost[];
  /** Sum over the priced models. */
  dollars: number;
  withoutCaching: number;
}

export interface InspectReport {
  format: Transcript['format'];
  messages: number;
  roles: Record<Message['role'], number>;
  /** Malformed lines or events skipped (0 under --strict, which fails instead). */
  skipped: number;
  groups: KindRow[];
  total: Omit<KindRow, 'kind'>;
  largestToolOutputs: ToolOutputRow[];
  /** Present when the transcript carries API-reported usage (Claude Code). */
  usage: UsageSummary | null;
  /** The agent's own compactions: the model saw only what follows the last one. Empty when it never compacted. */
  boundaries: TranscriptBoundary[];
  /** Messages the agent's UI logged but never sent (local commands, their output, interruptions). */
  uiOnlyMessages: number;
  /**
   * Messages the agent sent again after its own compaction (pi keeps the newest ones and
   * resends them after the summary): the importer repeats them so a replay sees each
   * conversation as the model did; the counts, groups and tool outputs here take each once.
   */
  repeatedAfterCompaction: number;
  meta: Transcript['meta'];
}

export interface InspectOptions {
  /** Price every request as this model (default: each request's own model). */
  model?: string;
  /** The config's `models:` section: prices overridden or added, as `replay` applies them. */
  models?: ModelOverrides;
}

/** What `ctxhost inspect` reports about an imported transcript (tokens: core's estimator, through the demo's grouping). */
export function buildInspectReport(transcript: Transcript, options: InspectOptions = {}): InspectReport {
  const loggedIndices = transcript.messages.flatMap((message, index) =>
    message.meta?.keptFromCompaction === undefined ? [index] : [],
  );
  const logged = loggedIndices.map((index) => transcript.messages[index]!);
  const report = buildDemoReport(logged, 10);
  const roles = { system: 0, user: 0, assistant: 0, tool: 0 };
  for (const message of logged) roles[message.role] += 1;
  return {
    format: transcript.format,
    messages: logged.length,
    roles,
    skipped: transcript.skipped,
    groups: report.kinds,
    total: report.total,
    // Indices into the transcript's messages, as the boundaries' are.
    largestToolOutputs: report.largestToolOutputs.map((row) => ({
      ...row,
      messageIndex: loggedIndices[row.messageIndex]!,
    })),
    usage: transcript.usage === undefined || transcript.usage.length === 0 ? null : summarizeUsage(transcript, options),
    boundaries: transcript.boundaries ?? [],
    uiOnlyMessages: transcript.messages.filter((message) => message.meta?.uiOnly !== undefined).length,
    repeatedAfterCompaction: transcript.messages.length - logged.length,
    meta: transcript.meta,
  };
}

function summarizeUsage(transcript: Transcript, options: InspectOptions): UsageSummary {
  const entries = transcript.usage ?? [];
  const prompts = entries.map((entry) => promptTokens(entry.usage));
  const costs = priceByModel(
    entries.map((entry) => ({
      model: options.model ?? modelOf(transcript.messages[entry.replyIndex]),
      usage: entry.usage,
    })),
    options.models,
  );
  const priced = costs.filter((cost): cost is CostReport & { priced: true } => cost.priced);
  return {
    requests: entries.length,
    peakPromptTokens: Math.max(0, ...prompts),
    lastPromptTokens: prompts.at(-1) ?? 0,
    outputTokens: entries.reduce((total, entry) => total + entry.usage.outputTokens, 0),
    byModel: costs,
    dollars: priced.reduce((total, cost) => total + cost.dollars.total, 0),
    withoutCaching: priced.reduce((total, cost) => total + cost.withoutCaching, 0),
  };
}

/** The model the transcript says answered with this message (`unknown` when it does not say). */
export function modelOf(message: Message | undefined): string {
  const model = message?.meta?.['model'];
  return typeof model === 'string' ? model : 'unknown';
}
