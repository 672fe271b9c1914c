import { contextManagementMiddleware } from '@ctxhost/langchain';
import { startSimulator } from '@ctxhost/simulator';
import { ChatAnthropic } from '@langchain/anthropic';
import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createDefaultHost } from 'ctxhost';
import { createAgent } from 'langchain';
import { z } from 'zod';

/**
 * A LangChain v1 agent made context-safe: the middleware runs ctxhost's hooks on every model call
 * and recovers an overflow inside invoke(). Offline the simulator plays claude-sonnet-4-6 with a
 * 6,000-token window and ctxhost is told a far larger one, so the API's overflow and the recovery
 * show; with ANTHROPIC_API_KEY it runs against the real API.
 */
export async function main(log: (line: string) => void = console.log): Promise<number> {
  const simulator =
    process.env['ANTHROPIC_API_KEY'] === undefined
      ? await startSimulator({ contextLimit: 6_000, defaultToolUse: true })
      : undefined;
  const model = new ChatAnthropic({
    model: 'claude-sonnet-4-6',
    maxTokens: 300,
    ...(simulator === undefined ? {} : { apiKey: 'offline', anthropicApiUrl: simulator.url, maxRetries: 0 }),
  });
  const host = await createDefaultHost({
    config: { store: { kind: 'memory' }, hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0 } } },
    logger: { debug() {}, info() {}, warn: (line) => log(`warning: ${line}`), error: (line) => log(`error: ${line}`) },
  });
  host.hooks.toast.tapPromise('example', async (toast) => log(`[${toast.level}] ${toast.title}: ${toast.text}`));
  const readLog = tool(async ({ day }: { day: number }) => `2026-11-${day} build step ok\n`.repeat(150), {
    name: 'read_log',
    description: "Reads a day's build log",
    schema: z.object({ day: z.number() }),
  });

  // The three lines:
  const agent = createAgent({
    model,
    tools: [readLog],
    systemPrompt: 'You read build logs.',
    middleware: [contextManagementMiddleware({ host, contextWindow: simulator === undefined ? 200_000 : 1_000_000 })],
  });

  // Your conversation, as it was:
  let messages: BaseMessage[] = [];
  for (let turn = 1; turn <= 6; turn++) {
    const result = await agent.invoke({
      messages: [...messages, new HumanMessage(`Turn ${turn}: read the log of day ${turn} and tell me if it passed.`)],
    });
    messages = result.messages;
  }
  log(
    `6 turns answered; the agent's state holds ${messages.length} messages (ctxhost compacts what is sent, not the state)`,
  );
  await host.dispose();
  await simulator?.close();
  return messages.length;
}
