/**
 * Every benchmark `pnpm bench` knows, by the name `--only` takes. To add one:
 * write `bench/<name>.ts` exporting `run<Name>(size: BenchSize)`, and add its
 * entry here (bench/README.md, "Adding a bench").
 */
import type { Bench } from './bench.js';
import { runBackgroundCompaction } from './background-compaction.js';
import { runBillReplay } from './bill-replay.js';
import { runCacheAwareCompaction } from './cache-aware-compaction.js';
import { runCompactionFidelity } from './compaction-fidelity.js';
import { runCompactionProbes } from './compaction-probes.js';
import { runCompactionThroughput } from './compaction-throughput.js';
import { runCompressorExtractive } from './compressor-extractive.js';
import { runCostReplay } from './cost-replay.js';
import { runCtxhostEval } from './ctxhost-eval.js';
import { runNextCallWarm } from './next-call-warm.js';
import { runNativeMechanisms } from './native-mechanisms.js';
import { runEstimatorAccuracy } from './estimator-accuracy.js';
import { runGateway } from './gateway.js';
import { runHostileInputs } from './hostile-inputs.js';
import { runIntegrations } from './integrations.js';
import { runLongSessionReplay } from './long-session-replay.js';
import { runRecompaction } from './recompaction.js';
import { runModelRegistry } from './model-registry.js';
import { runOpencode } from './opencode.js';
import { runRecovery } from './recovery.js';
import { runRehydrationCost } from './rehydration-cost.js';
import { runReplayFidelity } from './replay-fidelity.js';
import { runStatelessIntegrations } from './stateless-integrations.js';
import { runStatelessWorkers } from './stateless-workers.js';
import { runStorePostgres } from './store-postgres.js';
import { runTokenCounter } from './token-counter.js';
import { runTurnOverhead } from './turn-overhead.js';

