/**
 * bench/recovery's overflows through a Mastra `Agent` (`generate()`), with and
 * without ctxhost's processor: `@ai-sdk/anthropic` on the simulator's Messages
 * endpoint, and Mastra's model router (`{ id: 'openai/gpt-4o', url }`) on its Chat
 * Completions endpoint. `bench/integrations.ts` runs it.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import {
  BENCH_MODEL,
  BENCH_SYSTEM,
  benchConversation,
  recoveryRows,
  withBenchHost,
  type IntegrationRow,
  type ScenarioRun,
} from '../integration-scenarios.js';
import type { BenchSize } from '../bench.js';
import { toModelMessages } from './ai-sdk.js';
import { createContextManagementProcessor } from '@ctxhost/mastra';

async function send(run: ScenarioRun, withCtxhost: boolean, router = false): Promise<string> {
  const model: MastraModelConfig = router
    ? { id: 'openai/gpt-4o', url: `${run.sim.url}/v1`, apiKey: 'bench' }
    : (createAnthropic({ baseURL: `${run.sim.url}/v1`, apiKey: 'bench' })(BENCH_MODEL) as unknown as MastraModelConfig);
  return withBenchHost(async (host) => {
    const ctxhost = createContextManagementProcessor({ host, contextWindow: run.window });
    const agent = new Agent({
      id: 'engineer',
      name: 'engineer',
      instructions: BENCH_SYSTEM,
      model,
      ...(withCtxhost ? { inputProcessors: [ctxhost], errorProcessors: [ctxhost], maxProcessorRetries: 3 } : {}),
    });
    agent.__setLogger(noopLogger);
    const result = await agent.generate(toModelMessages(benchConversation()), {
      modelSettings: { maxOutputTokens: 100, maxRetries: 0 },
    });
    if (result.error !== undefined) throw result.error;
    return result.text;
  });
}

export async function runMastraRecovery(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  return [
    ...(await recoveryRows(
      { without: 'mastra, no ctxhost', with: 'mastra + ctxhost processor' },
      size,
      (run, withCtxhost) => send(run, withCtxhost),
    )),
    ...(await recoveryRows(
      {
        without: 'mastra router (openai/gpt-4o, url), no ctxhost',
        with: 'mastra router (openai/gpt-4o, url) + ctxhost',
      },
      size,
      (run, withCtxhost) => send(run, withCtxhost, true),
    )),
  ];
}
