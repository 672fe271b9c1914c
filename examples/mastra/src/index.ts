import { createAnthropic } from '@ai-sdk/anthropic';
import { createContextManagementProcessor } from '@ctxhost/mastra';
import { startSimulator } from '@ctxhost/simulator';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import { createDefaultHost } from 'ctxhost';

type Messages = Extract<Parameters<Agent['stream']>[0], unknown[]>;

/**
 * A Mastra agent's chat made context-safe by one processor: every model call's prompt goes
 * through ctxhost's hooks (compaction, cache breakpoints), an overflow is recovered inside the
 * call (Mastra retries the step for the processor), and the monitor's toasts come through the
 * host. Offline the simulator plays the API with a 4,000-token window, and ctxhost is told a far
 * larger one, so the API's overflow and the recovery show; with ANTHROPIC_API_KEY it runs against
 * the real API.
 */
export async function main(log: (line: string) => void = console.log): Promise<number> {
  const simulator =
    process.env['ANTHROPIC_API_KEY'] === undefined ? await startSimulator({ contextLimit: 4_000 }) : undefined;
  const anthropic = createAnthropic(
    simulator === undefined ? {} : { baseURL: `${simulator.url}/v1`, apiKey: 'offline' },
  );
  const host = await createDefaultHost({
    config: { store: { kind: 'memory' }, hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0 } } },
    logger: { debug() {}, info() {}, warn: (line) => log(`warning: ${line}`), error: (line) => log(`error: ${line}`) },
  });
  host.hooks.toast.tapPromise('example', async (toast) => log(`[${toast.level}] ${toast.title}: ${toast.text}`));
  host.hooks.compactionCompleted.tapPromise('example', async ({ report }) =>
    log(`compaction: ${report.tokensBefore} → ${report.tokensAfter} estimated tokens`),
  );

  // The three lines:
  const ctxhost = createContextManagementProcessor({
    host,
    contextWindow: simulator === undefined ? 200_000 : 1_000_000,
  });
  const agent = new Agent({
    id: 'log-reader',
    name: 'log reader',
    instructions: 'You read build logs.',
    // @ai-sdk/anthropic's LanguageModelV4 type is a newer patch than the one @mastra/core bundles: the same object at run time.
    model: anthropic('claude-sonnet-4-6') as unknown as MastraModelConfig,
    inputProcessors: [ctxhost],
    errorProcessors: [ctxhost],
    maxProcessorRetries: 3,
  });
  // Mastra logs every rejected model call as an error, the recovered one too.
  agent.__setLogger(noopLogger);

  // Your chat, as it was:
  const messages: Messages = [];
  for (let turn = 1; turn <= 8; turn++) {
    messages.push({
      role: 'user',
      content: `Turn ${turn}. Here is a long log to read:\n${'2026-11-22 build step ok\n'.repeat(60)}`,
    });
    const stream = await agent.stream(messages, { modelSettings: { maxOutputTokens: 200 } });
    messages.push({ role: 'assistant', content: await stream.text });
  }
  log(
    `8 turns answered; your history holds ${messages.length} messages (ctxhost compacts what is sent, not your list)`,
  );
  await host.dispose();
  await simulator?.close();
  return messages.length;
}
