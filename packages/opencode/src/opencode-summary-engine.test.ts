import { createMessage, createTokenCounter, isSummaryMessage, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createOpencodeSummaryEngine, OPENCODE_SUMMARY_ENGINE } from './opencode-summary-engine.js';

const counter = createTokenCounter();
const context = { sessionId: 's1', contextWindow: 30_000, counter, reason: 'recovery' as const };
const long = (word: string) => `${word} `.repeat(3_000);

function conversation(): Message[] {
  return [
    createMessage('user', [{ type: 'text', text: 'fix the build in src/app.ts' }], { id: 'u1' }),
    createMessage('assistant', [{ type: 'text', text: long('looked') }], { id: 'a1' }),
    createMessage('user', [{ type: 'text', text: long('first') }], { id: 'u2' }),
    createMessage('assistant', [{ type: 'text', text: long('answered') }], { id: 'a2' }),
    createMessage('user', [{ type: 'text', text: 'the prompt that overflowed' }], { id: 'u3' }),
  ];
}

describe('createOpencodeSummaryEngine', () => {
  it('summarizes everything before the last prompt, as opencode’s summarize does, and keeps the prompt to send again', async () => {
    const messages = conversation();
    const result = await createOpencodeSummaryEngine().compress(messages, context);
    const [summary, prompt] = result.messages;
    expect(result.messages).toHaveLength(2);
    expect(summary !== undefined && isSummaryMessage(summary)).toBe(true);
    expect(summary?.meta?.summary).toEqual({
      covers: { first: 'u1', last: 'a2', count: 4 },
      engine: OPENCODE_SUMMARY_ENGINE,
      source: 'extractive',
    });
    expect(prompt?.id).toBe('u3');
    expect(result.report).toMatchObject({
      engine: OPENCODE_SUMMARY_ENGINE,
      reason: 'recovery',
      messagesBefore: 5,
      messagesAfter: 2,
      tokensBefore: counter.countAll(messages),
    });
    expect(result.report.tokensAfter).toBeLessThan(result.report.tokensBefore / 5);
  });

  it('keeps what follows the last prompt (its tool calls and results) after the summary', async () => {
    const messages = [
      ...conversation(),
      createMessage('assistant', [{ type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'ls' } }], {
        id: 'a3',
      }),
      createMessage('tool', [{ type: 'tool-result', callId: 'c1', name: 'bash', output: 'a.ts' }], {
        id: 'a3:tool-results',
      }),
    ];
    const result = await createOpencodeSummaryEngine().compress(messages, context);
    expect(result.messages.map((message) => message.id).slice(1)).toEqual(['u3', 'a3', 'a3:tool-results']);
  });

  it('changes nothing when less than two messages come before the last prompt', async () => {
    const messages = conversation().slice(3);
    const result = await createOpencodeSummaryEngine().compress(messages, context);
    expect(result.messages).toEqual(messages);
    expect(result.report.tokensAfter).toBe(result.report.tokensBefore);
  });

  it('never drives requests: opencode builds its own', () => {
    expect(
      createOpencodeSummaryEngine().shouldCompress({
        sessionId: 's1',
        promptTokens: 1e9,
        tokenSource: 'estimated',
        contextWindow: 1,
        messageCount: 100,
      }),
    ).toBe(false);
  });

  it('changes nothing when the last prompt alone is over the target: a summary could not make it fit', async () => {
    const messages = [
      ...conversation().slice(0, 4),
      createMessage('user', [{ type: 'text', text: long('huge') }], { id: 'u3' }),
    ];
    const result = await createOpencodeSummaryEngine().compress(messages, { ...context, targetTokens: 1_000 });
    expect(result.messages).toEqual(messages);
    expect(result.report.notes?.[0]).toMatch(
      /^the last prompt and what follows it are about \d+ tokens, over the 1000/,
    );
  });
});
