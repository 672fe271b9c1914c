import { getModelInfo, type ModelOverride } from '@ctxhost/core';

/** What a compaction can do: clear old tool outputs only, summarize (client), or the provider's own pass. */
export type CompactionMechanism = 'clear-tool-outputs' | 'summary' | 'native';

/** Dollars per token (not per million). */
export interface TokenPrices {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One way to compact now: what its pass costs and the prompt it leaves. */
export interface CompactionOption {
  mechanism: CompactionMechanism;
  /** The pass itself in dollars (the summarizer's call; 0 for clearing). */
  passDollars: number;
  /** The prompt the next request sends (tokens). */
  nextPromptTokens: number;
}

export interface PricedOption extends CompactionOption {
  /** Predicted dollars per request over the cycle it starts (see `cycleDollarsPerRequest`). */
  dollarsPerRequest: number;
}

export interface BillPolicyOptions {
  /** `models:` overrides for the registry's prices. */
  models?: Readonly<Record<string, ModelOverride>>;
  /** Sessions whose growth is remembered (least recently seen first out; stateless views come and go). Default 1,024. */
  maxSessions?: number;
}

/** What the policy knows of a session: its requests, recent growth, the size its last compaction left. */
interface SessionFacts {
  requests: number;
  promptTokens?: number;
  growths: number[];
  /** What the last compaction kept besides its tail (head and summary): its result less the tail's share of its size. */
  kept?: number;
  /** The session's first prompt: system prompt, tools and first exchange, which every compaction keeps. */
  firstPromptTokens?: number;
  model?: string;
}

export interface EarlyCompactionQuestion {
  sessionId: string;
  promptTokens: number;
  model?: string;
  /** The configured line (threshold × window): the policy only ever compacts earlier, never later. */
  thresholdTokens: number;
  /** The share of the size it compacts at that a compaction keeps as its tail (`compression.target_ratio`). */
  tailRatio: number;
  /** Output tokens of the summary. */
  summaryTokens: number;
}

export interface BillPolicy {
  /**
   * Called once per request: records the prompt's size, and says whether compacting now, under the
   * configured line, is predicted to cost less per request than waiting for the line (the dollar-chosen threshold).
   */
  compactEarly(question: EarlyCompactionQuestion): boolean;
  /** The options by predicted dollars per request, cheapest first; undefined when the model has no prices (the caller keeps its default). */
  rank(sessionId: string, promptTokens: number, options: readonly CompactionOption[]): PricedOption[] | undefined;
  /** The prices the policy uses for a session's model (undefined: not priced). */
  pricesOf(sessionId: string): TokenPrices | undefined;
  /** Records what a compaction left. */
  compacted(sessionId: string, sizes: { tokensBefore: number; tokensAfter: number; tailRatio: number }): void;
}

/** Growths remembered per session; their mean predicts the next. */
const GROWTHS_KEPT = 8;
/** Requests a session must have made before the policy compacts early (its growth and length say little before). */
const MIN_REQUESTS = 8;

/**
 * The compressor's bill policy (issue: a bill below the agent's own). Between two compactions a
 * session pays, per request, for reading its cached prefix, writing what it adds, and its share of
 * the compaction that started the cycle (the pass, then writing the new prefix once). Reading a long
 * prefix costs every request; a compaction costs once per cycle; so there is a prompt size at which
 * compacting is cheapest per request (the economic order quantity of the cycle):
 * `P* = S + √(2·g·(F + S·(write − read)) / read)` for a prefix of `S` tokens after the compaction, `g`
 * tokens added per request and `F` the pass's fixed part (writing the summary); `S` is itself the head
 * and summary plus a tail that is `target_ratio` of `P*` (`bestCycle`). Below the configured line the policy compacts at `P*` once the
 * session has run long enough that a whole cycle is likely to follow (a session that ran `n` requests
 * is expected to run about `n` more); the same per-request figure chooses among clearing old tool
 * outputs, a summary and the provider's own compaction. With no prices for the model it does nothing.
 */
export function createBillPolicy(options: BillPolicyOptions = {}): BillPolicy {
  const sessions = new Map<string, SessionFacts>();
  const maxSessions = options.maxSessions ?? 1_024;

  const factsOf = (sessionId: string): SessionFacts => {
    let facts = sessions.get(sessionId);
    if (facts === undefined) facts = { requests: 0, growths: [] };
    sessions.delete(sessionId);
    sessions.set(sessionId, facts);
    if (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value!);
    return facts;
  };
  const pricesOf = (sessionId: string) => tokenPrices(sessions.get(sessionId)?.model, options.models);

  return {
    pricesOf,
    compactEarly(question) {
      const facts = factsOf(question.sessionId);
      facts.requests++;
      if (question.model !== undefined) facts.model = question.model;
      if (facts.promptTokens !== undefined && question.promptTokens > facts.promptTokens) {
        facts.growths.push(question.promptTokens - facts.promptTokens);
        if (facts.growths.length > GROWTHS_KEPT) facts.growths.shift();
      }
      facts.promptTokens = question.promptTokens;
      facts.firstPromptTokens ??= question.promptTokens;
      const prices = pricesOf(question.sessionId);
      if (prices === undefined || facts.requests < MIN_REQUESTS || facts.growths.length === 0) return false;
      if (question.promptTokens >= question.thresholdTokens) return false;
      const growth = mean(facts.growths);
      // Head and summary: what the last compaction kept besides its tail, else the first prompt (the head) plus the summary.
      const kept = facts.kept ?? facts.firstPromptTokens + question.summaryTokens;
      // The summarizer reads the span (its share per request is the growth's input price, whatever the size): only writing the summary is fixed.
      const { size: best, after } = bestCycle(
        kept,
        question.tailRatio,
        growth,
        question.summaryTokens * prices.output,
        prices,
      );
      if (best >= question.thresholdTokens) return false;
      // A whole cycle from here must be likely: the requests it takes, against as many again as the session has made.
      const cycleRequests = (best - after) / growth;
      return question.promptTokens >= best && facts.requests >= cycleRequests;
    },
    rank(sessionId, promptTokens, candidates) {
      const prices = pricesOf(sessionId);
      if (prices === undefined) return undefined;
      const facts = sessions.get(sessionId);
      const growth = facts === undefined || facts.growths.length === 0 ? undefined : mean(facts.growths);
      return candidates
        .filter((option) => option.nextPromptTokens < promptTokens)
        .map((option) => ({
          ...option,
          dollarsPerRequest: cycleDollarsPerRequest(option, promptTokens, growth, prices),
        }))
        .sort((left, right) => left.dollarsPerRequest - right.dollarsPerRequest);
    },
    compacted(sessionId, sizes) {
      const facts = factsOf(sessionId);
      facts.kept = Math.max(0, sizes.tokensAfter - sizes.tailRatio * sizes.tokensBefore);
      facts.promptTokens = sizes.tokensAfter;
    },
  };
}

/**
 * Dollars per request of the cycle an option starts, if the next compaction comes back at
 * `promptTokens` (the size that called for this one): its pass and the rewrite of its prefix, spread
 * over the requests the cycle lasts, plus reading the mean prefix of the cycle on each. Without a
 * known growth the cycle is taken as one request (the pass counts whole).
 */
export function cycleDollarsPerRequest(
  option: CompactionOption,
  promptTokens: number,
  growth: number | undefined,
  prices: TokenPrices,
): number {
  const start = option.nextPromptTokens;
  const requests = growth === undefined || growth <= 0 ? 1 : Math.max(1, (promptTokens - start) / growth);
  const once = option.passDollars + start * (prices.cacheWrite - prices.cacheRead);
  return once / requests + ((start + promptTokens) / 2) * prices.cacheRead;
}

/**
 * The size to compact at and the prompt it leaves, together: a compaction at `P` keeps a tail of
 * `tailRatio × P` (the compressor's tail budget is that share of the size it compacts at) beside
 * `kept` (head and summary), so `S = kept + tailRatio × P` and `P = orderSize(S, …)`, solved by
 * iteration (a contraction: each step moves `P` by `tailRatio` of the last move at most, and less).
 */
export function bestCycle(
  kept: number,
  tailRatio: number,
  growth: number,
  fixedDollars: number,
  prices: TokenPrices,
): { size: number; after: number } {
  let size = orderSize(kept, growth, fixedDollars, prices);
  for (let step = 0; step < 20; step++) {
    const next = orderSize(kept + tailRatio * size, growth, fixedDollars, prices);
    if (Math.abs(next - size) < 1) break;
    size = next;
  }
  return { size, after: kept + tailRatio * size };
}

/**
 * The prompt size at which a compaction back to `after` tokens costs least per request: `fixedDollars`
 * is what its pass costs whatever the span (writing the summary; reading the span grows with it, so its
 * share per request does not depend on the size).
 */
export function orderSize(after: number, growth: number, fixedDollars: number, prices: TokenPrices): number {
  const once = fixedDollars + after * (prices.cacheWrite - prices.cacheRead);
  return after + Math.sqrt((2 * growth * once) / prices.cacheRead);
}

/** A summary's call: it reads the span (a prompt of its own, not cached) and writes the summary. */
export function summaryPassDollars(spanTokens: number, summaryTokens: number, prices: TokenPrices): number {
  return spanTokens * prices.input + summaryTokens * prices.output;
}

/** The registry's prices for a model in dollars per token, or undefined when it has none. */
export function tokenPrices(
  model: string | undefined,
  models?: Readonly<Record<string, ModelOverride>>,
): TokenPrices | undefined {
  if (model === undefined) return undefined;
  const pricing = getModelInfo(model, models)?.pricing;
  if (pricing?.input === undefined || pricing.output === undefined || pricing.input <= 0) return undefined;
  const perToken = (price: number) => price / 1_000_000;
  return {
    input: perToken(pricing.input),
    output: perToken(pricing.output),
    cacheRead: perToken(pricing.cacheRead ?? pricing.input),
    cacheWrite: perToken(pricing.cacheWrite ?? pricing.input),
  };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
