import { describe, expect, it } from 'vitest';
import { countTextTokens } from '../wire/tokenizer.js';
import { buildSummary, isSummaryRequest, summaryTurn, SUMMARY_HEADINGS } from './summary.js';

const withHeadings = (headings: readonly string[]) => ({
  messages: [{ role: 'user', content: `Summarize.\n${headings.map((heading) => `## ${heading}\n...`).join('\n')}` }],
});

describe('summarization requests', () => {
  it.each([
    [7, true],
    [5, true],
    [4, false],
    [0, false],
  ])('with %i template headings is a summary request: %s', (count, expected) => {
    expect(isSummaryRequest(withHeadings(SUMMARY_HEADINGS.slice(0, count)))).toBe(expected);
  });

  it('is not one when a summary sits in the history and the last user message asks something else', () => {
    const afterCompaction = {
      messages: [
        ...withHeadings(SUMMARY_HEADINGS).messages,
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'now fix the build' },
      ],
    };
    expect(isSummaryRequest(afterCompaction)).toBe(false);
  });

  it('needs the headings as headings, not mentioned in a sentence', () => {
    const prose = { messages: [{ role: 'user', content: `We discussed ${SUMMARY_HEADINGS.join(', ')} yesterday.` }] };
    expect(isSummaryRequest(prose)).toBe(false);
  });

  it('builds every section from the request’s own content, deterministically', () => {
    const request = {
      system: SUMMARY_HEADINGS.map((heading) => `## ${heading}`).join('\n'),
      messages: [
        { role: 'user', content: 'Please migrate src/config/loader.ts to zod' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'pnpm test --filter core' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Error: Cannot find module zod' }],
        },
      ],
    };
    const summary = buildSummary(request);
    for (const heading of SUMMARY_HEADINGS) expect(summary).toContain(`## ${heading}`);
    expect(summary).toContain('Please migrate src/config/loader.ts to zod');
    expect(summary).toContain('- src/config/loader.ts');
    expect(summary).toContain('pnpm test --filter core');
    expect(summary).toContain('Error: Cannot find module zod');
    expect(buildSummary(request)).toBe(summary);
  });

  it('carries a previous summary’s Done items over', () => {
    const previous = '## Progress\n### Done\n- renamed the store\n- fixed the lock\n### In Progress\n- none';
    const summary = buildSummary({ messages: [{ role: 'user', content: `${previous}\nnow add tests` }] });
    expect(summary).toMatch(/### Done\n- renamed the store\n- fixed the lock\n/);
  });

  describe('within max_tokens', () => {
    const busy = {
      model: 'claude-sonnet-4-6',
      system: SUMMARY_HEADINGS.map((heading) => `## ${heading}`).join('\n'),
      messages: [
        {
          role: 'user' as const,
          content: Array.from(
            { length: 40 },
            (_, i) => `$ pnpm test packages/pkg${i}/src/module${i}.ts\nError: case ${i} failed`,
          ).join('\n'),
        },
      ],
    };
    const text = (turn: ReturnType<typeof summaryTurn>) => turn.content.map((block) => block.text ?? '').join('');

    it('is the whole summary when it fits', () => {
      const turn = summaryTurn({ ...busy, max_tokens: 100_000 });
      expect(text(turn)).toBe(buildSummary(busy));
      expect(turn.stop_reason).toBe('end_turn');
    });

    it('shortens its lists to keep to a smaller budget, every section still there', () => {
      const whole = countTextTokens(buildSummary(busy));
      const turn = summaryTurn({ ...busy, max_tokens: Math.floor(whole / 2) });
      expect(countTextTokens(text(turn))).toBeLessThanOrEqual(Math.floor(whole / 2));
      for (const heading of SUMMARY_HEADINGS) expect(text(turn)).toContain(`## ${heading}`);
      expect(text(turn)).toContain('packages/pkg0/src/module0.ts');
      expect(turn.stop_reason).toBe('end_turn');
    });

    it('is cut where the API stops a reply when even the shortest lists do not fit', () => {
      const turn = summaryTurn({ ...busy, max_tokens: 20 });
      expect(countTextTokens(text(turn))).toBeLessThanOrEqual(20);
      expect(text(turn).length).toBeGreaterThan(0);
      expect(turn.stop_reason).toBe('max_tokens');
    });
  });
});
