import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createAnthropicSummarizer } from '@ctxhost/anthropic';
import { startSimulator } from '@ctxhost/simulator';
import {
  coveredIds,
  createHost,
  createHostAsync,
  registerContextEngine,
  unregisterContextEngine,
  type Message,
} from '@ctxhost/core';
import { lcmEngineFactory } from '@ctxhost/engine-lcm';
import { readTranscript } from '@ctxhost/transcripts';

const ROOT = join(import.meta.dirname, '..');
const WINDOW = 16_000;
const text = (message: Message) => JSON.stringify(message.parts);

async function replayedSession() {
  const host = createHost({
    config: { model: { contextLength: WINDOW } },
    engines: { lcm: lcmEngineFactory },
    enginePlugin: false,
  });
  Object.assign(host.config.context, { engine: 'lcm' });
  const engine = lcmEngineFactory({ config: host.config });
  const session = await host.session('long');
  const { messages } = await readTranscript(
    join(ROOT, 'test/fixtures/corpus/claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'),
    { includeSidechains: true },
  );
  let compactions = 0;
  for (const message of messages) {
    await session.append(message);
    const size = session.promptSize();
    if (
      engine.shouldCompress({
        sessionId: 'long',
        promptTokens: size.tokens,
        tokenSource: size.source,
        contextWindow: WINDOW,
        messageCount: session.messages().length,
      })
    ) {
      const result = await engine.compress(session.messages(), {
        sessionId: 'long',
        contextWindow: WINDOW,
        counter: host.counter,
        reason: 'threshold',
      });
      await session.applyCompaction(result.messages, result.report);
      compactions++;
    }
  }
  return { host, engine, session, messages, compactions };
}

