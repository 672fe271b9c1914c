/**
 * Cost replay: each Claude Code session of the corpus, its requests replayed in
 * order against the simulator (which prices prefixes with its own prompt cache),
 * at a 64k window: input dollars with no caching, with system_and_3 breakpoints,
 * and with caching plus the host's compaction (compressor at 64k).
 * Run alone: npx tsx --conditions=@ctxhost/source bench/cost-replay.ts
 */
import Anthropic from '@anthropic-ai/sdk';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toParams, toUsage } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, type Message, type Usage } from '@ctxhost/core';
import { applyCacheBreakpoints, createPromptCachingPlugin, sessionCost } from '@ctxhost/prompt-caching';
import { startSimulator } from '@ctxhost/simulator';
import { readTranscript } from '@ctxhost/transcripts';

export interface CostRow {
  session: string;
  requests: number;
  noCaching: string;
  systemAnd3: string;
  cachingAndCompaction: string;
  reduction: string;
}

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus', 'claude-code');
const MODEL = 'claude-sonnet-4';
const WINDOW = 64_000;

type Mode = 'none' | 'system_and_3' | 'compaction';

async function replay(prefixes: Message[][], mode: Mode): Promise<Usage[]> {
  const sim = await startSimulator({ contextLimit: 1_000_000 });
  const client = new Anthropic({ apiKey: 'bench', baseURL: sim.url, maxRetries: 0 });
  const host = createHost({ config: { model: { contextLength: WINDOW } }, fallbackEngine: { name: 'compressor', factory: compressorEngineFactory }, plugins: [createPromptCachingPlugin()] });
  const session = await host.session('replay');
  const usages: Usage[] = [];
  let appended = 0;
  for (const prefix of prefixes) {
    let messages: Message[] = prefix;
    if (mode === 'system_and_3') messages = applyCacheBreakpoints(prefix, { ttl: '5m' });
    if (mode === 'compaction') {
      for (const message of prefix.slice(appended)) await session.append(message);
      appended = prefix.length;
      messages = (await host.hooks.beforeRequest.promise({ sessionId: 'replay', model: MODEL, messages: session.messages(), maxTokens: 1000 }, { sessionId: 'replay', contextWindow: WINDOW })).messages;
    }
    const reply = await client.messages.create(toParams({ sessionId: 'replay', model: MODEL, messages, maxTokens: 1000 }));
    const usage = toUsage(reply.usage);
    usages.push(usage);
    if (mode === 'compaction') await session.reportUsage(usage);
  }
  await sim.close();
  await host.dispose();
  return usages;
}

export async function runCostReplay(): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  for (const file of readdirSync(CORPUS).filter((name) => name.endsWith('.jsonl')).sort()) {
    const { messages, usage = [] } = await readTranscript(join(CORPUS, file));
    const prefixes = usage.map((record) => messages.slice(0, record.messageIndex + 1)).filter((prefix) => prefix[0]?.role !== 'assistant');
    const [none, cached, compacted] = [await replay(prefixes, 'none'), await replay(prefixes, 'system_and_3'), await replay(prefixes, 'compaction')];
    const input = (usages: Usage[]) => {
      const report = sessionCost(usages, MODEL);
      return report.dollars.total - report.dollars.output;
    };
    const base = input(none);
    rows.push({
      session: file.slice(0, 8),
      requests: prefixes.length,
      noCaching: `$${base.toFixed(4)}`,
      systemAnd3: `$${input(cached).toFixed(4)}`,
      cachingAndCompaction: `$${input(compacted).toFixed(4)}`,
      reduction: `${Math.round((1 - input(compacted) / base) * 100)}%`,
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runCostReplay());
}
