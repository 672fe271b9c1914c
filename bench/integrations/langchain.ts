/**
 * bench/recovery's overflows through a LangChain v1 agent (`createAgent` with
 * `ChatAnthropic` on the simulator's Messages endpoint, and `ChatOpenAI` on its
 * Chat Completions endpoint), with and without the middleware. `bench/integrations.ts` runs it.
 */
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, type AgentMiddleware } from 'langchain';
import { z } from 'zod';
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
import { contextManagementMiddleware } from '@ctxhost/langchain';

const readFile = tool(async ({ path }: { path: string }) => `contents of ${path}`, {
  name: 'read_file',
  description: 'Reads a file',
  schema: z.object({ path: z.string() }),
});

export function toMessages(messages: NeutralMessage[]): BaseMessage[] {
  return messages.map((message): BaseMessage => {
    if (message.role === 'user') return new HumanMessage(message.text);
    if (message.role === 'tool')
      return new ToolMessage({ content: message.output, tool_call_id: message.callId, name: message.name });
    return new AIMessage({
      content: message.text,
      tool_calls:
        message.call === undefined
          ? []
          : [{ id: message.call.id, name: message.call.name, args: message.call.input, type: 'tool_call' }],
    });
  });
}

async function send(run: ScenarioRun, withMiddleware: boolean, chat: boolean): Promise<string> {
  const model = chat
    ? new ChatOpenAI({
        model: 'gpt-4o',
        apiKey: 'bench',
        configuration: { baseURL: `${run.sim.url}/v1` },
        maxRetries: 0,
        maxTokens: 100,
      })
    : new ChatAnthropic({
        model: BENCH_MODEL,
        apiKey: 'bench',
        anthropicApiUrl: run.sim.url,
        maxRetries: 0,
        maxTokens: 100,
      });
  return withBenchHost(async (host) => {
    const middleware: AgentMiddleware[] = withMiddleware
      ? [contextManagementMiddleware({ host, contextWindow: run.window })]
      : [];
    const agent = createAgent({ model, tools: [readFile], systemPrompt: BENCH_SYSTEM, middleware });
    const result = await agent.invoke({ messages: toMessages(benchConversation()) });
    return result.messages.at(-1)?.text ?? '';
  });
}

export async function runLangchainRecovery(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  const rows: IntegrationRow[] = [];
  for (const chat of [false, true]) {
    const name = chat ? 'langchain ChatOpenAI' : 'langchain ChatAnthropic';
    rows.push(
      ...(await recoveryRows({ without: `${name}, no ctxhost`, with: `${name} + ctxhost` }, size, (run, withCtxhost) =>
        send(run, withCtxhost, chat),
      )),
    );
  }
  return rows;
}
