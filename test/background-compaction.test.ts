import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel, createAnthropicSummarizer } from '@ctxhost/anthropic';
import { createMemoryStore, type CompactionReport, type Host, type Summarizer } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';

const WINDOW = 16_000;
const SUMMARY_MODEL = 'claude-haiku-4-5';

let sim: Simulator | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  await sim?.close();
  host = undefined;
  sim = undefined;
});

/** The real summarizer over the SDK, its calls counted and their ends awaitable (the user "thinking" between turns). */
function watched(summarizer: Summarizer): Summarizer & { calls: number; pending: Set<Promise<unknown>> } {
  const pending = new Set<Promise<unknown>>();
  const watcher = {
    ...summarizer,
    calls: 0,
    pending,
    summarize(request: Parameters<Summarizer['summarize']>[0]) {
      watcher.calls++;
      const call = summarizer.summarize(request);
      pending.add(call);
      const forget = () => pending.delete(call);
      call.then(forget, forget);
      return call;
    },
  };
  return watcher;
}

async function setUp(options: { background: boolean; summaryDelayMs: number }) {
  sim = await startSimulator();
  // The summary model answers slowly, as a real summary call does.
  sim.faults.when((request) => request.model === SUMMARY_MODEL, { kind: 'slow', delayMs: options.summaryDelayMs });
  const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
  const summarizer = watched(createAnthropicSummarizer(client, { model: SUMMARY_MODEL }));
  host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      model: { contextLength: WINDOW },
      compression: { protectLastN: 4, background: options.background },
    },
    store: createMemoryStore(),
    summarizer,
  });
  const reports: CompactionReport[] = [];
  host.hooks.compactionCompleted.tapPromise('test', async ({ report }) => {
    reports.push(report);
  });
  const agent = createAgent({
    host,
    model: createAnthropicModel(client, { model: 'claude-sonnet-4-6' }),
    system: 'You are a coding agent.',
  });
  const agentRequests = () =>
    sim!.requests.filter(
      (request) =>
        request.path === '/v1/messages' && (request.body as { model?: string } | undefined)?.model !== SUMMARY_MODEL,
    );
  return { agent, summarizer, reports, agentRequests, host };
}

const ask = (turn: number) =>
  `request ${turn}: update src/module${turn}.ts and run the tests. ${'context for this step '.repeat(60)}`;

describe('background compaction', () => {
  it('prepares the summary past the soft line and swaps it in at the threshold, keeping what was appended meanwhile', async () => {
    const { agent, summarizer, reports, agentRequests } = await setUp({ background: true, summaryDelayMs: 300 });
    const sentAfterSnapshot: string[] = [];
    let turn = 0;
    while (reports.length === 0 && turn < 60) {
      const input = ask(++turn);
      if (summarizer.calls > 0) sentAfterSnapshot.push(input);
      expect((await agent.send('s', input)).status).toBe('done');
      // Between turns the user reads the reply: the background summary finishes meanwhile.
      await Promise.all([...summarizer.pending]);
    }
    expect(reports).toHaveLength(1);
    // One summary call: prepared once, swapped in, never redone before the request.
    expect(summarizer.calls).toBe(1);
    expect(reports[0]!.notes).toEqual(
      expect.arrayContaining([
        'prepared in the background',
        expect.stringMatching(/^swapped in with \d+ messages? appended since the snapshot$/),
      ]),
    );
    expect(sentAfterSnapshot.length).toBeGreaterThan(0);
    const crossing = JSON.stringify(agentRequests().at(-1)?.body);
    expect(crossing).toContain('summary');
    for (const input of sentAfterSnapshot) expect(crossing).toContain(input.slice(0, 40));
  });

  it('compacts inline when the threshold is reached with nothing prepared', async () => {
    const { agent, summarizer, reports } = await setUp({ background: false, summaryDelayMs: 0 });
    let turn = 0;
    while (reports.length === 0 && turn < 60) expect((await agent.send('s', ask(++turn))).status).toBe('done');
    expect(reports).toHaveLength(1);
    expect(summarizer.calls).toBe(1);
    expect(reports[0]!.notes ?? []).not.toContain('prepared in the background');
  });

  it('does not use a summary prepared from a snapshot the session no longer extends', async () => {
    const { agent, summarizer, reports, host: current } = await setUp({ background: true, summaryDelayMs: 0 });
    let turn = 0;
    while (summarizer.calls === 0 && turn < 60) await agent.send('s', ask(++turn));
    await Promise.all([...summarizer.pending]);
    // A manual compaction rewrites the projection: the prepared one is stale.
    expect((await current.compact('s')).status).toBe('completed');
    const manual = reports.length;
    while (reports.length === manual && turn < 120) await agent.send('s', ask(++turn));
    expect(reports.length).toBe(manual + 1);
    // Every compaction made its own summary; the stale one was the extra call, never sent.
    expect(summarizer.calls).toBe(reports.length + 1);
  });
});
