import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel, createAnthropicSummarizer } from '@ctxhost/anthropic';
import { toAnthropic, type Message, type ToastEvent } from '@ctxhost/core';
import { countTokens, startSimulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';
import { generateLongSession, type LongSession } from './support/long-session.js';

const MODEL = 'claude-sonnet-4-6';
const NEXT = 'Now run the whole test suite again and tell me which modules still fail.';
let session: LongSession;

beforeAll(async () => {
  session = await generateLongSession({ seed: 11, requests: 24 });
}, 60_000);

/** The prompt the simulator will count for the history plus the next user message (no tools are offered). */
function promptSize(history: readonly Message[], next: string): number {
  const wire = toAnthropic([
    ...history,
    { id: 'next', role: 'user', parts: [{ id: 'next:0', type: 'text', text: next }] },
  ]);
  return countTokens({ messages: wire.messages, ...(wire.system === undefined ? {} : { system: wire.system }) });
}

/**
 * The long session's history in a default host believing in a 1M window, then one more request against an API
 * limit `over` tokens below its prompt: the overflow must be recovered (the session answers again) or end in one
 * error toast that names what cannot fit.
 */
async function overflowBy(history: readonly Message[], over: (prompt: number) => number, next = NEXT) {
  const prompt = promptSize(history, next);
  const limit = prompt - over(prompt);
  const simulator = await startSimulator({ contextLimit: limit });
  const client = new Anthropic({ apiKey: 'margins', baseURL: simulator.url, maxRetries: 0 });
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      model: { contextLength: 1_000_000 },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    summarizer: createAnthropicSummarizer(client, { model: MODEL, maxInputTokens: Math.floor(limit / 2) }),
  });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('margins', async (toast) => {
    toasts.push(toast);
  });
  try {
    const stored = await host.session('margins');
    for (const message of history) await stored.append(message);
    const agent = createAgent({
      host,
      model: createAnthropicModel(client, { model: MODEL, contextWindow: 1_000_000 }),
      maxTokens: 512,
    });
    await agent.send('margins', next);
    const answered = simulator.requests.filter(
      (request) => request.path === '/v1/messages' && request.headers['x-ctxhost-caller'] === undefined,
    );
    const recovered = toasts.find((toast) => toast.source === 'anthropic-auto-compact' && toast.level === 'success');
    const failed = toasts.find((toast) => toast.source === 'anthropic-auto-compact' && toast.level === 'error');
    return {
      prompt,
      limit,
      recovered,
      failed,
      lastStatus: answered.at(-1)?.status,
      overflows: answered.filter((request) => request.status === 400).length,
    };
  } finally {
    await host.dispose();
    await simulator.close();
  }
}

describe('recovery across a long session, from 1 token to 50% over', () => {
  it.each([
    ['1 token', () => 1],
    ['1%', (prompt: number) => Math.ceil(prompt * 0.01)],
    ['10%', (prompt: number) => Math.ceil(prompt - prompt / 1.1)],
    ['25%', (prompt: number) => Math.ceil(prompt - prompt / 1.25)],
    ['50%', (prompt: number) => Math.ceil(prompt - prompt / 1.5)],
  ])('%s over: recovered, the session answers again', async (_name, over) => {
    const outcome = await overflowBy(session.messages, over);
    expect(outcome.failed?.text).toBeUndefined();
    expect(outcome.recovered).toBeDefined();
    expect(outcome.lastStatus).toBe(200);
    expect(outcome.overflows).toBeLessThanOrEqual(2);
  });

  it('names what must stay when the system prompt and the newest request alone leave no room', async () => {
    const [system, ...rest] = session.messages;
    const huge: Message = {
      ...system!,
      parts: [{ id: `${system!.id}:0`, type: 'text', text: `${'Rule: always cite the file and line. '.repeat(900)}` }],
    };
    const outcome = await overflowBy([huge, ...rest], (prompt) => Math.ceil(prompt - promptSize([huge], NEXT) * 1.02));
    expect(outcome.recovered).toBeUndefined();
    expect(outcome.failed?.text).toMatch(
      /What must stay does not fit: the system prompt \(about [\d,]+ tokens\) and the newest user turn \(about [\d,]+ tokens\)/,
    );
  });
});

describe('a recovery either fits or names what cannot (property)', () => {
  it('holds for random margins and system prompt sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0.001, max: 0.5, noNaN: true }),
        fc.integer({ min: 0, max: 3_000 }),
        async (share, systemWords) => {
          const [system, ...rest] = session.messages;
          const grown: Message = {
            ...system!,
            parts: [
              {
                id: `${system!.id}:0`,
                type: 'text',
                text: `${'You review code carefully. '.repeat(systemWords)}` || 'You review code.',
              },
            ],
          };
          const outcome = await overflowBy([grown, ...rest], (prompt) =>
            Math.max(1, Math.ceil(prompt - prompt / (1 + share))),
          );
          if (outcome.recovered !== undefined) expect(outcome.lastStatus).toBe(200);
          else
            expect(outcome.failed?.text).toMatch(
              /What must stay does not fit: .*\d|A single \w+ message \(.+\) is about [\d,]+ tokens/,
            );
        },
      ),
      { numRuns: 4, seed: 1919 },
    );
  });
});
