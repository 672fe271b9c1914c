import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Part } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';
import { TRANSCRIPT_ERROR_CODES } from './errors.js';
import { parseTranscript } from './parse-transcript.js';
import { lastSegmentMessages } from './segments.js';

// A real `opencode export` (opencode-ai 1.18.33 against the simulator; see the fixture's README).
const fixture = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/opencode-session/session.json');
const text = readFileSync(fixture, 'utf8');
const exported = JSON.parse(text) as { info: unknown; messages: { info: Record<string, unknown>; parts: unknown[] }[] };
const parts = (type: Part['type']) =>
  parseTranscript(text)
    .messages.flatMap((message) => message.parts)
    .filter((part) => part.type === type);

describe('the opencode importer on a real export', () => {
  it('is detected by content', () => {
    expect(detectFormat(text).format).toBe('opencode');
    expect(detectFormat(JSON.stringify({ info: {}, messages: [{ role: 'user' }] })).reasons.opencode).toMatch(
      /not \{ info, parts \}/,
    );
  });

  it('turns user texts, steps and tool parts into messages', () => {
    const transcript = parseTranscript(text);
    expect(transcript.format).toBe('opencode');
    expect(transcript.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(transcript.messages[2]?.parts).toMatchObject([
      { type: 'text', text: 'what is in notes.txt and missing.txt?' },
    ]);
    expect(transcript.messages[3]?.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(transcript.messages[3]?.parts[0]).toMatchObject({ signature: 'sig-1' });
    expect(transcript.messages[3]?.meta).toMatchObject({ model: 'claude-sonnet-4-5', provider: 'anthropic' });
    expect(transcript.meta).toMatchObject({
      sessionId: 'ses_df6707a7affec29AU0Dl7huXgw',
      unknownParts: 0,
    });
  });

  it('pairs every tool call with its result, the failed read as an error', () => {
    const calls = parts('tool-call');
    const results = parts('tool-result');
    expect(calls.map((part) => part.type === 'tool-call' && part.name)).toEqual(['read', 'read', 'bash']);
    expect(results.map((part) => part.type === 'tool-result' && part.callId)).toEqual(
      calls.map((part) => part.type === 'tool-call' && part.callId),
    );
    expect(results.map((part) => part.type === 'tool-result' && part.isError === true)).toEqual([false, true, false]);
    expect(results[1]).toMatchObject({ output: expect.stringMatching(/^File not found: .*missing\.txt$/) });
    expect(results[2]).toMatchObject({ output: '3 notes.txt\n' });
  });

  it('reports each step-finish usage against its reply', () => {
    const transcript = parseTranscript(text);
    const finishes = exported.messages.flatMap((message) =>
      message.parts.filter((part) => (part as { type?: string }).type === 'step-finish'),
    ) as { tokens: { input: number; output: number; reasoning: number; cache: { read: number; write: number } } }[];
    expect(transcript.usage).toHaveLength(finishes.length);
    expect(transcript.usage?.map((entry) => entry.usage)).toEqual(
      finishes.map(({ tokens }) => ({
        inputTokens: tokens.input,
        outputTokens: tokens.output + tokens.reasoning,
        cacheCreationInputTokens: tokens.cache.write,
        cacheReadInputTokens: tokens.cache.read,
      })),
    );
    for (const entry of transcript.usage ?? []) {
      expect(transcript.messages[entry.replyIndex]?.role).toBe('assistant');
      expect(entry.messageIndex).toBe(entry.replyIndex - 1);
    }
    expect(transcript.usage?.[1]?.usage).toEqual({
      inputTokens: 0,
      outputTokens: 44,
      cacheCreationInputTokens: 32,
      cacheReadInputTokens: 9800,
    });
  });

  it("respects opencode's compaction: the model saw its question, the summary and what follows", () => {
    const transcript = parseTranscript(text);
    expect(transcript.boundaries).toEqual([
      { messageIndex: 10, line: 8, trigger: 'manual', source: 'boundary-line', summaryIndex: 11 },
    ]);
    const last = lastSegmentMessages(transcript);
    expect(last[0]?.parts).toMatchObject([{ type: 'text', text: 'What did we do so far?' }]);
    expect(last[1]?.meta).toMatchObject({ compactSummary: true });
    expect(last.at(-2)?.parts).toMatchObject([{ type: 'text', text: 'thanks, and now?' }]);
  });
});

describe('the opencode importer on edited exports', () => {
  const edit = (change: (copy: typeof exported) => void): string => {
    const copy = JSON.parse(text) as typeof exported;
    change(copy);
    return JSON.stringify(copy);
  };

  it('skips an unknown part type with a note instead of failing', () => {
    const transcript = parseTranscript(
      edit((copy) => copy.messages[1]?.parts.splice(1, 0, { id: 'prt_x', type: 'hologram', text: 'x' })),
    );
    expect(transcript.messages).toHaveLength(14);
    expect(transcript.meta).toMatchObject({ unknownParts: 1, unknownPartTypes: ['hologram'] });
  });

  it('marks a tool output opencode pruned, keeping its size', () => {
    const transcript = parseTranscript(
      edit((copy) => {
        const tool = copy.messages[3]?.parts.find((part) => (part as { type?: string }).type === 'tool') as {
          state: { time: Record<string, number> };
        };
        tool.state.time.compacted = 1;
      }),
    );
    const result = transcript.messages[4]?.parts[0];
    expect(result).toMatchObject({
      type: 'tool-result',
      output: '[Old tool result content cleared]',
      compacted: { by: 'opencode', originalChars: expect.any(Number) },
    });
    expect(transcript.meta.compactedToolOutputs).toBe(1);
  });

  it('names the message and part of a malformed entry', () => {
    const broken = edit((copy) => {
      const tool = copy.messages[3]?.parts.find((part) => (part as { type?: string }).type === 'tool') as Record<
        string,
        unknown
      >;
      delete tool.callID;
    });
    expect(() => parseTranscript(broken, { file: 'session.json' })).toThrow(
      expect.objectContaining({
        code: TRANSCRIPT_ERROR_CODES.invalid,
        message: expect.stringMatching(
          /^transcript session\.json: messages\[3\]: parts\[3\] \(prt_\w+\): tool part has no "callID"; fix the entry/,
        ),
      }),
    );
    expect(parseTranscript(broken, { skipInvalid: true }).skipped).toBe(1);
  });
});
