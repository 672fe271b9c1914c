import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, SUMMARY_HEADINGS, type Simulator } from '@ctxhost/simulator';
import { CtxhostError, fromOpenAI, getModelInfo, summarizerFromConfig, withDefaults, type Summarizer } from 'ctxhost';
import { createAnthropicSummarizer, summarizerFromConfig as anthropicSummarizerFromConfig } from '@ctxhost/anthropic';

// Hermes's auxiliary.compression: the summary model on another provider than the conversation's.
const simulators: Simulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});
async function simulator() {
  const sim = await startSimulator();
  simulators.push(sim);
  return sim;
}

async function summarize(summarizer: Summarizer) {
  return summarizer.summarize({
    instructions: `Summarize with these sections: ${SUMMARY_HEADINGS.map((heading) => `## ${heading}`).join('\n')}`,
    messages: fromOpenAI([{ role: 'user', content: 'Fix src/build.ts' }]),
    maxOutputTokens: 400,
  });
}

describe('summarizerFromConfig', () => {
  it('provider openai with a base_url and api_key_env: an Anthropic conversation summarized by an OpenAI-compatible endpoint', async () => {
    const [main, cheap] = [await simulator(), await simulator()];
    const config = withDefaults({
      auxiliary: {
        compression: { provider: 'openai', model: 'qwen3-coder', baseUrl: `${cheap.url}/v1`, apiKeyEnv: 'CHEAP_KEY' },
      },
    });
    const summarizer = summarizerFromConfig(
      config,
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-6',
        client: new Anthropic({ apiKey: 'main', baseURL: main.url }),
      },
      { CHEAP_KEY: 'sk-cheap' },
    );
    expect(await summarize(summarizer)).toContain('## Goal');
    expect(main.requests).toHaveLength(0);
    expect(cheap.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'qwen3-coder' } });
    expect(cheap.requests[0]!.headers['authorization']).toBe('Bearer sk-cheap');
  });

  it('provider anthropic with a base_url: an OpenAI conversation summarized by Claude', async () => {
    const summary = await simulator();
    const config = withDefaults({
      auxiliary: { compression: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: summary.url } },
    });
    const summarizer = summarizerFromConfig(
      config,
      { provider: 'openai', model: 'gpt-4o' },
      { ANTHROPIC_API_KEY: 'sk-ant' },
    );
    expect(await summarize(summarizer)).toContain('## Goal');
    expect(summary.requests[0]).toMatchObject({ path: '/v1/messages', body: { model: 'claude-haiku-4-5' } });
    const { authorization, 'x-api-key': apiKey } = summary.requests[0]!.headers;
    expect([authorization, apiKey]).toContainEqual(expect.stringContaining('sk-ant'));
  });

  it('provider auto reuses the main client and model', async () => {
    const main = await simulator();
    const client = new OpenAI({ apiKey: 'main', baseURL: `${main.url}/v1` });
    const summarizer = summarizerFromConfig(withDefaults({}), { provider: 'openai', model: 'gpt-4o-mini', client });
    expect(summarizer.name).toBe('openai:gpt-4o-mini');
    await summarize(summarizer);
    expect(main.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'gpt-4o-mini' } });
  });

  it("knows the summary model's window whenever it can, so the compressor chunks by default", () => {
    const client = new Anthropic({ apiKey: 'unused' });
    expect(createAnthropicSummarizer(client, { model: 'claude-haiku-4-5' }).maxInputTokens).toBe(
      getModelInfo('claude-haiku-4-5')?.contextWindow,
    );
    expect(createAnthropicSummarizer(client, { model: 'claude-haiku-4-5' }).maxInputTokens).toBeGreaterThan(0);
    expect(
      anthropicSummarizerFromConfig(withDefaults({ model: { contextLength: 64_000 } }), {
        client,
        model: 'claude-sonnet-4-6',
      }).maxInputTokens,
    ).toBe(64_000);
    expect(createAnthropicSummarizer(client, { model: 'some-unknown-model' }).maxInputTokens).toBeUndefined();
  });

  it('says which key is missing when a hosted provider has none', () => {
    const config = withDefaults({
      auxiliary: { compression: { provider: 'openrouter', model: 'deepseek/deepseek-chat' } },
    });
    const attempt = () => summarizerFromConfig(config, { provider: 'anthropic', model: 'claude-sonnet-4-6' }, {});
    expect(attempt).toThrow(CtxhostError);
    expect(attempt).toThrow(/\$OPENROUTER_API_KEY/);
  });
});
