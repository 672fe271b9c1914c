import { promptTokens, type Message, type Usage } from '@ctxhost/core';
import { sessionCost, type CostReport } from '@ctxhost/prompt-caching';
import type { Transcript } from '@ctxhost/transcripts';
import { buildDemoReport, type KindRow, type ToolOutputRow } from './demo-report.js';

/** The cost of one model's requests, or why it could not be priced. */
export type ModelCost = (CostReport & { priced: true }) | { priced: false; model: string; requests: number; reason: string };

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
  meta: Transcript['meta'];
}

/** What `ctxhost inspect` reports about an imported transcript (tokens: core's estimator, through the demo's grouping). */
export function buildInspectReport(transcript: Transcript): InspectReport {
  const report = buildDemoReport(transcript.messages, 10);
  const roles = { system: 0, user: 0, assistant: 0, tool: 0 };
  for (const message of transcript.messages) roles[message.role] += 1;
  return {
    format: transcript.format,
    messages: transcript.messages.length,
    roles,
    skipped: transcript.skipped,
    groups: report.kinds,
    total: report.total,
    largestToolOutputs: report.largestToolOutputs,
    usage: transcript.usage === undefined || transcript.usage.length === 0 ? null : summarizeUsage(transcript),
    meta: transcript.meta,
  };
}

function summarizeUsage(transcript: Transcript): UsageSummary {
  const entries = transcript.usage ?? [];
  const byModel = new Map<string, Usage[]>();
  for (const entry of entries) {
    const model = modelOf(transcript.messages[entry.replyIndex]);
    byModel.set(model, [...(byModel.get(model) ?? []), entry.usage]);
  }
  const prompts = entries.map((entry) => promptTokens(entry.usage));
  const costs = [...byModel].map(([model, usages]) => priceModel(model, usages));
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

function priceModel(model: string, usages: readonly Usage[]): ModelCost {
  try {
    return { ...sessionCost(usages, model), priced: true };
  } catch (error) {
    return { priced: false, model, requests: usages.length, reason: error instanceof Error ? error.message : String(error) };
  }
}

function modelOf(message: Message | undefined): string {
  const model = message?.meta?.['model'];
  return typeof model === 'string' ? model : 'unknown';
}
