/**
 * A worker process for the stateless multi-process test and bench: runs its share of generated
 * conversations through one integration (bench/integrations/adapters.ts) against a simulator, on a
 * shared store, and prints one JSON line: the caller-visible errors, each call's time outside the
 * provider's HTTP requests (ctxhost's and the framework's own work) and the warnings it said.
 *   node --import tsx --conditions=@ctxhost/source test/stateless-worker.ts
 * Environment: SIM_URL, INTEGRATION (ai-sdk | langchain | openai-agents | mastra | anthropic; default ai-sdk),
 * STORE_KIND (memory | file | postgres), STORE_PATH (file), DATABASE_URL and STORE_SCHEMA (postgres),
 * WORKER, WORKERS, CONVERSATIONS, TURNS, WINDOW, COPIES (how many workers run each conversation:
 * identical prompts on different workers), RUNNERS (concurrent conversations per worker, default 3).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createPostgresStore } from '@ctxhost/store-postgres';
import { createDefaultHost, type SessionStore } from 'ctxhost';
import { INTEGRATION_ADAPTERS } from '../bench/integrations/adapters.js';
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
const integration = env('INTEGRATION', 'ai-sdk');
const adapter = INTEGRATION_ADAPTERS.find((candidate) => candidate.name === integration);
if (adapter === undefined)
  throw new Error(
    `stateless-worker: INTEGRATION "${integration}" is none of ${INTEGRATION_ADAPTERS.map((a) => a.name).join(', ')}`,
  );
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

// The provider's share of a call: the time its HTTP requests took (the simulator's work and the wire).
const providerTime = new AsyncLocalStorage<{ ms: number }>();
const timedFetch: typeof fetch = async (input, init) => {
  const started = performance.now();
  try {
    return await fetch(input, init);
  } finally {
    const call = providerTime.getStore();
    if (call !== undefined) call.ms += performance.now() - started;
  }
};
const instance = adapter.instance({
  host,
  simUrl: env('SIM_URL'),
  contextWindow: window,
  maxOutputTokens: 200,
  fetch: timedFetch,
});

const errors: string[] = [];
const overhead: number[] = [];
const mine = conversationsOf(Number(env('CONVERSATIONS')), worker, workers, Number(env('COPIES', '2')));
let next = 0;
async function runner(): Promise<void> {
  for (let index = next++; index < mine.length; index = next++) {
    const conversation = mine[index]!;
    const messages = conversationOpening(conversation);
    for (let turn = 0; turn < turns; turn++) {
      messages.push({ role: 'user', text: turnText(conversation, turn) });
      const provider = { ms: 0 };
      const started = performance.now();
      try {
        const answer = await providerTime.run(provider, () => instance.call('You are a helpful assistant.', messages));
        overhead.push(performance.now() - started - provider.ms);
        messages.push({ role: 'assistant', text: answer });
      } catch (error) {
        errors.push(
          `conversation ${conversation} turn ${turn}: ${error instanceof Error ? error.message : String(error)}`,
        );
        break;
      }
    }
  }
}
await Promise.all(Array.from({ length: Number(env('RUNNERS', '3')) }, runner));
process.stdout.write(`${JSON.stringify({ worker, errors, overhead, warnings, conversations: mine.length })}\n`);
await host.dispose();
process.exit(0);