describe('lcm engine', () => {
  it('reports its summary as it is: the model’s when a summarizer answered, else extractive, with its tokens', async () => {
    const host = createHost({ config: { model: { contextLength: 2_000 } }, enginePlugin: false });
    const turns: Message[] = Array.from({ length: 12 }, (_, index) => ({
      id: `t${index}`,
      role: index % 2 ? 'assistant' : 'user',
      parts: [
        { id: `t${index}:0`, type: 'text', text: `step ${index}: ${'edited src/app.ts and ran the tests '.repeat(8)}` },
      ],
    }));
    const context = { sessionId: 'report', contextWindow: 2_000, counter: host.counter, reason: 'threshold' as const };
    const extractive = await lcmEngineFactory({ config: host.config }).compress(turns, context);
    expect(extractive.report.summary).toMatchObject({ source: 'extractive', messagesCovered: expect.any(Number) });
    expect(extractive.report.summary!.tokens).toBeGreaterThan(0);
    const sim = await startSimulator();
    try {
      const summarizer = createAnthropicSummarizer(new Anthropic({ apiKey: 't', baseURL: sim.url, maxRetries: 0 }), {
        model: 'claude-sonnet-4-6',
      });
      const written = await lcmEngineFactory({ config: host.config }).compress(turns, {
        ...context,
        sessionId: 'report-model',
        summarizer,
      });
      expect(written.report.summary).toMatchObject({ source: 'model' });
      const node = written.messages.find((message) => message.meta?.summary?.engine === 'lcm')!;
      expect(written.report.summary!.tokens).toBeGreaterThan(0);
      expect(written.report.summary!.tokens).toBeLessThanOrEqual(host.counter.count(node));
    } finally {
      await sim.close();
    }
  });

  it('redacts secrets before the summarizer and in its node summaries; the original stays behind lcm_expand', async () => {
    const host = createHost({ config: { model: { contextLength: 2_000 } }, enginePlugin: false });
    const key = 'sk-ant-api03-LcmPlantedKey0123456789abcdefghij';
    const turns: Message[] = Array.from({ length: 12 }, (_, index) => ({
      id: `k${index}`,
      role: index % 2 ? 'assistant' : 'user',
      parts: [
        {
          id: `k${index}:0`,
          type: 'text',
          text: `step ${index}: export ANTHROPIC_API_KEY=${key} ${'and ran the tests '.repeat(8)}`,
        },
      ],
    }));
    const context = { sessionId: 'secrets', contextWindow: 2_000, counter: host.counter, reason: 'threshold' as const };
    const extractive = await lcmEngineFactory({ config: host.config }).compress(turns, context);
    const node = extractive.messages.find((message) => message.meta?.summary?.engine === 'lcm')!;
    expect(text(node)).not.toContain(key);
    expect(text(node)).toContain('[REDACTED:anthropic-key]');
    const sim = await startSimulator();
    try {
      const summarizer = createAnthropicSummarizer(new Anthropic({ apiKey: 't', baseURL: sim.url, maxRetries: 0 }), {
        model: 'claude-sonnet-4-6',
      });
      const written = await lcmEngineFactory({ config: host.config }).compress(turns, {
        ...context,
        sessionId: 'secrets-model',
        summarizer,
      });
      expect(JSON.stringify(written.messages.filter((message) => message.meta?.summary !== undefined))).not.toContain(
        key,
      );
      expect(JSON.stringify(sim.requests.map((request) => request.body))).not.toContain(key);
    } finally {
      await sim.close();
    }
  });

  it('is found in the registry only when context.engine names it', () => {
    registerContextEngine('lcm', lcmEngineFactory);
    try {
      expect(createHost({ config: { context: { engine: 'lcm' } } }).engine.name).toBe('lcm');
      expect(createHost().engine.name).not.toBe('lcm');
    } finally {
      unregisterContextEngine('lcm');
    }
  });

  it.skipIf(!existsSync(join(ROOT, 'plugins/context_engine/lcm/dist/index.js')))(
    'loads from its plugin folder on plugin_dirs (after pnpm build)',
    async () => {
      const named = await createHostAsync({
        cwd: ROOT,
        config: { context: { engine: 'lcm' }, pluginDirs: ['plugins'] },
      });
      expect(named.engine.name).toBe('lcm');
      expect(named.engine.tools?.().map((tool) => tool.name)).toEqual(['lcm_grep', 'lcm_expand']);
      const unnamed = await createHostAsync({ cwd: ROOT, config: { pluginDirs: ['plugins'] } });
      expect(unnamed.engine.name).not.toBe('lcm');
    },
  );

  it('keeps a long real session bounded while every original stays reachable', async () => {
    const { host, engine, session, messages, compactions } = await replayedSession();
    expect(compactions).toBeGreaterThan(2);
    expect(host.counter.countAll(session.messages())).toBeLessThan(WINDOW);
    expect(session.history()).toHaveLength(messages.length);
    const inView = new Set(session.messages().map((message) => message.id));
    const nodes = session
      .messages()
      .flatMap((message) =>
        message.meta?.summary?.engine === 'lcm' ? coveredIds(message.meta.summary.covers, []) : [],
      );
    expect(nodes.length).toBeLessThanOrEqual(4);
    const expanded = new Set<string>();
    for (const node of nodes) {
      const out = await engine.callTool!(
        'lcm_expand',
        { node_id: node, max_tokens: 10_000_000 },
        { sessionId: 'long' },
      );
      for (const match of out.output.matchAll(/^(\S+) (?:user|assistant|tool|system):/gm)) expanded.add(match[1]!);
    }
    const missing = messages.filter((message) => !inView.has(message.id) && !expanded.has(message.id));
    expect(missing).toEqual([]);
    const first = messages.find((message) => !inView.has(message.id) && message.parts[0] !== undefined)!;
    expect(await session.original(first.parts[0]!.id)).toEqual(first.parts[0]);
  });

  it('greps text that was compacted away and names the node that covers it; expand keeps to its budget', async () => {
    const { engine, session, messages } = await replayedSession();
    const inView = new Set(session.messages().map((message) => message.id));
    const gone = messages.find(
      (message) =>
        !inView.has(message.id) &&
        message.role === 'user' &&
        message.parts[0]?.type === 'text' &&
        message.parts[0].text.length > 30,
    )!;
    const needle = (gone.parts[0] as { text: string }).text.slice(0, 25);
    const found = await engine.callTool!(
      'lcm_grep',
      { pattern: needle },
      { sessionId: 'long', history: () => session.history() },
    );
    expect(found.output).toContain(gone.id);
    expect(found.output).toMatch(/\(in lcm-\d+\)/);
    const node = /\(in (lcm-\d+)\)/.exec(found.output)![1]!;
    const small = await engine.callTool!('lcm_expand', { node_id: node, max_tokens: 100 }, { sessionId: 'long' });
    expect(small.output.length).toBeLessThan(100 * 4 + 200);
    expect(small.output).toMatch(/more messages over the 100-token budget/);
    expect(text(gone)).toBeTruthy();
  });
});
