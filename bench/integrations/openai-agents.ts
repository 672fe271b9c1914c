/**
 * bench/recovery's overflows through the OpenAI Agents SDK's runner
 * (`OpenAIChatCompletionsModel` on the simulator's Chat Completions endpoint),
 * with and without ctxhost. `bench/integrations.ts` runs it.
 */
import {
  Agent,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
  type AgentInputItem,
  type Model,
} from '@openai/agents';
import { createDefaultHost } from 'ctxhost';
import OpenAI from 'openai';
import {
  BENCH_SYSTEM,
  benchConversation,
  measureConversation,
  overflowsFor,
  runScenario,
  type IntegrationRow,
  type NeutralMessage,
  type ScenarioRun,
} from '../integration-scenarios.js';
import type { BenchSize } from '../bench.js';
import { createContextManagement } from '@ctxhost/openai-agents';

const MODEL = 'gpt-4o';

function toItems(messages: NeutralMessage[]): AgentInputItem[] {
  return messages.flatMap((message): AgentInputItem[] => {
    if (message.role === 'user') return [{ role: 'user', content: message.text }];
    if (message.role === 'tool')
      return [
        {
          type: 'function_call_result',
          callId: message.callId,
          name: message.name,
          status: 'completed',
          output: { type: 'text', text: message.output },
        },
      ];
    return [
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: message.text }] },
      ...(message.call === undefined
        ? []
        : [
            {
              type: 'function_call' as const,
              callId: message.call.id,
              name: message.call.name,
              arguments: JSON.stringify(message.call.input),
              status: 'completed' as const,
            },
          ]),
    ];
  });
}

async function send(run_: ScenarioRun, withCtxhost: boolean): Promise<string> {
  const model: Model = new OpenAIChatCompletionsModel(
    new OpenAI({ apiKey: 'bench', baseURL: `${run_.sim.url}/v1`, maxRetries: 0 }),
    MODEL,
  );
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  try {
    const ctx = createContextManagement({ host, contextWindow: run_.window, model: MODEL });
    const agent = new Agent({
      name: 'engineer',
      instructions: BENCH_SYSTEM,
      model: withCtxhost ? ctx.wrapModel(model) : model,
      modelSettings: { maxTokens: 100 },
    });
    const result = await run(
      agent,
      toItems(benchConversation()),
      withCtxhost ? { callModelInputFilter: ctx.callModelInputFilter } : {},
    );
    return String(result.finalOutput ?? '');
  } finally {
    await host.dispose();
  }
}

export async function runOpenaiAgentsRecovery(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  setTracingDisabled(true);
  const real = await measureConversation((scenario) => send(scenario, false));
  const rows: IntegrationRow[] = [];
  for (const overBy of overflowsFor(size)) {
    rows.push(await runScenario('openai-agents, no ctxhost', real, overBy, false, (scenario) => send(scenario, false)));
    rows.push(await runScenario('openai-agents + ctxhost', real, overBy, false, (scenario) => send(scenario, true)));
    rows.push(await runScenario('openai-agents + ctxhost', real, overBy, true, (scenario) => send(scenario, true)));
  }
  return rows;
}
