import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groupMessages, type Message } from '@ctxhost/core';
import { readTranscript, type TranscriptOptions } from '@ctxhost/transcripts';

const corpus = (path: string): string => fileURLToPath(new URL(`./fixtures/corpus/${path}`, import.meta.url));

/**
 * Counts checked by hand with jq on the files: tool_use / tool_result blocks,
 * distinct assistant message ids (one usage record each), OpenHands finish
 * actions (a call that has no observation), SWE-agent is_demo entries.
 */
const cases: {
  file: string;
  options?: TranscriptOptions;
  format: string;
  messages: number;
  calls: number;
  results: number;
  usage?: number;
  orphanCalls: number;
}[] = [
  {
    file: 'claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
    format: 'claude-code',
    messages: 15,
    calls: 12,
    results: 12,
    usage: 7,
    orphanCalls: 0,
  },
  {
    file: 'claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    format: 'claude-code',
    messages: 21,
    calls: 13,
    results: 13,
    usage: 10,
    orphanCalls: 0,
  },
  {
    file: 'claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    options: { includeSidechains: true },
    format: 'claude-code',
    messages: 41,
    calls: 21,
    results: 21,
    usage: 20,
    orphanCalls: 0,
  },
  {
    file: 'claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
    format: 'claude-code',
    messages: 19,
    calls: 11,
    results: 11,
    usage: 9,
    orphanCalls: 0,
  },
  {
    file: 'claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
    options: { includeSidechains: true },
    format: 'claude-code',
    messages: 341,
    calls: 167,
    results: 167,
    usage: 170,
    orphanCalls: 0,
  },
  { file: 'openhands/basic_gui_mode.json', format: 'openhands', messages: 10, calls: 4, results: 4, orphanCalls: 0 },
  {
    file: 'openhands/multi-swe-bench-output.jsonl',
    format: 'openhands',
    messages: 47,
    calls: 23,
    results: 22,
    orphanCalls: 1,
  },
  {
    file: 'openhands/multi-swe-bench-output.jsonl',
    options: { run: 1 },
    format: 'openhands',
    messages: 68,
    calls: 33,
    results: 32,
    orphanCalls: 1,
  },
  {
    file: 'openhands/multi-swe-bench-output.jsonl',
    options: { run: 2 },
    format: 'openhands',
    messages: 101,
    calls: 49,
    results: 49,
    orphanCalls: 0,
  },
  {
    file: 'swe-agent/marshmallow-code__marshmallow-1867.traj',
    format: 'swe-agent',
    messages: 24,
    calls: 11,
    results: 11,
    orphanCalls: 0,
  },
  {
    file: 'swe-agent/pydicom__pydicom-1458.traj',
    format: 'swe-agent',
    messages: 26,
    calls: 11,
    results: 11,
    orphanCalls: 0,
  },
  {
    file: 'swe-agent/swe-agent__test-repo-i1.traj',
    format: 'swe-agent',
    messages: 12,
    calls: 4,
    results: 4,
    orphanCalls: 0,
  },
];

function callIds(messages: readonly Message[], type: 'tool-call' | 'tool-result'): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === type ? [part.callId] : [])));
}

describe('transcripts corpus', () => {
  it.each(cases)(
    '$file $options imports with hand-checked counts',
    async ({ file, options, format, messages, calls, results, usage, orphanCalls }) => {
      const transcript = await readTranscript(corpus(file), options);
      expect(transcript.format).toBe(format);
      expect(transcript.skipped).toBe(0);
      expect(transcript.messages).toHaveLength(messages);
      const callList = callIds(transcript.messages, 'tool-call');
      const resultList = callIds(transcript.messages, 'tool-result');
      expect(callList).toHaveLength(calls);
      expect(resultList).toHaveLength(results);
      expect(new Set(callList).size).toBe(calls);
      expect(resultList.filter((id) => !callList.includes(id))).toEqual([]);
      expect(callList.filter((id) => !resultList.includes(id))).toHaveLength(orphanCalls);
      expect(groupMessages(transcript.messages).filter((group) => group.orphan)).toHaveLength(orphanCalls);
      expect(transcript.usage?.length).toBe(usage);
      const ids = transcript.messages.flatMap((message) => [message.id, ...message.parts.map((part) => part.id)]);
      expect(new Set(ids).size).toBe(ids.length);
    },
  );

  it('re-imports give equal results', async () => {
    for (const { file, options } of cases)
      expect(await readTranscript(corpus(file), options)).toEqual(await readTranscript(corpus(file), options));
  });

  it('places Claude Code usage on the reply and the message before it', async () => {
    const transcript = await readTranscript(corpus('claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'));
    const first = transcript.usage![0]!;
    expect(first).toMatchObject({ messageIndex: 1, replyIndex: 2, requestId: 'req_011CSkYba8YAUvnXvqT4qm9G' });
    expect(first.usage).toMatchObject({
      inputTokens: 3,
      cacheCreationInputTokens: 10816,
      cacheReadInputTokens: 4734,
      outputTokens: 322,
    });
    for (const { replyIndex } of transcript.usage!) expect(transcript.messages[replyIndex]!.role).toBe('assistant');
    expect(transcript.messages[1]!.meta).toMatchObject({ isMeta: true });
  });

  it('keeps the summary line and the SWE-agent demonstration as metadata', async () => {
    const claude = await readTranscript(corpus('claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
    expect(claude.meta.summaries).toEqual([
      { summary: 'Empty Repo Setup: CLAUDE.md Foundation Created', leafUuid: '549b3502-6e30-4fa5-869f-c998df26c3f0' },
    ]);
    const swe = await readTranscript(corpus('swe-agent/pydicom__pydicom-1458.traj'));
    expect(swe.messages.filter((message) => message.meta?.isDemo === true)).toHaveLength(1);
    expect(swe.meta.runs).toBeUndefined();
    const openhands = await readTranscript(corpus('openhands/multi-swe-bench-output.jsonl'));
    expect(openhands.meta).toMatchObject({ runs: 3, run: 0, instanceId: 'ponylang__ponyc-4595' });
  });
});
