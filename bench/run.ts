/**
 * `pnpm bench`: every benchmark in one run, printed as tables and written to
 * bench/results.json. Ratios come from the same run (shared machines drift).
 * `pnpm bench --only recovery` runs one; `--list` names them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCacheAwareCompaction } from './cache-aware-compaction.js';
import { runCompactionFidelity } from './compaction-fidelity.js';
import { runCompactionThroughput } from './compaction-throughput.js';
import { runCompressorExtractive } from './compressor-extractive.js';
import { runCostReplay } from './cost-replay.js';
import { runEstimatorAccuracy } from './estimator-accuracy.js';
import { runModelRegistry } from './model-registry.js';
import { runTokenCounter } from './token-counter.js';
import { runIntegrations } from './integrations.js';
import { runOpencode } from './opencode.js';
import { runLongSessionReplay } from './long-session-replay.js';
import { runRecompaction } from './recompaction.js';
import { runRecovery } from './recovery.js';
import { runReplayFidelity } from './replay-fidelity.js';
import { runTurnOverhead } from './turn-overhead.js';

const BENCHES: Record<string, { title: string; run: () => Promise<object[]> }> = {
  'compaction-throughput': {
    title: 'Compaction throughput: tokenBudget(tool results, selective, sliding) vs one JSON.stringify',
    run: () => runCompactionThroughput(),
  },
  recompaction: {
    title:
      'Re-compaction on the default host path: the compressor again after 10 new messages, vs one JSON.stringify of the history; share of the projection that is summary metadata',
    run: () => runRecompaction(),
  },
  'turn-overhead': {
    title:
      'Per-turn overhead of the host (all default hooks) vs history length; baseline: a full chars/4 re-count per event',
    run: () => runTurnOverhead(),
  },
  'estimator-accuracy': {
    title: 'Token estimator: median absolute relative error vs API-reported growth (Claude Code)',
    run: () => runEstimatorAccuracy(),
  },
  'token-counter': {
    title:
      'Exact tokens on the OpenAI-format corpus (OpenHands, SWE-agent): the OpenAI counter vs gpt-tokenizer encodeChat, the estimator and chars/4 vs exact (o200k_base)',
    run: () => runTokenCounter(),
  },
  'model-registry': {
    title: 'Model registry: models per provider, data source, lookup time',
    run: () => runModelRegistry(),
  },
  'cost-replay': {
    title: 'Input cost replay at a 64k window: no caching, system_and_3, caching + compaction',
    run: () => runCostReplay(),
  },
  'cache-aware-compaction': {
    title:
      'Cache-aware compaction: the demo session at 18k with the compressor as shipped and with each cache-relevant choice undone',
    run: () => runCacheAwareCompaction(),
  },
  'long-session-replay': {
    title:
      'Long sessions (hundreds of requests) replayed at an 18k window and several API limits: turns answered, failed recoveries, weak compactions, cache reads, dollars (held-out sessions marked)',
    run: () => runLongSessionReplay(),
  },
  recovery: {
    title: 'Recovery from overflows: model calls and time, planned cascade vs the seed order',
    run: () => runRecovery(),
  },
  integrations: {
    title:
      'Overflows through the framework integrations (AI SDK, …): model calls, tokens sent, whether the caller saw an error',
    run: () => runIntegrations(),
  },
  opencode: {
    title:
      'Overflows inside the real opencode with ctxhost’s plugin, opencode’s compaction off and on: model calls from the first request past 80% to the answer, failed requests, tokens, originals lost',
    run: () => runOpencode(),
  },
  'replay-fidelity': {
    title:
      'Replay fidelity: Claude Code sessions replayed at a 1M window, peak prompt and uncached price against the recorded ones',
    run: () => runReplayFidelity(),
  },
  'compaction-fidelity': {
    title:
      'Compaction fidelity: long sessions cut at 8 points, 16k and 32k, extractive and simulator summaries; what survived and secrets leaked',
    run: () => runCompactionFidelity(),
  },
  'compressor-extractive': {
    title: 'Compressor (extractive path) at a 32k window: tokens, and what the summary kept',
    run: () => runCompressorExtractive(),
  },
};

const { values } = parseArgs({
  options: { only: { type: 'string', multiple: true }, list: { type: 'boolean', default: false } },
});
if (values.list) {
  for (const [name, bench] of Object.entries(BENCHES)) console.log(`${name.padEnd(24)} ${bench.title}`);
  process.exit(0);
}
const selected = values.only ?? Object.keys(BENCHES);
const unknown = selected.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

const results: Record<string, { title: string; seconds: number; rows: object[] }> = {};
const started = performance.now();
for (const name of selected) {
  const bench = BENCHES[name]!;
  const t = performance.now();
  const rows = await bench.run();
  const seconds = Math.round((performance.now() - t) / 100) / 10;
  results[name] = { title: bench.title, seconds, rows };
  console.log(`\n## ${name} — ${bench.title} (${seconds}s)`);
  console.table(rows);
}
const total = Math.round((performance.now() - started) / 1000);
console.log(`\nall benchmarks: ${total}s`);
writeFileSync(
  join(import.meta.dirname, 'results.json'),
  `${JSON.stringify({ node: process.version, date: new Date().toISOString(), totalSeconds: total, results }, null, 2)}\n`,
);
