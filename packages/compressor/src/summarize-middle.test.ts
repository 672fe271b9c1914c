import { createTokenCounter, renderTranscript, type Message, type SummaryRequest } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { summarizeMiddle } from './summarize-middle.js';

const counter = createTokenCounter();
const turn = (index: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ id: `m${index}:0`, type: 'text', text: `step ${index}: ${'checked the parser output again '.repeat(20)}` }],
});

describe('summarizeMiddle', () => {
  it('folds a previous summary that leaves no room into the span instead of making a call per message', async () => {
    const span = Array.from({ length: 12 }, (_, index) => turn(index));
    const previousSummary = `## Progress\n### Done\n- kept the lock\n${'- an old finished item\n'.repeat(250)}`;
    const requests: SummaryRequest[] = [];
    const summary = await summarizeMiddle(span, {
      summarizer: {
        name: 'small',
        maxInputTokens: 2_000,
        summarize: async (request) => {
          requests.push(request);
          return `## Goal\nsummary ${requests.length}`;
        },
      },
      counter,
      budgetTokens: 200,
      previousSummary,
    });
    expect(counter.countText(previousSummary)).toBeGreaterThan(1_500);
    expect(requests.length).toBeLessThanOrEqual(4);
    expect(renderTranscript(requests[0]!.messages)).toContain('- kept the lock');
    expect(
      requests.flatMap((request) => request.messages).filter((message) => message.id.startsWith('m')),
    ).toHaveLength(12);
    expect(summary).toMatchObject({ source: 'chunked', text: `## Goal\nsummary ${requests.length}` });
  });

  it('carries a previous summary that fits as the running summary to update', async () => {
    const span = Array.from({ length: 4 }, (_, index) => turn(index));
    const requests: SummaryRequest[] = [];
    await summarizeMiddle(span, {
      summarizer: {
        name: 'roomy',
        maxInputTokens: 20_000,
        summarize: async (request) => {
          requests.push(request);
          return '## Goal\nupdated';
        },
      },
      counter,
      budgetTokens: 200,
      previousSummary: '## Goal\nthe old one',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.previousSummary).toBe('## Goal\nthe old one');
  });
});
