import type { RecordedRequest } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { SUMMARIZER_CALLER, SUMMARIZER_CALLER_HEADER, summarizerCost } from './summarizer-cost.js';

const usage = (input: number, output: number, cacheRead = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: cacheRead,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
});
const request = (caller: string | undefined, wire: ReturnType<typeof usage> | undefined): RecordedRequest => ({
  requestId: 'req',
  method: 'POST',
  path: '/v1/messages',
  headers: caller === undefined ? {} : { [SUMMARIZER_CALLER_HEADER]: caller },
  betas: [],
  body: {},
  status: wire === undefined ? 400 : 200,
  stream: false,
  rejectedForShape: false,
  ...(wire === undefined ? {} : { usage: wire }),
});

describe('summarizerCost', () => {
  it('prices only the summarizer’s answered calls, at the model’s prices', () => {
    const requests = [
      request(SUMMARIZER_CALLER, usage(10_000, 2_000)),
      request(undefined, usage(50_000, 1_000)),
      request(SUMMARIZER_CALLER, undefined),
      request(SUMMARIZER_CALLER, usage(4_000, 1_000, 6_000)),
    ];
    // claude-sonnet-4-6: $3 / MTok input, $15 / MTok output, cache reads at 0.1×.
    expect(summarizerCost(requests, 'claude-sonnet-4-6')).toEqual({
      calls: 2,
      promptTokens: 20_000,
      outputTokens: 3_000,
      dollars: expect.closeTo((14_000 * 3 + 6_000 * 0.3 + 3_000 * 15) / 1e6, 10),
    });
  });

  it('is zero when nothing was summarized', () => {
    expect(summarizerCost([request(undefined, usage(1_000, 10))], 'claude-sonnet-4-6')).toEqual({
      calls: 0,
      promptTokens: 0,
      outputTokens: 0,
      dollars: 0,
    });
  });
});
