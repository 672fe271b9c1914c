import OpenAI from 'openai';
import { createDefaultHost } from '@ctxhost/default-host';
import { withContextManagement } from '@ctxhost/openai';
import { startSimulator } from '@ctxhost/simulator';

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_log',
      description: 'Read the build log',
      parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
    },
  },
];

/**
 * An existing Chat Completions tool loop, made safe with the OpenAI wrapper: compaction
 * before an overflow and recovery from one — the loop itself is unchanged. Offline the
 * simulator plays a local vLLM server whose model ("qwen3-coder-local") the model registry
 * does not know: the first overflow states its 4,000-token window, the wrapper learns it and
 * from then on compacts before sending. With OPENAI_API_KEY it runs gpt-4o-mini for real
 * (window 128,000 from the registry).
 */
export async function main(log: (line: string) => void = console.log): Promise<number> {
  const online = Boolean(process.env['OPENAI_API_KEY']);
  const simulator = online
    ? undefined
    : await startSimulator({
        defaultToolUse: true,
        models: { 'qwen3-coder-local': { contextLimit: 4_000, overflowStyle: 'vllm' } },
      });
  const raw =
    simulator === undefined
      ? new OpenAI()
      : new OpenAI({ apiKey: 'offline', baseURL: `${simulator.url}/v1`, maxRetries: 0 });
  const model = online ? 'gpt-4o-mini' : 'qwen3-coder-local';

  // What ctxhost does, through the host's own hooks (a compaction another request already stored is adopted, not made):
  const host = await createDefaultHost({ config: { store: { kind: 'memory' } } });
  host.hooks.toast.tapPromise('example', async (toast) => log(`[${toast.level}] ${toast.title}: ${toast.text}`));
  host.hooks.compactionCompleted.tapPromise('example', async ({ report }) => {
    if (report.engine !== 'stateless-cache')
      log(`compacted (${report.reason}): ${report.tokensBefore} → ${report.tokensAfter} estimated tokens`);
  });

  // The wrapper:
  const client = withContextManagement(raw, { host });

  // Your loop, as it was:
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a build assistant. Use read_log to answer.' },
  ];
  let calls = 0;
  for (let turn = 1; turn <= 6; turn++) {
    messages.push({ role: 'user', content: `Turn ${turn}: what does the build log say now?` });
    for (;;) {
      const reply = await client.chat.completions.create({ model, max_tokens: 200, tools, messages });
      const message = reply.choices[0]!.message;
      messages.push(message);
      if (message.tool_calls === undefined || message.tool_calls.length === 0) break;
      for (const call of message.tool_calls) {
        calls++;
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: `${'2026-11-23 12:00:01 step ok: compiled module\n'.repeat(40)}build finished (${turn})`,
        });
      }
    }
  }
  log(
    `6 turns answered with ${calls} tool calls; the history holds ${messages.length} messages (the wrapper compacts what it sends, not your list)`,
  );
  if (simulator !== undefined) log(`requests: ${simulator.requests.map((request) => request.status).join(' ')}`);
  await host.dispose();
  await simulator?.close();
  return messages.length;
}
