import { createContextManagement } from '@ctxhost/openai-agents';
import { startSimulator } from '@ctxhost/simulator';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, type AgentInputItem } from '@openai/agents';
import { createDefaultHost } from 'ctxhost';
import OpenAI from 'openai';

/**
 * An OpenAI Agents SDK conversation made context-safe: the input filter runs ctxhost's hooks before
 * each model call, the wrapped model recovers an overflow inside run(). Offline the simulator plays
 * gpt-4o on its Chat Completions endpoint with a 4,000-token window, and ctxhost is told a far larger
 * one, so the API's overflow and the recovery show; with OPENAI_API_KEY it runs against the real API.
 */
export async function main(log: (line: string) => void = console.log): Promise<number> {
  setTracingDisabled(true);
  const simulator =
    process.env['OPENAI_API_KEY'] === undefined
      ? await startSimulator({ models: { 'gpt-4o': { contextLimit: 4_000 } } })
      : undefined;
  const client =
    simulator === undefined
      ? new OpenAI()
      : new OpenAI({ apiKey: 'offline', baseURL: `${simulator.url}/v1`, maxRetries: 0 });
  const host = await createDefaultHost({
    config: { store: { kind: 'memory' }, hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0 } } },
    logger: { debug() {}, info() {}, warn: (line) => log(`warning: ${line}`), error: (line) => log(`error: ${line}`) },
  });
  host.hooks.toast.tapPromise('example', async (toast) => log(`[${toast.level}] ${toast.title}: ${toast.text}`));

  // The three lines:
  const ctx = createContextManagement({
    host,
    contextWindow: simulator === undefined ? 128_000 : 1_000_000,
    model: 'gpt-4o',
  });
  const agent = new Agent({
    name: 'log reader',
    instructions: 'You read build logs.',
    model: ctx.wrapModel(new OpenAIChatCompletionsModel(client, 'gpt-4o')),
    modelSettings: { maxTokens: 200 },
  });

  // Your conversation, as it was:
  let history: AgentInputItem[] = [];
  for (let turn = 1; turn <= 8; turn++) {
    const result = await run(
      agent,
      [
        ...history,
        {
          role: 'user',
          content: `Turn ${turn}. Here is a long log to read:\n${'2026-11-22 build step ok\n'.repeat(60)}`,
        },
      ],
      { callModelInputFilter: ctx.callModelInputFilter },
    );
    history = result.history;
  }
  log(`8 turns answered; your history holds ${history.length} items (ctxhost compacts what is sent, not your list)`);
  await host.dispose();
  await simulator?.close();
  return history.length;
}
