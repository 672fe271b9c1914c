/**
 * The set-up the provider-switch tests share (test/native-switch-*.test.ts): one host whose engine is
 * native compaction by whichever vendor the conversation is on (Anthropic on-demand, OpenAI
 * responses/compact) with the compressor as fallback, the simulator counts of each vendor's compactions,
 * and the check that every summary's handle still reads back what it covers. Each test supplies only its
 * framework's models and how a turn is sent.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { createAnthropicCompactor } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import {
  createHost,
  nativeCompactionOf,
  readOriginal,
  withDefaults,
  type Host,
  type Message,
  type NativeCompaction,
} from '@ctxhost/core';
import { createNativeCompactionEngine } from '@ctxhost/native-compaction';
import { createOpenAICompactor } from '@ctxhost/openai';
import type { Simulator } from '@ctxhost/simulator';

export const SWITCH_WINDOW = 12_000;

/** One user turn of the billing conversation: long enough that a few of them fill the window. */
export const switchWork = (step: number) =>
  `step ${step}: edit src/billing/invoice-${step}.ts, run npm test -- invoice-${step}; ${'the invoice totals must round half-even; '.repeat(60)}`;

export const nativeParts = (messages: readonly Message[]): NativeCompaction[] =>
  messages.flatMap((message) => message.parts.flatMap((part) => nativeCompactionOf(part) ?? []));

export type Vendor = 'anthropic' | 'openai';

export interface SwitchRig {
  host: Host;
  /** Which vendor's compactor the engine uses from now on. */
  use(vendor: Vendor): void;
  /** Why the engine fell back to the compressor, each time it did. */
  fallbacks: string[];
  /** The sessions (views) that saw a compaction. */
  sessions: Set<string>;
  /** Requests the simulator saw at `path`. */
  requestsTo(path: string): number;
  /** Anthropic on-demand compactions the simulator was asked for. */
  anthropicCompactions(): number;
}

export function createSwitchRig(sim: Simulator): SwitchRig {
  let vendor: Vendor = 'anthropic';
  const compactors = {
    anthropic: createAnthropicCompactor(new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }), {
      model: 'claude-sonnet-4-6',
    }),
    openai: createOpenAICompactor(new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }), {
      model: 'gpt-5.2',
    }),
  };
  const fallbacks: string[] = [];
  const sessions = new Set<string>();
  const host = createHost({
    config: { model: { contextLength: SWITCH_WINDOW } },
    engine: createNativeCompactionEngine({
      compactor: () => compactors[vendor],
      fallback: compressorEngineFactory({ config: withDefaults({ model: { contextLength: SWITCH_WINDOW } }) }),
      trigger: 0.5,
      keepTailTokens: 1_500,
      onFallback: (reason) => fallbacks.push(reason),
    }),
  });
  host.hooks.compactionCompleted.tap('test', (event) => void sessions.add(event.sessionId));
  return {
    host,
    use: (next) => void (vendor = next),
    fallbacks,
    sessions,
    requestsTo: (path) => sim.requests.filter((request) => request.path === path).length,
    anthropicCompactions: () =>
      sim.requests.filter(
        (request) =>
          request.path === '/v1/messages' && (request.body as Record<string, unknown>)['compaction'] !== undefined,
      ).length,
  };
}

/** Every summary of `messages` resolves its first handle to what it covers (matching `covered`). */
export async function expectSummariesResolve(
  session: Parameters<typeof readOriginal>[0],
  covered: RegExp,
): Promise<void> {
  const summaries = session.messages().filter((message) => message.meta?.['nativeCompaction'] !== undefined);
  expect(summaries.length).toBeGreaterThan(0);
  for (const summary of summaries) {
    const original = await readOriginal(session, { handle: `${summary.id}#1` });
    expect(original.isError, JSON.stringify(original)).toBeUndefined();
    expect(original.output).toMatch(covered);
  }
}

/** How a test sends one user turn to each vendor's model through its framework. */
export interface SwitchTurns {
  claude(text: string): Promise<void>;
  gpt(text: string): Promise<void>;
}

/**
 * The part of the switch every framework shares once Anthropic has compacted: OpenAI reads Anthropic's
 * readable summary (never its block), compacts with responses/compact and gets its item back exactly, then
 * Anthropic reads ctxhost's readable copy of OpenAI's encrypted item. The engine never fell back.
 */
export async function expectOpenAILegAndBack(
  rig: SwitchRig,
  sim: Simulator,
  session: Parameters<typeof readOriginal>[0],
  anthropicCopy: NativeCompaction,
  turns: SwitchTurns,
  nextWork: () => string,
): Promise<void> {
  const quoted = (text: string) => JSON.stringify(text.slice(0, 60)).slice(1, -1);
  rig.use('openai');
  await turns.gpt(nextWork());
  const firstToOpenAI = sim.requests.at(-1)!;
  expect(firstToOpenAI.path).toBe('/v1/responses');
  expect(firstToOpenAI.status).toBe(200);
  const openAIBody = JSON.stringify(firstToOpenAI.body);
  expect(openAIBody).toContain(quoted(anthropicCopy.readable));
  expect(openAIBody).not.toContain('"type":"compaction"');
  for (let turn = 0; turn < 12 && rig.requestsTo('/v1/responses/compact') === 0; turn++) await turns.gpt(nextWork());
  expect(rig.requestsTo('/v1/responses/compact')).toBeGreaterThan(0);
  const openAICopy = nativeParts(session.messages()).find((native) => native.vendor === 'openai')!;
  expect(openAICopy.readable.length).toBeGreaterThan(100);
  // To OpenAI itself, its item goes back exactly.
  await turns.gpt(nextWork());
  expect(sim.requests.at(-1)!.status).toBe(200);
  const input = (sim.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
  expect(input.filter((item) => item['type'] === 'compaction')).toEqual([
    { type: 'compaction', id: openAICopy.fields['id'], encrypted_content: openAICopy.fields['encrypted_content'] },
  ]);
  // Back to Anthropic: OpenAI's encrypted item goes as ctxhost's readable copy.
  rig.use('anthropic');
  await turns.claude('what is left to do on the invoices?');
  const last = sim.requests.at(-1)!;
  expect(last.path).toBe('/v1/messages');
  expect(last.status).toBe(200);
  const lastBody = JSON.stringify(last.body);
  expect(lastBody).not.toContain('ctxsim1.');
  expect(lastBody).toContain(quoted(openAICopy.readable));
  expect(rig.fallbacks).toEqual([]);
}
