import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalResult } from '@ctxhost/cli';
import { startSimulator } from '@ctxhost/simulator';
import { corpus, runCtxhostInProcess } from './cli-run-bin.js';
import { useCliScratch } from './support/use-cli-scratch.js';

const session = corpus('openhands/multi-swe-bench-output.jsonl');
let folder: string;

useCliScratch('ctxhost-eval-', async (scratch) => {
  folder = scratch;
});

describe('ctxhost eval (offline, on the simulator)', () => {
  it('compares engines on a corpus session: one row each, the same probes, and the differences compaction makes', async () => {
    const report = join(folder, 'eval.html');
    const engines = 'compressor,compressor/unchecked,maf-summarization,maf-truncation,none';
    const { code, stdout, stderr } = await runCtxhostInProcess([
      'eval',
      session,
      '--engine',
      engines,
      '--cuts',
      '2',
      '--replicates',
      '2',
      '--json',
      '--report',
      report,
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(stdout) as EvalResult;
    expect(result.live).toBe(false);
    expect(result.engines.map((engine) => engine.engine)).toEqual(engines.split(','));
    expect(result.transcripts[0]!.cutAt).toHaveLength(2);
    // 2 cuts × 2 replicates per engine, every cut asked the same probes whichever engine compacted it.
    for (const engine of result.engines) expect(engine.samples).toBe(4);
    const probesPerCut = (name: string) =>
      result.samples.filter((sample) => sample.engine === name).map((sample) => sample.probes);
    for (const engine of result.engines) expect(probesPerCut(engine.engine)).toEqual(probesPerCut('none'));
    expect(Math.min(...probesPerCut('none'))).toBeGreaterThan(5);
    const row = (name: string) => result.engines.find((engine) => engine.engine === name)!;
    // Nothing compacted: everything is in view and the prompt is the largest.
    expect(row('none').compacted).toBe(0);
    expect(row('none').inView.mean).toBe(1);
    for (const name of ['compressor', 'maf-summarization', 'maf-truncation']) {
      expect(row(name).compacted).toBe(4);
      expect(row(name).promptTokens.max).toBeLessThan(row('none').promptTokens.min);
    }
    // Truncation drops the oldest messages with no summary: it keeps fewer facts and calls no summarizer.
    expect(row('maf-truncation').inView.mean).toBeLessThan(row('compressor').inView.mean);
    expect(row('maf-truncation').summarizerCalls.max).toBe(0);
    expect(row('maf-summarization').summarizerCalls.min).toBeGreaterThan(0);
    // ctxhost's check adds what the compressor's summary missed: never fewer facts in view than without it.
    expect(row('compressor').inView.mean).toBeGreaterThanOrEqual(row('compressor/unchecked').inView.mean);
    // The simulator is deterministic: replicates agree, so each cut's two samples are equal.
    const compressor = result.samples.filter((sample) => sample.engine === 'compressor');
    expect(compressor.filter((sample) => sample.replicate === 1).map((sample) => sample.inView)).toEqual(
      compressor.filter((sample) => sample.replicate === 2).map((sample) => sample.inView),
    );
    for (const engine of result.engines) expect(engine.dollars?.mean).toBeGreaterThan(0);
    const page = await readFile(report, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('NOT a quality figure');
    for (const name of engines.split(',')) expect(page).toContain(`<td>${name}</td>`);
  });

  it('prints one table with a row per engine and says the simulator answers are not a quality figure', async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess([
      'eval',
      session,
      '--engine',
      'compressor',
      '--engine',
      'maf-sliding-window',
      '--cuts',
      '1',
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('engine '));
    expect(lines[header]).toMatch(
      /^engine\s+compacted\s+answered \(recall\)\s+in view\s+prompt tokens after\s+summarizer calls\s+dollars$/,
    );
    expect(lines[header + 2]).toMatch(/^compressor\s+1\/1\s+\d+%\s+\d+%\s+[\d,]+\s+\d+\s+\$/);
    // A sliding window drops whole user turns: this agent session is one turn long, so it keeps it whole.
    expect(lines[header + 3]).toMatch(/^maf-sliding-window\s+0\/1\s+\d+%\s+100%\s/);
    expect(stdout).toContain('NOT a quality figure');
  });

  it('--live sends the summarizer calls and the questions to the API the environment names', async () => {
    const simulator = await startSimulator({ acceptAnyModel: true });
    const saved = { key: process.env['ANTHROPIC_API_KEY'], url: process.env['ANTHROPIC_BASE_URL'] };
    process.env['ANTHROPIC_API_KEY'] = 'test-key';
    process.env['ANTHROPIC_BASE_URL'] = simulator.url;
    try {
      const { code, stdout, stderr } = await runCtxhostInProcess([
        'eval',
        session,
        '--live',
        '--engine',
        'maf-summarization',
        '--cuts',
        '1',
        '--json',
      ]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const result = JSON.parse(stdout) as EvalResult;
      expect(result.live).toBe(true);
      const [sample] = result.samples;
      // One summary and one question, both through the API the environment named, with the key it gave.
      expect(simulator.requests).toHaveLength(sample!.summarizerCalls + 1);
      expect(sample!.summarizerCalls).toBeGreaterThan(0);
      for (const request of simulator.requests) expect(request.headers['authorization']).toBe('Bearer test-key');
      expect(sample!.answer).toMatch(/^Simulated reply about: /);
    } finally {
      for (const [name, value] of [
        ['ANTHROPIC_API_KEY', saved.key],
        ['ANTHROPIC_BASE_URL', saved.url],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      await simulator.close();
    }
  });

  it('refuses --live without a key, and an empty engine name, as usage errors', async () => {
    const key = process.env['ANTHROPIC_API_KEY'];
    delete process.env['ANTHROPIC_API_KEY'];
    try {
      const live = await runCtxhostInProcess(['eval', session, '--live']);
      expect(live.code).toBe(2);
      expect(live.stderr).toMatch(/--live needs ANTHROPIC_API_KEY/);
    } finally {
      if (key !== undefined) process.env['ANTHROPIC_API_KEY'] = key;
    }
    const empty = await runCtxhostInProcess(['eval', session, '--engine', 'compressor,,lcm']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--engine: an empty engine name/);
  });
});
