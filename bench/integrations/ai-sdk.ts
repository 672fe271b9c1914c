/**
 * bench/recovery's overflows through `ai` + `@ai-sdk/anthropic` with the
 * middleware (and without it, for the baseline). `bench/integrations.ts` runs it.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, wrapLanguageModel, type LanguageModel, type ModelMessage } from 'ai';
import {
  BENCH_MODEL,
  BENCH_SYSTEM,
  benchConversation,
  recoveryRows,
  withBenchHost,
  type IntegrationRow,
  type NeutralMessage,
  type ScenarioRun,
} from '../integration-scenarios.js';
import type { BenchSize } from '../bench.js';
import { contextManagementMiddleware } from '@ctxhost/ai-sdk';

/** The bench conversation as AI SDK model messages (Mastra's agents take the same shape). */
export function toModelMessages(messages: NeutralMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') return { role: 'user', content: message.text };
    if (message.role === 'tool')
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.callId,
            toolName: message.name,
            output: { type: 'text', value: message.output },
          },
        ],
      };
    return {
      role: 'assistant',
      content: [
        { type: 'text', text: message.text },
        ...(message.call === undefined
          ? []
          : [
              {
                type: 'tool-call' as const,
                toolCallId: message.call.id,
                toolName: message.call.name,
                input: message.call.input,
              },
            ]),
      ],
    };
  });
}

async function send(run: ScenarioRun, withMiddleware: boolean, chat = false): Promise<string> {
  const base = chat
    ? createOpenAICompatible({ name: 'sim', baseURL: `${run.sim.url}/v1`, apiKey: 'bench' })('gpt-4o')
    : createAnthropic({ baseURL: `${run.sim.url}/v1`, apiKey: 'bench' })(BENCH_MODEL);
  return withBenchHost(async (host) => {
    const model: LanguageModel = withMiddleware
      ? wrapLanguageModel({ model: base, middleware: contextManagementMiddleware({ host, contextWindow: run.window }) })
      : base;
    const result = await generateText({
      model,
      system: BENCH_SYSTEM,
      messages: toModelMessages(benchConversation()),
      maxOutputTokens: 100,
      maxRetries: 0,
    });
    return result.text;
  });
}

export async function runAiSdkRecovery(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  return [
    ...(await recoveryRows({ without: 'ai-sdk, no middleware', with: 'ai-sdk + ctxhost' }, size, (run, withCtxhost) =>
      send(run, withCtxhost),
    )),
    ...(await recoveryRows({ with: 'ai-sdk openai-compatible + ctxhost' }, size, (run, withCtxhost) =>
      send(run, withCtxhost, true),
    )),
  ];
}
