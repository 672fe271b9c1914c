import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  nativeCompactionOf,
  openAICompactionItemOf,
  promptTokens,
  toResponsesInput,
  type Message,
} from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { CODEX_COMPACTION_PROMPT } from './codex.js';
import { detectFormat } from './detect-format.js';
import { TRANSCRIPT_ERROR_CODES, TranscriptError } from './errors.js';
import { parseTranscript } from './parse-transcript.js';
import { transcriptSegments } from './segments.js';

// A real rollout: codex-cli 0.169.0 against the simulator's /v1/responses, and what each of its requests sent (see the fixture's README).
const folder = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/codex');
const text = readFileSync(
  join(folder, 'rollout-2026-11-23T19-31-28-01a209e4-53a4-75d2-94d1-4a37d2834be0.jsonl'),
  'utf8',
);
const requests = JSON.parse(readFileSync(join(folder, 'requests.json'), 'utf8')) as {
  model: string;
  input: string[];
  usage: { input_tokens: number; cached_tokens: number; output_tokens: number };
}[];
const transcript = parseTranscript(text);

/** The response items a message came from (its parts' ids without the part number and the copy's `@L…`). */
function itemIds(message: Message): string[] {
  if (message.meta?.codexCompactionPrompt === true) return ['compaction-prompt'];
  const ids = message.parts.map((part) => part.id.replace(/\.\d+$/, '').replace(/@L\d+$/, ''));
  return ids.filter((id, index) => ids.indexOf(id) === index);
}

/** What a recorded request sent after the base instructions, as item ids. */
function sentIds(input: string[]): string[] {
  return input
    .slice(1)
    .map((item) => (item.includes('(no id') ? 'compaction-prompt' : item.split(':').slice(2).join(':')));
}

describe('the Codex importer on a real rollout', () => {
  it('is detected by content', () => {
    expect(detectFormat(text).format).toBe('codex');
    expect(transcript.format).toBe('codex');
    expect(transcript.meta).toMatchObject({
      sessionId: '01a209e4-53a4-75d2-94d1-4a37d2834be0',
      cliVersion: '0.169.0',
      cwd: '/tmp/codex-demo',
      modelProvider: 'ctxhost-simulator',
      repeatedTokenCounts: 2,
      skippedItems: 0,
    });
  });

  it('rebuilds exactly what each of the ten requests sent, and its usage', () => {
    const usage = transcript.usage ?? [];
    expect(usage).toHaveLength(requests.length);
    const segments = transcriptSegments(transcript);
    usage.forEach((entry, index) => {
      const request = requests[index]!;
      const segment = segments.findLast((candidate) => candidate.start <= entry.replyIndex)!;
      const seen = transcript.messages
        .slice(segment.start === 0 ? 1 : segment.start, entry.messageIndex + 1)
        .flatMap(itemIds);
      expect(seen, `request ${index + 1}`).toEqual(sentIds(request.input));
      expect(promptTokens(entry.usage)).toBe(request.usage.input_tokens);
      expect(entry.usage.cacheReadInputTokens).toBe(request.usage.cached_tokens);
      expect(entry.usage.outputTokens).toBe(request.usage.output_tokens);
      expect(transcript.messages[entry.replyIndex]?.meta?.model).toBe(request.model);
    });
    expect(transcript.messages[0]).toMatchObject({ role: 'system', meta: { codexRole: 'base-instructions' } });
  });

  it("marks Codex's compaction: its prompt and summary before the boundary, the replacement history after", () => {
    const [boundary] = transcript.boundaries ?? [];
    expect(boundary).toMatchObject({ line: 69, source: 'boundary-line' });
    expect(boundary).not.toHaveProperty('trigger');
    const before = transcript.messages.slice(boundary!.messageIndex - 2, boundary!.messageIndex);
    expect(before[0]?.parts).toMatchObject([{ type: 'text', text: CODEX_COMPACTION_PROMPT }]);
    expect(before[1]?.meta).toMatchObject({ compactionReply: true });
    const summary = transcript.messages[boundary!.summaryIndex!]!;
    expect(summary.meta).toMatchObject({ compactSummary: true });
    expect(summary.parts[0]).toMatchObject({ text: expect.stringMatching(/^Another language model started/) });
    expect(summary.parts[0]).toMatchObject({ text: expect.stringContaining('missing.txt does not exist.') });
  });

  it('pairs every call with its output and keeps reasoning with its encrypted content', () => {
    const parts = transcript.messages.flatMap((message) => message.parts);
    const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
    const results = parts.flatMap((part) => (part.type === 'tool-result' ? [part] : []));
    expect(calls.map((call) => call.callId)).toEqual(results.map((result) => result.callId));
    expect(calls[0]).toMatchObject({ name: 'exec_command', input: { cmd: 'ls -la' } });
    expect(results.find((result) => result.callId === 'call_cat_4')?.output).toContain('Process exited with code 1');
    expect(parts.find((part) => part.type === 'reasoning')).toMatchObject({
      text: 'The user wants the files listed; I will run ls.',
      extra: { encryptedContent: 'enc-call_ls_1' },
    });
  });
});

