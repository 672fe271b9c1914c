import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { createAgent, createAnthropicModel, createDefaultHost, promptTokens, type Plugin } from 'ctxhost';

export const USAGE_LOG = 'usage-log';

/** A hook plugin: taps `message.updated` and `session.error` and writes usage and errors to a JSON-lines file. */
export function createUsageLog(file: string): Plugin {
  return {
    name: USAGE_LOG,
    apply(host) {
      host.hooks.messageUpdated.tapPromise(USAGE_LOG, async ({ sessionId, message, usage }) => {
        if (usage !== undefined)
          appendFileSync(
            file,
            `${JSON.stringify({ sessionId, message: message.id, promptTokens: promptTokens(usage), outputTokens: usage.outputTokens, cacheRead: usage.cacheReadInputTokens })}\n`,
          );
      });
      host.hooks.sessionError.tapPromise(USAGE_LOG, async ({ sessionId, error }) => {
        appendFileSync(file, `${JSON.stringify({ sessionId, error: error.kind, message: error.message })}\n`);
      });
    },
  };
}

export async function main(log: (line: string) => void = console.log): Promise<string[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'ctxhost-usage-')), 'usage.jsonl');
  const simulator = await startSimulator();
  simulator.faults.at(2, 'overloaded');
  const host = await createDefaultHost({ config: { store: { kind: 'memory' } }, plugins: [createUsageLog(file)] });
  const agent = createAgent({
    host,
    model: createAnthropicModel(new Anthropic({ apiKey: 'offline', baseURL: simulator.url, maxRetries: 0 }), {
      model: 'claude-sonnet-4-6',
    }),
  });
  await agent.send('s1', 'first question');
  await agent.send('s1', 'second question (the simulator answers 529 this time)');
  await agent.send('s1', 'third question');
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  for (const line of lines) log(line);
  await host.dispose();
  await simulator.close();
  return lines;
}
