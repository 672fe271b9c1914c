/**
 * A long generated session (test/support/long-session.ts) replayed request by request through the real
 * Anthropic SDK, as a client that resends the whole history each time (Claude Code does, with its cache
 * breakpoints: system prompt and the last messages), once straight at the simulator with a window the session
 * overflows and once through an in-process gateway in front of the same simulator.
 *
 * A refused request (the provider's 400) is counted and the client goes on with the next recorded request:
 * the recorded history stands in for what the agent did next, so, as with a real agent that has no
 * compaction, every later request resends a history at least as long and is refused too.
 *
 * Figures come from what the simulator recorded upstream (the gateway's own summarizer calls included), priced
 * with core's pricing (input dollars only: the simulator's replies are not the recorded ones).
 */
import Anthropic from '@anthropic-ai/sdk';
import { toParams, toUsage } from '@ctxhost/anthropic';
import type { Message, Usage } from '@ctxhost/core';
import { GatewaySectionSchema, settingsFrom, startGateway } from '@ctxhost/gateway';
import { applyCacheBreakpoints, sessionCost } from '@ctxhost/prompt-caching';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';
import { generateLongSession, type LongSessionOptions } from '../test/support/long-session.js';

export interface ReplayCase {
  options: LongSessionOptions;
  heldOut: boolean;
  window: number;
}

export interface ReplayFigures {
  requests: number;
  answered: number;
  upstreamRequests: number;
  inputDollars: number;
  cacheReadShare: number;
  peakPrompt: number;
}

const MODEL = 'claude-sonnet-4-6';

/** Each model request of a session as the prefix it sent (one before each assistant turn). */
function requestPrefixes(messages: readonly Message[]): Message[][] {
  return messages.flatMap((message, index) =>
    message.role === 'assistant' && index > 0 ? [messages.slice(0, index)] : [],
  );
}

const promptOf = (usage: Usage): number =>
  usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;

/** Sends every prefix to `baseURL`; a refusal is counted and the replay goes on with the next prefix. */
async function replay(sim: Simulator, baseURL: string, prefixes: readonly Message[][]): Promise<ReplayFigures> {
  const client = new Anthropic({ apiKey: 'bench', baseURL, maxRetries: 0 });
  const usages: Usage[] = [];
  let answered = 0;
  let upstreamRequests = 0;
  for (const prefix of prefixes) {
    const messages = applyCacheBreakpoints(prefix, { ttl: '5m' });
    try {
      await client.messages.create(toParams({ sessionId: 'replay', model: MODEL, messages, maxTokens: 1000 }));
      answered++;
    } catch (error) {
      if (!(error instanceof Anthropic.APIError) || error.status !== 400) throw error;
    }
    // Drained after each request so the simulator holds no more than one turn's bodies.
    for (const recorded of sim.requests.splice(0)) {
      upstreamRequests++;
      if (recorded.usage !== undefined) usages.push(toUsage(recorded.usage as Anthropic.Usage));
    }
  }
  const cost = sessionCost(usages, MODEL);
  return {
    requests: prefixes.length,
    answered,
    upstreamRequests,
    inputDollars: cost.dollars.total - cost.dollars.output,
    cacheReadShare: cost.cacheHitRatio,
    peakPrompt: Math.max(0, ...usages.map(promptOf)),
  };
}

/** The session replayed directly and through a gateway, each against a fresh simulator at `window`. */
export async function replayThroughGateway(
  replayCase: ReplayCase,
): Promise<{ direct: ReplayFigures; gateway: ReplayFigures }> {
  const session = await generateLongSession({ ...replayCase.options, model: MODEL });
  const prefixes = requestPrefixes(session.messages);
  const simulator = () => startSimulator({ models: { [MODEL]: { contextLimit: replayCase.window } } });
  const directSim = await simulator();
  const direct = await replay(directSim, directSim.url, prefixes).finally(() => directSim.close());
  const gatewaySim = await simulator();
  const gateway = await startGateway({
    settings: settingsFrom(
      GatewaySectionSchema.parse({ models: { [MODEL]: { context_window: replayCase.window } } }),
      gatewaySim.url,
    ),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
  try {
    return { direct, gateway: await replay(gatewaySim, gateway.url, prefixes) };
  } finally {
    await gateway.close();
    await gatewaySim.close();
  }
}
