import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { createDefaultHost, withContextManagement } from 'ctxhost';

/**
 * An existing SDK loop, made safe with withContextManagement: caching, compaction before an
 * overflow, and recovery from an overflow error — the loop itself is unchanged.
 * Offline the simulator plays the API with a small 4,000-token window so the recovery shows.
 */
export async function main(log: (line: string) => void = console.log): Promise<number> {
  const simulator =
    process.env['ANTHROPIC_API_KEY'] === undefined ? await startSimulator({ contextLimit: 4_000 }) : undefined;
  const raw =
    simulator === undefined
      ? new Anthropic()
      : new Anthropic({ apiKey: 'offline', baseURL: simulator.url, maxRetries: 0 });

  // What ctxhost does, through the host's own hooks:
  const host = await createDefaultHost({
    config: { store: { kind: 'memory' }, hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0 } } },
  });
  host.hooks.toast.tapPromise('example', async (toast) => log(`[${toast.level}] ${toast.title}: ${toast.text}`));
  host.hooks.compactionCompleted.tapPromise('example', async ({ report }) =>
    log(`compacted (${report.reason}): ${report.tokensBefore} → ${report.tokensAfter} estimated tokens`),
  );

  // The three lines:
  const client = withContextManagement(raw, {
    host,
    contextWindow: simulator === undefined ? 200_000 : 1_000_000,
  });

  // Your loop, as it was:
  const messages: Anthropic.MessageParam[] = [];
  for (let turn = 1; turn <= 12; turn++) {
    messages.push({
      role: 'user',
      content: `Turn ${turn}. Here is a long log to read:\n${'2026-11-22 build step ok\n'.repeat(60)}`,
    });
    const reply = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 200, messages });
    messages.push({ role: 'assistant', content: reply.content });
  }
  log(
    `12 turns answered; the history holds ${messages.length} messages (the wrapper compacts what it sends, not your list)`,
  );
  await host.dispose();
  await simulator?.close();
  return messages.length;
}
