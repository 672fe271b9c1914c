import type { Usage } from '@ctxhost/core';
import type { RecordedRequest, WireUsage } from '@ctxhost/simulator';
import { priceRequests, type ModelOverrides } from '../pricing.js';

/** The header the replay's summarizer client sends, so its calls can be told from the agent's in the simulator's record. */
export const SUMMARIZER_CALLER_HEADER = 'x-ctxhost-caller';
export const SUMMARIZER_CALLER = 'summarizer';

/** What the summarizer's own model calls cost: compaction is not free, and engines differ in how often they pay it. */
export interface SummarizerCost {
  calls: number;
  promptTokens: number;
  outputTokens: number;
  dollars: number;
}

/** Prices the summarizer calls the simulator answered (calls that failed carry no usage and cost nothing). */
export function summarizerCost(
  requests: readonly RecordedRequest[],
  model: string,
  overrides?: ModelOverrides,
): SummarizerCost {
  const usages = requests.flatMap((request) =>
    request.headers[SUMMARIZER_CALLER_HEADER] === SUMMARIZER_CALLER && request.usage !== undefined
      ? [fromWire(request.usage)]
      : [],
  );
  const report = priceRequests(usages, model, overrides);
  const promptTokens = usages.reduce(
    (total, usage) => total + usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens,
    0,
  );
  const outputTokens = usages.reduce((total, usage) => total + usage.outputTokens, 0);
  return { calls: usages.length, promptTokens, outputTokens, dollars: report.priced ? report.dollars.total : 0 };
}

function fromWire(usage: WireUsage): Usage {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens,
    cacheReadInputTokens: usage.cache_read_input_tokens,
    cacheCreation: {
      ephemeral5mInputTokens: usage.cache_creation.ephemeral_5m_input_tokens,
      ephemeral1hInputTokens: usage.cache_creation.ephemeral_1h_input_tokens,
    },
  };
}
