import type { Message, Summarizer, SummaryRequest } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { applyCompaction, dryRun } from './apply-compaction.js';
import { ids, toolTurns } from './conversation.test-helper.js';
import { CompactionError } from './errors.js';
import { DEFAULT_SUMMARIZATION_PROMPT, summarization } from './summarization.js';
import { triggers } from './triggers.js';
import { validateProjection } from './validate-projection.js';

/** A real (extractive) summarizer: the first line of each message, so tests see what it was given. */
function createFirstLineSummarizer(calls: SummaryRequest[] = []) {
  return async (request: SummaryRequest): Promise<string> => {
    calls.push(request);
    const lines = request.messages.map(
      (message: Message) =>
        `${message.role}: ${message.parts.map((part) => (part.type === 'text' ? part.text.split('\n')[0] : part.type)).join(' ')}`,
    );
    return [request.previousSummary, ...lines].filter((line) => line !== undefined).join('\n');
  };
}

describe('summarization', () => {
  const messages = toolTurns(5); // 1 + 20 messages, 15 non-system groups

  it('summarizes the older span into one user summary in its place and keeps the newest 4 groups', async () => {
    const calls: SummaryRequest[] = [];
    const result = await applyCompaction(
      messages,
      summarization({ summarizer: createFirstLineSummarizer(calls), trigger: triggers.always, target: triggers.never }),
    );
    expect(ids(result.messages)).toEqual(['m1', 'summary:m2:15', 'm17', 'm18', 'm19', 'm20', 'm21']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.instructions).toBe(DEFAULT_SUMMARIZATION_PROMPT);
    expect(ids(calls[0]!.messages)).toEqual(Array.from({ length: 15 }, (_, i) => `m${i + 2}`));
    const summary = result.messages[1]!;
    expect(summary.role).toBe('user');
    expect(summary.meta?.summary?.covers).toEqual({ first: 'm2', last: 'm16', count: 15 });
    expect(result.report.summary).toMatchObject({ source: 'model', messagesCovered: 15 });
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('redacts secrets before the summarizer sees the span and in the summary it writes', async () => {
    const calls: SummaryRequest[] = [];
    const token = 'ghp_SummarizationPlanted0123456789abcdefgh';
    const planted = messages.map((message, index) =>
      index === 3
        ? { ...message, parts: [{ id: `${message.id}:0`, type: 'text' as const, text: `clone with ${token}` }] }
        : message,
    );
    const echoing = async (request: SummaryRequest) =>
      (await createFirstLineSummarizer(calls)(request)) + '\nalso sk-proj-InventedByTheSummarizer0123456789';
    const result = await applyCompaction(
      planted,
      summarization({ summarizer: echoing, trigger: triggers.always, target: triggers.never }),
    );
    expect(JSON.stringify(calls)).not.toContain(token);
    const summary = JSON.stringify(result.messages[1]);
    expect(summary).toContain('[REDACTED:github-token]');
    expect(summary).not.toContain('InventedByTheSummarizer');
  });

  it("honours a config's redaction section: its patterns, on the strategy or through applyCompaction", async () => {
    const planted = messages.map((message, index) =>
      index === 3
        ? { ...message, parts: [{ id: `${message.id}:0`, type: 'text' as const, text: 'ticket acme_abcdef123456' }] }
        : message,
    );
    const redaction = {
      enabled: true,
      disable: [],
      patterns: [{ type: 'acme-token', regex: 'acme_[a-z0-9]{8,}' }],
    };
    for (const [strategyRedaction, applyRedaction] of [
      [redaction, undefined],
      [undefined, redaction],
    ] as const) {
      const calls: SummaryRequest[] = [];
      await applyCompaction(
        planted,
        summarization({
          summarizer: createFirstLineSummarizer(calls),
          trigger: triggers.always,
          target: triggers.never,
          ...(strategyRedaction === undefined ? {} : { redaction: strategyRedaction }),
        }),
        applyRedaction === undefined ? {} : { redaction: applyRedaction },
      );
      expect(JSON.stringify(calls)).not.toContain('acme_abcdef123456');
      expect(JSON.stringify(calls)).toContain('[REDACTED:acme-token]');
    }
  });

  it('never re-summarizes its own fresh summary: no progress, no model call', async () => {
    const calls: SummaryRequest[] = [];
    const strategy = summarization({
      summarizer: createFirstLineSummarizer(calls),
      trigger: triggers.always,
      target: triggers.never,
      minimumPreserved: 4,
    });
    const first = await applyCompaction(messages, strategy);
    expect(calls).toHaveLength(1);
    const second = await applyCompaction(first.messages, strategy);
    expect(calls).toHaveLength(1);
    expect(ids(second.messages)).toEqual(ids(first.messages));
    expect(second.report.notes).toContainEqual(
      'summarization: only its own summary is left to summarize; no progress, no model call',
    );
  });

  it('Python form: keeps the newest targetCount messages when more than targetCount + threshold', async () => {
    const quiet = await applyCompaction(
      messages,
      summarization({ summarizer: createFirstLineSummarizer(), targetCount: 16, threshold: 4 }),
    );
    expect(quiet.changed).toBe(false);
    const result = await applyCompaction(
      messages,
      summarization({
        summarizer: createFirstLineSummarizer(),
        targetCount: 8,
        threshold: 2,
        minimumPreserved: 1,
        prompt: 'Only decisions.',
      }),
    );
    expect(
      result.messages.filter((message) => message.role !== 'system' && message.meta?.summary === undefined),
    ).toHaveLength(8);
  });

  it('rolls the span back when the summarizer fails, noting why', async () => {
    const failing = async (): Promise<string> => {
      throw new Error('model overloaded');
    };
    const result = await applyCompaction(messages, summarization({ summarizer: failing, trigger: triggers.always }));
    expect(ids(result.messages)).toEqual(ids(messages));
    expect(result.changed).toBe(false);
    expect(result.report.notes?.[0]).toMatch(/CTXHOST_COMPACTION_SUMMARIZER_FAILED.*model overloaded/);
    const empty = await applyCompaction(
      messages,
      summarization({ summarizer: async () => '  ', trigger: triggers.always }),
    );
    expect(empty.changed).toBe(false);
    await expect(
      applyCompaction(messages, summarization({ summarizer: failing, trigger: triggers.always, onError: 'throw' })),
    ).rejects.toSatisfy(
      (error: unknown) => CompactionError.isInstance(error) && error.code === 'CTXHOST_COMPACTION_SUMMARIZER_FAILED',
    );
  });

  it('chunks a span larger than the summarizer takes, updating the previous summary', async () => {
    const calls: SummaryRequest[] = [];
    const summarize = createFirstLineSummarizer(calls);
    const summarizer: Summarizer = { name: 'first-lines', maxInputTokens: 300, summarize };
    const result = await applyCompaction(messages, summarization({ summarizer, trigger: triggers.always }));
    expect(calls.length).toBeGreaterThan(1);
    expect(calls[1]!.previousSummary).toBeDefined();
    expect(result.report.summary?.source).toBe('chunked');
  });

  it('dry run: plans the span at the reserve without calling the summarizer', async () => {
    const calls: SummaryRequest[] = [];
    const planned = await dryRun(
      messages,
      summarization({
        summarizer: createFirstLineSummarizer(calls),
        trigger: triggers.always,
        summaryTokenReserve: 100,
      }),
    );
    expect(calls).toHaveLength(0);
    expect(planned.excludedGroups).toBe(11);
    expect(planned.report.summary?.tokens).toBe(100);
    expect(planned.tokensSaved).toBe(planned.report.tokensBefore - planned.report.tokensAfter);
    expect(planned.tokensSaved).toBeGreaterThan(0);
  });

  it('aborts before calling the summarizer', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(
      applyCompaction(messages, summarization({ summarizer: createFirstLineSummarizer(), trigger: triggers.always }), {
        signal: controller.signal,
      }),
    ).rejects.toSatisfy(
      (error: unknown) => CompactionError.isInstance(error) && error.code === 'CTXHOST_COMPACTION_ABORTED',
    );
  });

  it('needs a trigger or a targetCount', () => {
    expect(() => summarization({ summarizer: createFirstLineSummarizer() })).toThrowError(/needs a trigger/);
  });
});
