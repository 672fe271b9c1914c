import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { createAgent, createAnthropicModel, createClientFromEnv, createDefaultHost, type AgentTool } from 'ctxhost';

const tools: AgentTool[] = [
  {
    definition: {
      name: 'get_time',
      description: 'The current time in ISO 8601',
      inputSchema: { type: 'object', properties: {} },
    },
    run: async () => new Date().toISOString(),
  },
  {
    definition: {
      name: 'multiply',
      description: 'Multiply two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    },
    run: async (input) => {
      const { a, b } = input as { a: number; b: number };
      return String(a * b);
    },
  },
];

/** An agent with two tools on the host with every default hook. Offline (the simulator) unless ANTHROPIC_API_KEY is set. */
export async function main(log: (line: string) => void = console.log): Promise<string> {
  const live = createClientFromEnv();
  const simulator = live === null ? await startSimulator() : undefined;
  const client = live ?? new Anthropic({ apiKey: 'offline', baseURL: simulator!.url });
  simulator?.script(
    {
      content: [
        { type: 'tool_use', id: 'toolu_time', name: 'get_time', input: {} },
        { type: 'tool_use', id: 'toolu_mul', name: 'multiply', input: { a: 6, b: 7 } },
      ],
    },
    { content: 'It is now the time the tool reported, and 6 × 7 = 42.' },
  );
  const host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: 200_000 } } });
  host.hooks.toast.tapPromise('quickstart', async (toast) => log(`[${toast.level}] ${toast.title}: ${toast.text}`));
  const agent = createAgent({
    host,
    model: createAnthropicModel(client, { model: 'claude-sonnet-4-6', contextWindow: 200_000 }),
    tools,
    system: 'You are a precise assistant. Use the tools.',
  });
  const outcome = await agent.send('quickstart', 'What time is it, and what is 6 × 7?');
  const answer =
    outcome.status === 'done'
      ? outcome.message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : `failed: ${outcome.status}`;
  log(answer);
  await host.dispose();
  await simulator?.close();
  return answer;
}
