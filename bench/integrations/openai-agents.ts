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
import OpenAI from 'openai';
import {
  BENCH_SYSTEM,
  benchConversation,
  recoveryRows,
  withBenchHost,
  type IntegrationRow,
  type NeutralMessage,
  type ScenarioRun,
} from '../integration-scenarios.js';
import type { BenchSize } from '../bench.js';
import { createContextManagement } from '@ctxhost/openai-agents';

const MODEL = 'gpt-4o';

export function toItems(messages: NeutralMessage[]): AgentInputItem[] {
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
  return withBenchHost(async (host) => {
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
  });
}

export async function runOpenaiAgentsRecovery(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  setTracingDisabled(true);
  return recoveryRows({ without: 'openai-agents, no ctxhost', with: 'openai-agents + ctxhost' }, size, send);
}