const line = (type: string, payload: object) =>
  JSON.stringify({ timestamp: '2026-11-23T10:00:00.000Z', type, payload });
const meta = line('session_meta', {
  id: 's1',
  cwd: '/w',
  cli_version: '0.90.0',
  base_instructions: { text: 'Be Codex.' },
});
const user = (id: string, text: string) =>
  line('response_item', { type: 'message', id, role: 'user', content: [{ type: 'input_text', text }] });

describe('the Codex importer on constructed lines', () => {
  it('reads custom tool calls, list outputs, legacy outputs and an older compaction without replacement history', () => {
    const rollout = [
      meta,
      line('turn_context', { model: 'gpt-5.1-codex' }),
      user('u1', 'patch it'),
      line('response_item', { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' }),
      line('response_item', { type: 'function_call', call_id: 'c2', name: 'shell', arguments: '{"command":["ls"]}' }),
      line('response_item', {
        type: 'custom_tool_call_output',
        call_id: 'c1',
        output: [{ type: 'input_text', text: 'Done' }],
      }),
      line('response_item', {
        type: 'function_call_output',
        call_id: 'c2',
        output: { content: 'boom', success: false },
      }),
      line('response_item', { type: 'web_search_call', status: 'completed' }),
      line('event_msg', { type: 'token_count', info: null }),
      line('compacted', { message: 'Summary: patched.' }),
      user('u2', 'next'),
    ].join('\n');
    const result = parseTranscript(rollout);
    expect(result.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
      'user',
    ]);
    expect(result.messages[2]?.parts).toMatchObject([
      { type: 'tool-call', callId: 'c1', input: { input: '*** Begin Patch' }, extra: { customTool: true } },
      { type: 'tool-call', callId: 'c2', input: { command: ['ls'] } },
    ]);
    expect(result.messages[3]?.parts).toMatchObject([
      { callId: 'c1', output: [{ type: 'text', text: 'Done' }] },
      { callId: 'c2', output: 'boom', isError: true },
    ]);
    expect(result.messages[2]?.meta).toMatchObject({ model: 'gpt-5.1-codex' });
    expect(result.boundaries).toEqual([{ messageIndex: 4, line: 10, source: 'boundary-line' }]);
    expect(result.messages[4]?.meta).toMatchObject({ compactSummary: true });
    expect(result.meta).toMatchObject({ skippedItems: 1, skippedItemTypes: { web_search_call: 1 } });
    expect(result.usage).toEqual([]);
  });

  it("keeps OpenAI's encrypted compaction item exactly, to send back to OpenAI (and as a note elsewhere)", () => {
    const item = { type: 'compaction', id: 'cmp_0a1', encrypted_content: 'gAAAAABsealed==' };
    const rollout = [meta, user('u1', 'go'), line('response_item', item), user('u2', 'next')].join('\n');
    const result = parseTranscript(rollout);
    expect(result.meta).toMatchObject({ skippedItems: 0 });
    const part = result.messages.flatMap((message) => message.parts).find((each) => nativeCompactionOf(each));
    expect(openAICompactionItemOf(part!)).toEqual(item);
    expect(toResponsesInput(result.messages)).toContainEqual(item);
    expect(() => parseTranscript([meta, line('response_item', { type: 'compaction' })].join('\n'))).toThrow(
      /encrypted_content/,
    );
  });

  it('names the broken line, and skips it under skipInvalid', () => {
    const rollout = [meta, user('u1', 'hi'), '{not json', user('u2', 'again')].join('\n');
    const error = (() => {
      try {
        parseTranscript(rollout, { file: 'rollout.jsonl' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(TranscriptError.isInstance(error)).toBe(true);
    expect((error as TranscriptError).code).toBe(TRANSCRIPT_ERROR_CODES.invalid);
    expect((error as TranscriptError).message).toMatch(/^transcript rollout\.jsonl:3: not valid JSON/);
    const skipped = parseTranscript(rollout, { skipInvalid: true });
    expect(skipped.skipped).toBe(1);
    expect(skipped.messages.map((message) => message.id)).toEqual(['s1.instructions', 'u1', 'u2']);
  });

  it('fails on tool arguments that are not JSON, naming the line and the call', () => {
    const rollout = [
      meta,
      line('response_item', { type: 'function_call', call_id: 'c9', name: 'shell', arguments: '{oops' }),
    ].join('\n');
    expect(() => parseTranscript(rollout, { file: 'r.jsonl' })).toThrow(
      /^transcript r\.jsonl:2: response_item: function_call c9: "arguments" is not JSON/,
    );
  });

  it('is not mistaken for another format, nor another format for it', () => {
    expect(detectFormat(JSON.stringify({ type: 'message', id: 'a', parentId: null })).format).not.toBe('codex');
    expect(detectFormat('{"type":"note","payload":1}').reasons.codex).toMatch(/not \{ type, payload \} objects/);
  });
});
