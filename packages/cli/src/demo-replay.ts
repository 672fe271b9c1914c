import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { createAgent, createAnthropicModel, createDefaultHost, formatTokens, type CompactionReport, type Message, type ToastEvent } from 'ctxhost';

export interface ReplayOutcome {
  lines: string[];
  compactions: CompactionReport[];
  toasts: ToastEvent[];
  recovered: boolean;
}

const MODEL = 'claude-sonnet-4-6';

/**
 * Replays a conversation through a real host with every default hook at a
 * small window (the engine compacts as it grows, the monitor warns), then
 * sends one more turn through the real SDK to the simulator with a window
 * smaller than the session: the overflow is recovered by the cascade.
 */
export async function replayAtWindow(messages: readonly Message[], window: number, bigOutput: string): Promise<ReplayOutcome> {
  const host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: window }, compression: { protectLastN: 4 } } });
  const toasts: ToastEvent[] = [];
  const compactions: CompactionReport[] = [];
  const lines: string[] = [];
  host.hooks.toast.tapPromise('demo', async (toast) => {
    toasts.push(toast);
    lines.push(`  toast [${toast.level}] ${toast.title}: ${toast.text}`);
  });
  host.hooks.compactionCompleted.tapPromise('demo', async ({ report }) => {
    compactions.push(report);
    lines.push(`  compaction (${report.reason}, ${report.engine}): ${formatTokens(report.tokensBefore)} → ${formatTokens(report.tokensAfter)} tokens, ${report.messagesBefore} → ${report.messagesAfter} messages${report.summary ? `, summary: ${report.summary.source}` : ''}`);
  });
  const session = await host.session('demo');
  let peak = 0;
  for (const message of messages) {
    if (message.role === 'assistant') await host.hooks.beforeRequest.promise({ sessionId: 'demo', model: MODEL, messages: session.messages(), maxTokens: 1024 }, { sessionId: 'demo', contextWindow: window });
    await session.append(message);
    peak = Math.max(peak, session.promptSize().tokens);
  }
  lines.push(`  replayed ${messages.length} messages; peak ${formatTokens(peak)} estimated tokens in view; history keeps all ${session.history().length}`);

  const simulator = await startSimulator({ contextLimit: window });
  simulator.script({ content: [{ type: 'text', text: 'Let me read the build log again.' }, { type: 'tool_use', id: 'toolu_demo_log', name: 'read_log', input: { path: 'build.log' } }] });
  try {
    const readLog = { definition: { name: 'read_log', description: 'Read a log file', inputSchema: { type: 'object' as const, properties: { path: { type: 'string' } } } }, run: async () => bigOutput };
    const agent = createAgent({ host, model: createAnthropicModel(new Anthropic({ apiKey: 'offline', baseURL: simulator.url, maxRetries: 0 }), { model: MODEL, contextWindow: window }), tools: [readLog], maxTokens: 256 });
    lines.push(`  one more turn through the real SDK and the simulator (a ${formatTokens(window)}-token window): a tool returns ${formatTokens(bigOutput.length)} characters, more than the window holds`);
    await agent.send('demo', 'Check the build log again and tell me what failed.');
    const recovered = session.messages().at(-1)?.role === 'assistant';
    lines.push(`  ${recovered ? 'the session answered again' : 'the session did not recover'} after ${simulator.requests.filter((request) => request.path === '/v1/messages').length} model calls`);
    return { lines, compactions, toasts, recovered };
  } finally {
    await simulator.close();
    await host.dispose();
  }
}
