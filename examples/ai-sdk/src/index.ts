import { createAnthropic } from '@ai-sdk/anthropic';
import { contextManagementMiddleware } from '@ctxhost/ai-sdk';
import { startSimulator } from '@ctxhost/simulator';
import { streamText, wrapLanguageModel, type ModelMessage } from 'ai';
import { createDefaultHost } from 'ctxhost';

/**
 * A Vercel AI SDK chat loop made context-safe by one middleware: the prompt goes through
 * ctxhost's hooks (compaction, cache breakpoints), an overflow is recovered inside the call,
 * and the monitor's toasts come through the host. Offline the simulator plays the API with a
 * 4,000-token window, and the middleware is told a far larger one, so the API's overflow and the
 * recovery show; with ANTHROPIC_API_KEY it runs against the real API.
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
  const model = wrapLanguageModel({
    model: anthropic('claude-sonnet-4-6'),
    middleware: contextManagementMiddleware({ host, contextWindow: simulator === undefined ? 200_000 : 1_000_000 }),
  });

  // Your loop, as it was:
  const messages: ModelMessage[] = [];
  for (let turn = 1; turn <= 8; turn++) {
    messages.push({
      role: 'user',
      content: `Turn ${turn}. Here is a long log to read:\n${'2026-11-22 build step ok\n'.repeat(60)}`,
    });
    const result = streamText({
      model,
      system: 'You read build logs.',
      messages,
      maxOutputTokens: 200,
    });
    messages.push(...(await result.response).messages);
  }
  log(
    `8 turns answered; your history holds ${messages.length} messages (ctxhost compacts what is sent, not your list)`,
  );
  await host.dispose();
  await simulator?.close();
  return messages.length;
}