export const BENCHES: Readonly<Record<string, Bench>> = {
  gateway: {
    title:
      'ctxhost gateway vs the simulator directly: added latency p50/p99 and time to the first streamed text; requests/s with 1 and 2 gateway processes sharing PostgreSQL; heap per open conversation',
    run: runGateway,
  },
  'compaction-probes': {
    title:
      'Probe recall of the compressor per probe kind: its own result (before) and what the model sees after the probe check added what was missing (after); the ledger against the window',
    run: runCompactionProbes,
  },
  'ctxhost-eval': {
    title:
      '`ctxhost eval` on three corpus sessions with every engine (offline): probe recall of the answers (the simulator: not a quality figure), probes in view, prompt tokens, summarizer calls, dollars, with spread',
    run: runCtxhostEval,
  },
  'rehydration-cost': {
    title:
      'Rehydration on long sessions at 18k: compactions with and without it, tokens of the re-read files (mean, largest, share of the window), files skipped; the ledger against the window',
    run: runRehydrationCost,
  },
  'compaction-throughput': {
    title: 'Compaction throughput: tokenBudget(tool results, selective, sliding) vs one JSON.stringify',
    run: runCompactionThroughput,
  },
  'stateless-integrations': {
    title:
      'The stateless path per call through each integration: the first call of a 1k/10k/100k-message prompt vs one JSON.stringify, the next call with 2 appended messages',
    run: runStatelessIntegrations,
  },
  'next-call-warm': {
    title:
      "The warm next call (2 appended messages, the prefix handed again in a new array) at 1k and 100k messages: p50 and mean CPU of the Agents SDK and LangChain mappings and of the Agents SDK's real input filter with its wrapped model",
    run: runNextCallWarm,
  },
  'stateless-workers': {
    title:
      'The stateless path in a service: worker processes × conversations through each integration on the file store and on PostgreSQL cut off mid-run: caller errors, leaked markers, identical projections, cache-read share vs one process, time outside the provider p50/p99',
    run: (size) => runStatelessWorkers(size),
  },
  recompaction: {
    title:
      'Re-compaction on the default host path: the compressor again after 10 new messages, vs one JSON.stringify of the history; share of the projection that is summary metadata',
    run: (size) => runRecompaction(size === 'smallest' ? [1_000] : undefined),
  },
  'background-compaction': {
    title:
      'Time to first token of the request that reaches the threshold, summarizer 3 s: compaction off, inline, background (real SDK, simulator)',
    run: runBackgroundCompaction,
  },
  'bill-replay': {
    title:
      'Long sessions replayed as recorded at 200k and 64k: ctxhost (turns + summarizer) beside the recording agent’s bill and the uncached price',
    run: runBillReplay,
  },
  'turn-overhead': {
    title:
      'Per-turn overhead of the host (all default hooks) vs history length; baseline: a full chars/4 re-count per event',
    run: runTurnOverhead,
  },
  'estimator-accuracy': {
    title:
      'Token estimator: median absolute relative error vs API-reported prompt growth (Claude Code, all threads), per content kind, held out',
    run: runEstimatorAccuracy,
  },
  'token-counter': {
    title:
      'Exact tokens on the OpenAI-format corpus (OpenHands, SWE-agent): the OpenAI counter vs gpt-tokenizer encodeChat, the estimator and chars/4 vs exact (o200k_base)',
    run: runTokenCounter,
  },
  'model-registry': {
    title: 'Model registry: models per provider, data source, lookup time',
    run: runModelRegistry,
  },
  'cost-replay': {
    title: 'Input cost replay at a 64k window: no caching, system_and_3, caching + compaction',
    run: runCostReplay,
  },
  'native-mechanisms': {
    title:
      'Native compaction against the client engine on long sessions at 200k and 64k: dollars with compaction passes, cache reads, peak prompt, turns answered, fidelity',
    run: runNativeMechanisms,
  },
  'cache-aware-compaction': {
    title:
      'Cache-aware compaction: the demo session at 18k with the compressor as shipped and with each cache-relevant choice undone',
    run: runCacheAwareCompaction,
  },
  'long-session-replay': {
    title:
      'Long sessions (hundreds of requests) replayed at an 18k window and several API limits: turns answered, failed recoveries, weak compactions, cache reads, dollars (held-out sessions marked)',
    run: runLongSessionReplay,
  },
  recovery: {
    title: 'Recovery from overflows: model calls and time, planned cascade vs oh-my-opencode’s walk-the-cascade order',
    run: runRecovery,
  },
  integrations: {
    title:
      'Overflows through the framework integrations (AI SDK, OpenAI Agents, Mastra, LangChain): model calls, tokens sent, whether the caller saw an error',
    run: runIntegrations,
  },
  opencode: {
    title:
      'Overflows inside the real opencode with ctxhost’s plugin, opencode’s compaction off and on: model calls from the first request past 80% to the answer, failed requests, tokens, originals lost',
    run: runOpencode,
  },
  'replay-fidelity': {
    title:
      'Replay fidelity: Claude Code sessions replayed at a 1M window, peak prompt and uncached price against the recorded ones',
    run: runReplayFidelity,
  },
  'compaction-fidelity': {
    title:
      'Compaction fidelity: long sessions cut at 8 points, 16k and 32k, extractive and simulator summaries; what survived and secrets leaked',
    run: runCompactionFidelity,
  },
  'hostile-inputs': {
    title:
      'Hostile inputs: secret forms and generated provider secrets reaching a summarizer (goal 0), hostile transcripts crashing or hanging an importer (goal 0), the slowest input per MB per importer',
    run: runHostileInputs,
  },
  'compressor-extractive': {
    title: 'Compressor (extractive path) at a 32k window: tokens, and what the summary kept',
    run: runCompressorExtractive,
  },
  'store-postgres': {
    title:
      'The PostgreSQL store beside the file store, 1 and 4 worker processes: appends per second and per-turn overhead (needs PostgreSQL)',
    run: runStorePostgres,
  },
};
