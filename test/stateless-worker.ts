/**
 * A worker process for the stateless multi-process test and bench: runs its share of generated
 * conversations through `@ctxhost/ai-sdk` against a simulator, on a shared store, and prints one JSON
 * line: the caller-visible errors, ctxhost's own time per request and the warnings it said.
 *   node --import tsx --conditions=@ctxhost/source test/stateless-worker.ts
 * Environment: SIM_URL, STORE_KIND (memory | file | postgres), STORE_PATH (file), DATABASE_URL and
 * STORE_SCHEMA (postgres), WORKER, WORKERS, CONVERSATIONS, TURNS, WINDOW, COPIES (how many workers run
 * each conversation: identical prompts on different workers).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { contextManagementMiddleware } from '@ctxhost/ai-sdk';
import { createPostgresStore } from '@ctxhost/store-postgres';
import { generateText, wrapLanguageModel, type LanguageModelMiddleware, type ModelMessage } from 'ai';
import { createDefaultHost, type SessionStore } from 'ctxhost';
import { conversationOpening, conversationsOf, turnText } from './support/stateless-conversations.js';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`stateless-worker: ${name} is not set`);
  return value;
};
const worker = Number(env('WORKER'));
const workers = Number(env('WORKERS'));
const turns = Number(env('TURNS', '4'));
const window = Number(env('WINDOW', '8000'));
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(warning.message));

function storeOf(): SessionStore | undefined {
  const kind = env('STORE_KIND', 'memory');
  if (kind !== 'postgres') return undefined;
  return createPostgresStore({
    url: env('DATABASE_URL'),
    schema: env('STORE_SCHEMA'),
    maxConnections: 2,
    timeouts: { connectMs: 2_000, statementMs: 5_000 },
  });
}

const store = storeOf();
const host = await createDefaultHost({
  config: {
    ...(env('STORE_KIND', 'memory') === 'file'
      ? { store: { kind: 'file' as const, path: env('STORE_PATH') } }
      : { store: { kind: 'memory' as const } }),
    compression: { protectLastN: 4 },
    hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
  },
  ...(store === undefined ? {} : { store }),
});
const middleware = contextManagementMiddleware({ host, contextWindow: window });
const overhead: number[] = [];
const timed: LanguageModelMiddleware = {
  ...middleware,
  async transformParams(options) {
    const started = performance.now();
    try {
      return await middleware.transformParams!(options);
    } finally {
      overhead.push(performance.now() - started);
    }
  },
};
const model = wrapLanguageModel({
  model: createAnthropic({ baseURL: `${env('SIM_URL')}/v1`, apiKey: 'test' })('claude-sonnet-4-6'),
  middleware: timed,
});

const errors: string[] = [];
const mine = conversationsOf(Number(env('CONVERSATIONS')), worker, workers, Number(env('COPIES', '2')));
let next = 0;
async function runner(): Promise<void> {
  for (let index = next++; index < mine.length; index = next++) {
    const conversation = mine[index]!;
    const messages: ModelMessage[] = conversationOpening(conversation);
    for (let turn = 0; turn < turns; turn++) {
      messages.push({ role: 'user', content: turnText(conversation, turn) });
      try {
        const result = await generateText({
          model,
          system: 'You are a helpful assistant.',
          messages,
          maxOutputTokens: 200,
        });
        messages.push(...result.response.messages);
      } catch (error) {
        errors.push(
          `conversation ${conversation} turn ${turn}: ${error instanceof Error ? error.message : String(error)}`,
        );
        break;
      }
    }
  }
}
await Promise.all([runner(), runner(), runner()]);
process.stdout.write(`${JSON.stringify({ worker, errors, overhead, warnings, conversations: mine.length })}\n`);
await host.dispose();
process.exit(0);
