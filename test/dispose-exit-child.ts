/**
 * The child of dispose-exit.test.ts: a whole ctxhost in one process —
 * simulator, default host on a file store, agent over the real SDK. It runs a
 * turn with a tool call, a streamed turn, then a turn that overflows, and
 * disposes the host while the recovery waits out a one-minute backoff; then
 * closes the simulator. No process.exit: the process must end on its own, so
 * a timer or socket left behind shows as a hang.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createAgent, createAnthropicModel, createAnthropicSummarizer, type AgentTool } from '@ctxhost/anthropic';
import { startSimulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';

const directory = process.argv[2] ?? '';
const sim = await startSimulator({ defaultToolUse: true, models: { small: { contextLimit: 3000 } } });
const client = new Anthropic({ apiKey: 'child', baseURL: sim.url, maxRetries: 1 });
const host = await createDefaultHost({
  config: {
    store: { kind: 'file', path: directory },
    hooks: { 'anthropic-auto-compact': { initial_delay_ms: 60000, max_delay_ms: 60000 } },
  },
  summarizer: createAnthropicSummarizer(client, { model: 'claude-sonnet-4-6' }),
});
const readFile: AgentTool = {
  definition: {
    name: 'read_file',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  run: async () => 'line of the file\n'.repeat(400),
};
const agent = (model: string, stream: boolean) =>
  createAgent({
    host,
    model: createAnthropicModel(client, { model, contextWindow: 1000000, stream }),
    tools: [readFile],
    system: 'You are careful.',
    maxTokens: 100,
  });
const big = agent('claude-sonnet-4-6', false);
const streamed = agent('claude-sonnet-4-6', true);
const small = agent('small', false);
const outcomes = [(await big.send('a', 'read the readme')).status, (await streamed.send('b', 'read it again')).status];
let disposing: Promise<void> | undefined;
host.hooks.sessionError.tapPromise('child', async () => {
  disposing ??= new Promise((resolve) => setTimeout(resolve, 300)).then(() => host.dispose());
});
const overflow = small.send('c', 'read everything ' + 'and more '.repeat(2000));
outcomes.push((await overflow).status);
await disposing;
await sim.close();
process.stdout.write(JSON.stringify({ outcomes }) + '\n');
process.stdout.write('disposed ' + Date.now() + '\n');
