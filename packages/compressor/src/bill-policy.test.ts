import { describe, expect, it } from 'vitest';
import {
  createBillPolicy,
  bestCycle,
  orderSize,
  summaryPassDollars,
  tokenPrices,
  type CompactionOption,
  type TokenPrices,
} from './bill-policy.js';

const MODEL = 'claude-sonnet-4-6';
const prices = (): TokenPrices => tokenPrices(MODEL)!;

/**
 * The bill of a cycle request by request, independently of the policy's closed forms: the pass, then
 * requests from the option's prompt up to `until`, each reading its prefix and writing what it adds
 * (the first writes the whole new prefix). Dollars per request.
 */
function simulatedPerRequest(option: CompactionOption, until: number, growth: number, price: TokenPrices): number {
  let dollars = option.passDollars;
  let requests = 0;
  for (let prefix = option.nextPromptTokens; prefix < until; prefix += growth) {
    dollars += requests === 0 ? prefix * price.cacheWrite : prefix * price.cacheRead;
    dollars += growth * price.cacheWrite;
    requests++;
  }
  return dollars / requests;
}

/** A session of `requests` requests growing by `growth` tokens each, seen by the policy. */
function grown(policy: ReturnType<typeof createBillPolicy>, sessionId: string, requests: number, growth: number) {
  for (let request = 0; request < requests; request++)
    policy.compactEarly({
      sessionId,
      promptTokens: 10_000 + request * growth,
      model: MODEL,
      thresholdTokens: 1e9,
      tailRatio: 0.2,
      summaryTokens: 4_000,
    });
}

describe('createBillPolicy', () => {
  const price = prices();
  const cases: { name: string; promptTokens: number; growth: number; options: CompactionOption[] }[] = [
    {
      name: 'large old tool outputs, slow growth: clearing them beats paying a summarizer',
      promptTokens: 100_000,
      growth: 500,
      options: [
        { mechanism: 'clear-tool-outputs', passDollars: 0, nextPromptTokens: 45_000 },
        { mechanism: 'summary', passDollars: summaryPassDollars(80_000, 4_000, price), nextPromptTokens: 24_000 },
      ],
    },
    {
      name: 'few tool outputs, fast growth: the summary’s much shorter prompt pays for its call',
      promptTokens: 100_000,
      growth: 6_000,
      options: [
        { mechanism: 'clear-tool-outputs', passDollars: 0, nextPromptTokens: 88_000 },
        { mechanism: 'summary', passDollars: summaryPassDollars(80_000, 4_000, price), nextPromptTokens: 24_000 },
      ],
    },
    {
      name: 'the provider’s pass reads the cached prompt: cheaper than a client summary to the same size',
      promptTokens: 100_000,
      growth: 3_000,
      options: [
        { mechanism: 'summary', passDollars: summaryPassDollars(80_000, 4_000, price), nextPromptTokens: 24_000 },
        {
          mechanism: 'native',
          passDollars: 100_000 * price.cacheRead + 4_000 * price.output,
          nextPromptTokens: 24_000,
        },
      ],
    },
  ];

  it.each(cases)('$name', ({ promptTokens, growth, options }) => {
    const policy = createBillPolicy();
    grown(policy, 's', 12, growth);
    const ranked = policy.rank('s', promptTokens, options)!;
    const bySimulation = [...options].sort(
      (left, right) =>
        simulatedPerRequest(left, promptTokens, growth, price) -
        simulatedPerRequest(right, promptTokens, growth, price),
    );
    expect(ranked.map((option) => option.mechanism)).toEqual(bySimulation.map((option) => option.mechanism));
  });

  it('compacts a long session early, at the size where a cycle costs least per request, and not before', () => {
    const growth = 2_000;
    // Kept: the first prompt (2,000, the head) and the summary (4,000); the tail a fifth of the size compacted at.
    const { size: best, after } = bestCycle(6_000, 0.2, growth, 4_000 * price.output, price);
    expect(best).toBeCloseTo(orderSize(after, growth, 4_000 * price.output, price), -1);
    const summary = (until: number): CompactionOption => ({
      mechanism: 'summary',
      passDollars: summaryPassDollars(until - after, 4_000, price),
      nextPromptTokens: after,
    });
    // The simulated bill per request is lower compacting at the chosen size than at a 100k line, or at half the size.
    expect(simulatedPerRequest(summary(best), best, growth, price)).toBeLessThan(
      simulatedPerRequest(summary(100_000), 100_000, growth, price),
    );
    expect(simulatedPerRequest(summary(best), best, growth, price)).toBeLessThan(
      simulatedPerRequest(summary(after + (best - after) / 2), after + (best - after) / 2, growth, price),
    );

    const policy = createBillPolicy();
    const decide = (sessionId: string, promptTokens: number, model = MODEL) =>
      policy.compactEarly({
        sessionId,
        promptTokens,
        model,
        thresholdTokens: 100_000,
        tailRatio: 0.2,
        summaryTokens: 4_000,
      });
    const decisions: boolean[] = [];
    for (let request = 0; request < 60; request++) decisions.push(decide('long', 2_000 + request * growth));
    const first = decisions.indexOf(true);
    expect(first).toBeGreaterThan(0);
    expect(2_000 + first * growth).toBeGreaterThanOrEqual(best);
    expect(2_000 + first * growth).toBeLessThan(best + growth);
  });

  it('does nothing without prices, for a short session, or past the configured line', () => {
    const policy = createBillPolicy();
    const ask = (sessionId: string, promptTokens: number, model: string) =>
      policy.compactEarly({
        sessionId,
        promptTokens,
        model,
        thresholdTokens: 100_000,
        tailRatio: 0.2,
        summaryTokens: 4_000,
      });
    const unpriced = Array.from({ length: 60 }, (_, request) =>
      ask('unpriced', 20_000 + request * 1_500, 'no-such-model'),
    );
    expect(unpriced).not.toContain(true);
    expect(policy.rank('unpriced', 90_000, cases[0]!.options)).toBeUndefined();
    const short = Array.from({ length: 5 }, (_, request) => ask('short', 70_000 + request * 5_000, MODEL));
    expect(short).not.toContain(true);
    expect(ask('short', 150_000, MODEL)).toBe(false);
  });
});
