/**
 * For overflows of 1%, 50% and 300%, the model calls and the
 * time until the session answers again, with the planned cascade beside the
 * walk of oh-my-opencode's recovery order (`plan: false`). Backoff delays are set to 0 so
 * the time is the work, not the waiting.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/recovery.ts
 */
import Anthropic from '@anthropic-ai/sdk';
import { pathToFileURL } from 'node:url';
import { createAgent, createAnthropicModel, toParams } from '@ctxhost/anthropic';
import { createAutoCompactPlugin } from '@ctxhost/auto-compact';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, type Message } from '@ctxhost/core';
import { startSimulator } from '@ctxhost/simulator';
import type { BenchSize } from './bench.js';

export interface RecoveryRow {
  overflow: string;
  cascade: string;
  modelCalls: number;
  ms: number;
  recovered: boolean;
  steps: string;
}

const MODEL = 'claude-sonnet-4-6';

function conversation(): Message[] {
  let n = 0;
  const id = () => `r${++n}`;
  const messages: Message[] = [
    { id: id(), role: 'system', parts: [{ id: id(), type: 'text', text: 'You are a careful engineer.' }] },
    { id: id(), role: 'user', parts: [{ id: id(), type: 'text', text: 'Investigate the failing build.' }] },
  ];
  for (let index = 0; index < 10; index++) {
    const callId = `toolu_${index}`;
    messages.push({
      id: id(),
      role: 'assistant',
      parts: [
        { id: id(), type: 'text', text: `Reading part ${index}. ${'reasoning about the build '.repeat(30)}` },
        { id: id(), type: 'tool-call', callId, name: 'read_file', input: { path: `src/file${index}.ts` } },
      ],
    });
    messages.push({
      id: id(),
      role: 'tool',
      parts: [{ id: id(), type: 'tool-result', callId, output: `source line ${index}\n`.repeat(60 + index * 40) }],
    });
  }
  messages.push(
    { id: id(), role: 'assistant', parts: [{ id: id(), type: 'text', text: 'Read everything.' }] },
    { id: id(), role: 'user', parts: [{ id: id(), type: 'text', text: 'What failed?' }] },
  );
  return messages;
}

async function measure(overBy: number, plan: boolean): Promise<RecoveryRow> {
  const messages = conversation();
  const probe = await startSimulator();
  const real = (
    await new Anthropic({ apiKey: 't', baseURL: probe.url }).messages.countTokens(
      toParams({ sessionId: 'p', model: MODEL, messages, maxTokens: 100 }),
    )
  ).input_tokens;
  await probe.close();
  const sim = await startSimulator({ contextLimit: Math.floor(real / (1 + overBy)) });
  const host = createHost({
    config: { hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0, plan } } },
    enginePlugin: false,
    fallbackEngine: { name: 'compressor', factory: compressorEngineFactory },
    plugins: [createAutoCompactPlugin()],
  });
  const toasts: string[] = [];
  host.hooks.toast.tapPromise('bench', async (toast) => {
    toasts.push(`${toast.title}: ${toast.text}`);
  });
  const agent = createAgent({
    host,
    model: createAnthropicModel(new Anthropic({ apiKey: 't', baseURL: sim.url, maxRetries: 0 }), { model: MODEL }),
    maxTokens: 100,
  });
  const session = await host.session('bench');
  for (const message of messages) await session.append(message);
  const started = performance.now();
  await agent.retry('bench');
  const ms = performance.now() - started;
  const recovered = (await host.session('bench')).messages().at(-1)?.role === 'assistant';
  const calls = sim.requests.filter((request) => request.path === '/v1/messages').length;
  await sim.close();
  await host.dispose();
  const steps =
    /after (.*?)[;(]/.exec(
      toasts.find((toast) => toast.startsWith('Session recovered') || toast.startsWith('Manual')) ?? '',
    )?.[1] ?? '';
  return {
    overflow: `${Math.round(overBy * 100)}%`,
    cascade: plan ? 'planned (ctxhost)' : "walk (oh-my-opencode's order)",
    modelCalls: calls,
    ms: Math.round(ms),
    recovered,
    steps,
  };
}

export async function runRecovery(size: BenchSize = 'full'): Promise<RecoveryRow[]> {
  const rows: RecoveryRow[] = [];
  for (const overBy of size === 'smallest' ? [0.5] : [0.01, 0.5, 3])
    for (const plan of [true, false]) rows.push(await measure(overBy, plan));
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runRecovery());
}
