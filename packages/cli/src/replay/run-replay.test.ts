import { fileURLToPath } from 'node:url';
import type { Message } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { countIncidents, runReplay } from './run-replay.js';

const transcript = fileURLToPath(
  new URL('../../../../test/fixtures/corpus/claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', import.meta.url),
);

describe('runReplay', () => {
  it('answers every recorded turn, one point per model call, and costs add up', async () => {
    const { messages } = await readTranscript(transcript);
    const result = await runReplay({ messages, window: 200_000 });
    expect(result).toMatchObject({
      recordedTurns: 7,
      answeredTurns: 7,
      sessions: 1,
      compactions: 0,
      overflows: 0,
      engine: 'compressor',
      thresholds: { warnAt: 0.7, criticalAt: 0.8, engineAt: 0.5 },
    });
    expect(result.points.map((point) => point.call)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(result.peak).toBe(Math.max(...result.points.map((point) => point.contextTokens)));
    expect(result.points.at(-1)!.dollars).toBeCloseTo(result.cost.dollars, 10);
    expect(result.points.at(-1)!.dollarsWithoutCaching).toBeCloseTo(result.cost.withoutCaching, 10);
    expect(result.cost.tokens.prompt).toBe(result.points.reduce((total, point) => total + point.contextTokens, 0));
  });

  it('bills each turn the output tokens its recorded request reported; without recorded usage, the tokenizer counts them', async () => {
    const { messages, usage } = await readTranscript(transcript);
    const recordedOutput = usage!.reduce((total, entry) => total + entry.usage.outputTokens, 0);
    const asRecorded = await runReplay({ messages, usage: usage!, window: 200_000 });
    expect(asRecorded.cost.tokens.output).toBe(recordedOutput);
    const counted = await runReplay({ messages, window: 200_000 });
    expect(counted.cost.tokens.output).toBeGreaterThan(0);
    expect(counted.cost.tokens.output).not.toBe(recordedOutput);
  });

  it('starts warm when asked: the head the recording read at its first request is read, not written', async () => {
    const { messages, usage } = await readTranscript(transcript);
    const replay = (warmStart: boolean) => runReplay({ messages, usage: usage ?? [], window: 200_000, warmStart });
    const [cold, warm] = [await replay(false), await replay(true)];
    const recordedRead = usage![0]!.usage.cacheReadInputTokens;
    expect(warm.reconstructed.main?.warmTokens).toBe(recordedRead);
    const credited = cold.cost.tokens.cacheWrite5m - warm.cost.tokens.cacheWrite5m;
    // Cut at a block boundary at or before the recorded read: never more, and a few tokens less at most.
    expect(credited).toBeLessThanOrEqual(recordedRead);
    expect(credited).toBeGreaterThan(recordedRead - 50);
    expect(warm.cost.dollars).toBeLessThan(cold.cost.dollars);
    expect(warm.points.map((point) => point.contextTokens)).toEqual(
      cold.points.map((point) => point.contextTokens + 3),
    );
  });

  it('answers no turn nobody recorded: a tool the user stopped ends the turn, an unanswered last message is left out', async () => {
    const text = (id: string, role: 'user' | 'assistant', value: string, meta = {}): Message => ({
      id,
      role,
      parts: [{ id: `${id}.0`, type: 'text', text: value }],
      meta,
    });
    const messages: Message[] = [
      text('u1', 'user', 'list the files'),
      {
        id: 'a1',
        role: 'assistant',
        parts: [{ id: 'a1.0', type: 'tool-call', callId: 'c1', name: 'Bash', input: { command: 'ls' } }],
        meta: { model: 'claude-sonnet-4-20250514' },
      },
      {
        id: 't1',
        role: 'tool',
        parts: [
          { id: 't1.0', type: 'tool-result', callId: 'c1', output: 'The user rejected this tool use.', isError: true },
        ],
      },
      text('i1', 'user', '[Request interrupted by user for tool use]', { uiOnly: 'interrupted' }),
      text('u2', 'user', 'just say hi'),
      text('a2', 'assistant', 'hi', { model: 'claude-sonnet-4-20250514' }),
      text('u3', 'user', 'one more thing'),
    ];
    const result = await runReplay({ messages, window: 200_000 });
    expect(result).toMatchObject({
      recordedTurns: 2,
      answeredTurns: 2,
      unrecordedCalls: 0,
      turnsEndedAfterTools: 1,
      unansweredUserTurns: { sentWithNext: 0, leftOut: 1 },
    });
    expect(result.cost.requests).toBe(2);
  });

  it('counts the calls and tokens of a model it cannot price, and prices none of them', async () => {
    const { messages } = await readTranscript(transcript);
    const result = await runReplay({ messages, window: 200_000, model: 'glm-5.2-unpriced' });
    expect(result.cost.byModel).toEqual([expect.objectContaining({ priced: false, model: 'glm-5.2-unpriced' })]);
    expect(result.cost.requests).toBe(result.points.length);
    expect(result.cost.tokens.prompt).toBe(result.points.reduce((total, point) => total + point.contextTokens, 0));
    expect(result.cost.tokens.output).toBeGreaterThan(0);
    expect(result.cost.dollars).toBe(0);
  });

  it('reports the engine actually used and the thresholds the config sets', async () => {
    const { messages } = await readTranscript(transcript);
    const result = await runReplay({
      messages,
      window: 200_000,
      engine: 'none',
      config: { disabledHooks: ['context-window-monitor'], compression: { threshold: 0.6 } },
    });
    expect(result.engine).toBe('none');
    expect(result.thresholds).toEqual({ engineAt: 0.6 });
    expect(result.events.filter((event) => event.kind === 'compaction')).toEqual([]);
    await expect(runReplay({ messages, window: 200_000, engine: 'no-such-engine' })).rejects.toMatchObject({
      code: 'CTXHOST_ENGINE_NOT_FOUND',
    });
  });

  it('lets the simulated API manage the context when the config turns server-side context editing on', async () => {
    const { messages } = await readTranscript(transcript);
    const serverContext = {
      'server-context': { clear_tool_uses: { enabled: true, trigger_tokens: 1, keep_tool_uses: 1 } },
    };
    const result = await runReplay({ messages, window: 200_000, config: { hooks: serverContext } });
    expect(result).toMatchObject({ recordedTurns: 7, answeredTurns: 7, overflows: 0 });
    const plain = await runReplay({ messages, window: 200_000 });
    // Clearing old tool results on every request shrinks the prompt the API counts.
    expect(result.cost.tokens.prompt).toBeLessThan(plain.cost.tokens.prompt);
  });
});

describe('countIncidents', () => {
  it('counts overflows on a recovery own resends as one incident per session', () => {
    const overflow = (sessionId: string) => ({
      kind: 'overflow' as const,
      call: 1,
      sessionId,
      errorKind: 'context_overflow' as const,
      message: 'too long',
    });
    const recovery = (sessionId: string) => ({ kind: 'recovery' as const, call: 2, sessionId, text: 'ok' });
    expect(
      countIncidents([
        overflow('a'),
        overflow('a'),
        recovery('a'),
        overflow('a'),
        overflow('b'),
        { kind: 'recovery-failed', call: 3, sessionId: 'b', text: 'no' },
      ]),
    ).toBe(3);
    expect(countIncidents([])).toBe(0);
  });
});
