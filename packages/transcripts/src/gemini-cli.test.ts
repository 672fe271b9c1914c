import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Part } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';
import { TRANSCRIPT_ERROR_CODES, TranscriptError } from './errors.js';
import { parseTranscript } from './parse-transcript.js';
import { lastSegmentMessages } from './segments.js';

// A real session file, written by Gemini CLI 0.61.0 against the simulator (see the fixture's README).
const fixture = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/gemini-cli/session.jsonl');
const text = readFileSync(fixture, 'utf8');
const lines = text.trim().split('\n');

const header = { sessionId: 'session-1', projectHash: 'abc', startTime: '2026-11-23T10:00:00.000Z', kind: 'main' };
const jsonl = (...records: unknown[]) => [header, ...records].map((record) => JSON.stringify(record)).join('\n');
const user = (id: string, text: string) => ({ id, type: 'user', content: [{ text }] });
const reply = (id: string, content: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'gemini',
  content,
  thoughts: [],
  tokens: { input: 100, output: 10, cached: 40, thoughts: 5, tool: 0, total: 115 },
  model: 'gemini-2.5-pro',
  ...extra,
});

function errorOf(run: () => unknown): TranscriptError {
  try {
    run();
  } catch (error) {
    if (TranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a TranscriptError');
}

describe('the Gemini CLI importer on a real session', () => {
  const transcript = parseTranscript(text);
  const parts = (type: Part['type']) =>
    transcript.messages.flatMap((message) => message.parts).filter((part) => part.type === type);

  it('is detected by content', () => {
    expect(detectFormat(text).format).toBe('gemini-cli');
    expect(transcript.format).toBe('gemini-cli');
    expect(transcript.meta).toMatchObject({ kind: 'main', models: ['gemini-3-flash-preview'] });
  });

  it('cuts at the compression and rebuilds what the model saw after it', () => {
    expect(transcript.boundaries).toEqual([{ messageIndex: 3, line: 10, source: 'boundary-line', summaryIndex: 4 }]);
    const after = lastSegmentMessages(transcript);
    expect(after[0]?.meta).toMatchObject({ sessionContext: true, keptFromCompaction: true });
    expect(after[1]?.parts[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^<state_snapshot>/) });
    expect(after[2]?.parts[0]).toMatchObject({ text: 'Got it. Thanks for the additional context!' });
    expect(new Set(transcript.messages.map((message) => message.id)).size).toBe(transcript.messages.length);
  });

  it('reads thoughts, tool calls and their results, the failed one as an error', () => {
    expect(parts('reasoning').map((part) => (part.type === 'reasoning' ? part.text : ''))).toEqual([
      '**Reading the files** notes.txt first, then missing.txt.',
    ]);
    const calls = parts('tool-call');
    const results = parts('tool-result');
    expect(calls.map((part) => (part.type === 'tool-call' ? part.name : ''))).toEqual([
      'read_file',
      'read_file',
      'run_shell_command',
    ]);
    expect(results.map((part) => (part.type === 'tool-result' ? part.callId : ''))).toEqual(
      calls.map((part) => (part.type === 'tool-call' ? part.callId : '')),
    );
    expect(results[0]).toMatchObject({ output: 'alpha\nbeta\ngamma\n' });
    expect(results[1]).toMatchObject({ isError: true, output: expect.stringContaining('File not found') });
    // 0.61 writes each result twice (in toolCalls and as a function-response user turn): sent once.
    expect(transcript.meta.repeatedFunctionResponses).toBe(3);
  });

  it('gives each model request its usage (cached tokens as cache reads, thoughts as output) and its model', () => {
    expect(transcript.usage).toHaveLength(6);
    const withThoughts = transcript.usage?.[2];
    expect(withThoughts?.usage).toEqual({
      inputTokens: 46,
      outputTokens: 44,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 14542,
    });
    for (const entry of transcript.usage ?? []) {
      expect(transcript.messages[entry.replyIndex]?.role).toBe('assistant');
      expect(transcript.messages[entry.replyIndex]?.meta?.model).toBe('gemini-3-flash-preview');
    }
  });

  it('fails on a broken line, naming it, or skips it when asked', () => {
    const broken = [...lines.slice(0, 5), '{"id": "x", "type": "gemini", "content": "cut', ...lines.slice(5)].join(
      '\n',
    );
    const error = errorOf(() => parseTranscript(broken, { file: 'session.jsonl' }));
    expect(error.code).toBe(TRANSCRIPT_ERROR_CODES.invalid);
    expect(error.message).toMatch(/^transcript session\.jsonl:6: not valid JSON/);
    const skipped = parseTranscript(broken, { skipInvalid: true });
    expect(skipped.skipped).toBe(1);
    expect(skipped.messages).toHaveLength(transcript.messages.length);
  });
});

describe('the Gemini CLI importer on edge cases', () => {
  it('reads a legacy session-*.json, counting info/error/warning records as never sent', () => {
    const legacy = JSON.stringify({
      ...header,
      lastUpdated: '2026-11-23T10:05:00.000Z',
      messages: [
        user('u1', 'list the files'),
        { id: 'i1', type: 'info', content: 'Switched to fallback model.' },
        reply('g1', '', {
          thoughts: [{ subject: 'Listing', description: 'I will run ls.', timestamp: '' }],
          toolCalls: [
            { id: 'c1', name: 'run_shell_command', args: { command: 'ls' }, result: 'a.txt', status: 'success' },
            { id: 'c2', name: 'read_file', args: { file_path: 'b' }, result: null, status: 'executing' },
          ],
        }),
        { id: 'w1', type: 'warning', content: 'slow' },
      ],
    });
    expect(detectFormat(legacy).format).toBe('gemini-cli');
    const transcript = parseTranscript(legacy);
    expect(transcript.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(transcript.messages[1]?.parts.map((part) => part.type)).toEqual(['reasoning', 'tool-call', 'tool-call']);
    expect(transcript.messages[2]?.parts).toEqual([
      { id: 'g1.result.c1', type: 'tool-result', callId: 'c1', name: 'run_shell_command', output: 'a.txt' },
    ]);
    expect(transcript.meta).toMatchObject({ notSent: 2, unansweredToolCalls: 1 });
    expect(transcript.usage?.[0]?.usage).toEqual({
      inputTokens: 60,
      outputTokens: 15,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 40,
    });
  });

  it('applies rewinds and rewrites of the tail, and keeps slash commands out', () => {
    const session = jsonl(
      user('u1', 'first'),
      reply('g1', 'one'),
      user('u2', 'second'),
      reply('g2', 'two'),
      { $rewindTo: 'u2' },
      user('u4', 'third'),
      { $set: { messages: [user('u1', 'first'), reply('g1', 'one')] } },
      user('u3', '/stats'),
      user('u5', 'fourth'),
      reply('g5', 'five'),
    );
    const transcript = parseTranscript(session);
    expect(transcript.messages.map((message) => message.id)).toEqual(['u1', 'g1', 'u5', 'g5']);
    expect(transcript.boundaries).toBeUndefined();
    expect(transcript.meta).toMatchObject({ rewinds: 1, slashCommands: 1 });
  });

  it('names the message and the problem in a malformed record', () => {
    const session = jsonl(user('u1', 'hi'), reply('g1', '', { toolCalls: [{ name: 'ls', args: {} }] }));
    const error = errorOf(() => parseTranscript(session, { file: 'chat.jsonl' }));
    expect(error.message).toBe(
      'transcript chat.jsonl:3: message 1 (gemini g1): toolCalls[0] has no "id"; fix the line or pass { skipInvalid: true } to skip it',
    );
    const unknown = errorOf(() => parseTranscript(jsonl({ id: 'x', type: 'model', content: 'hi' })));
    expect(unknown.message).toContain('message 0 (model x): unknown message type "model"');
    const legacy = errorOf(() => parseTranscript(JSON.stringify({ ...header, messages: [user('u1', 'hi'), 42] })));
    expect(legacy.message).toContain('messages[1] is number, expected a message record');
  });
});
