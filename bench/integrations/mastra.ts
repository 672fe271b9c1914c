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
import { createDefaultHost } from 'ctxhost';
import {
  BENCH_MODEL,
  BENCH_SYSTEM,
  benchConversation,
  measureConversation,
  overflowsFor,
  runScenario,
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
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  try {
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
  } finally {
    await host.dispose();
  }
}

export async function runMastraRecovery(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  const real = await measureConversation((scenario) => send(scenario, false));
  const routed = await measureConversation((scenario) => send(scenario, false, true));
  const rows: IntegrationRow[] = [];
  for (const overBy of overflowsFor(size)) {
    rows.push(await runScenario('mastra, no ctxhost', real, overBy, false, (scenario) => send(scenario, false)));
    rows.push(await runScenario('mastra + ctxhost processor', real, overBy, false, (scenario) => send(scenario, true)));
    rows.push(await runScenario('mastra + ctxhost processor', real, overBy, true, (scenario) => send(scenario, true)));
    rows.push(
      await runScenario('mastra router (openai/gpt-4o, url), no ctxhost', routed, overBy, false, (scenario) =>
        send(scenario, false, true),
      ),
    );
    rows.push(
      await runScenario('mastra router (openai/gpt-4o, url) + ctxhost', routed, overBy, false, (scenario) =>
        send(scenario, true, true),
      ),
    );
    rows.push(
      await runScenario('mastra router (openai/gpt-4o, url) + ctxhost', routed, overBy, true, (scenario) =>
        send(scenario, true, true),
      ),
    );
  }
  return rows;
}
