import { createHost, runCompaction } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { toolTurns } from './conversation.test-helper.js';
import { strategyEngineFactory } from './strategy-engine.js';
import { triggers } from './triggers.js';
import { truncation } from './truncation.js';

describe('strategyEngineFactory', () => {
  const factory = strategyEngineFactory('drop-oldest', ({ budget }) =>
    truncation({ trigger: triggers.tokensExceed(budget), minimumPreserved: 1 }),
  );

  it('runs the strategy as a host engine: budget from the window, the report under its own name, reviewed by the host', async () => {
    const host = createHost({ engines: { 'drop-oldest': factory }, config: { context: { engine: 'drop-oldest' } } });
    const messages = toolTurns(12);
    const before = host.counter.countAll(messages);
    const window = before * 2;
    const outcome = await runCompaction(host, await host.session('s'), { contextWindow: window, messages });
    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    const { threshold, targetRatio } = host.config.compression;
    expect(outcome.report.engine).toBe('drop-oldest');
    expect(outcome.report.steps).toEqual(['truncation']);
    expect(outcome.report.tokensAfter).toBeLessThanOrEqual(window * threshold * targetRatio);
    expect(outcome.report.fidelity).toBeDefined();
    expect(outcome.messages[0]?.role).toBe('system');
  });

  it('compresses above the threshold only, and not when compression is off', () => {
    const host = createHost();
    const engine = factory({ config: host.config });
    const state = { sessionId: 's', tokenSource: 'estimated' as const, contextWindow: 1000, messageCount: 3 };
    expect(engine.shouldCompress({ ...state, promptTokens: 400 })).toBe(false);
    expect(engine.shouldCompress({ ...state, promptTokens: 600 })).toBe(true);
    const off = factory({ config: { ...host.config, compression: { ...host.config.compression, enabled: false } } });
    expect(off.shouldCompress({ ...state, promptTokens: 900 })).toBe(false);
  });
});
