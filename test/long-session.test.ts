import { join } from 'node:path';
import { parseTranscript, readTranscript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { CORPUS_FILES, generateLongSession } from './support/long-session.js';

describe('generateLongSession', () => {
  it('drives the agent loop into a session whose tool outputs are the corpus outputs, and writes it as a Claude Code transcript', async () => {
    const session = await generateLongSession({ seed: 7, requests: 8, cache: false });
    const again = await generateLongSession({ seed: 7, requests: 8, cache: false });
    expect(again.transcript).toBe(session.transcript);
    expect(session.modelRequests).toBe(session.usage.length);
    expect(session.modelRequests).toBeGreaterThan(8);
    const transcript = parseTranscript(session.transcript);
    expect(transcript.format).toBe('claude-code');
    expect(transcript.usage).toHaveLength(session.modelRequests);
    const outputs = (messages: typeof transcript.messages) =>
      messages.flatMap((message) =>
        message.parts.flatMap((part) =>
          part.type === 'tool-result' && typeof part.output === 'string' ? [part.output] : [],
        ),
      );
    expect(outputs(transcript.messages)).toEqual(outputs(session.messages));
    const corpus = new Set<string>();
    for (const [folder, files] of Object.entries(CORPUS_FILES)) {
      if (folder === 'swe-agent') continue;
      for (const file of files) {
        for (const message of (
          await readTranscript(join(import.meta.dirname, 'fixtures', 'corpus', folder, file), {
            includeSidechains: true,
            skipInvalid: true,
          })
        ).messages) {
          for (const part of message.parts) {
            if (part.type === 'tool-result')
              corpus.add(
                typeof part.output === 'string'
                  ? part.output
                  : part.output.map((item) => (item.type === 'text' ? item.text : '')).join('\n'),
              );
            if (part.type === 'text') corpus.add(part.text);
          }
        }
      }
    }
    expect(outputs(session.messages).filter((output) => !corpus.has(output))).toEqual([]);
    expect(
      session.messages.some((message) =>
        message.parts.some((part) => part.type === 'tool-result' && part.output.length > 2_000),
      ),
    ).toBe(true);
    const prompts = session.usage.map(
      (usage) => usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens,
    );
    expect(prompts.every((prompt, index) => index === 0 || prompt >= prompts[index - 1]!)).toBe(true);
    expect(session.peakPromptTokens).toBe(Math.max(...prompts));
  });

  it('draws on SWE-agent sessions too: their task statements are the requests, their observations the outputs', async () => {
    const session = await generateLongSession({ seed: 3, requests: 2, sources: ['swe-agent'], cache: false });
    expect(session.modelRequests).toBeGreaterThan(2);
    const asked = session.messages.filter((message) => message.role === 'user').map((message) => message.parts);
    expect(asked.flat().some((part) => part.type === 'text' && part.text.includes('solving the following issue'))).toBe(
      true,
    );
  });

  it('gives other sessions for other seeds', async () => {
    const [a, b] = await Promise.all([
      generateLongSession({ seed: 1, requests: 4, cache: false }),
      generateLongSession({ seed: 2, requests: 4, cache: false }),
    ]);
    expect(a.transcript).not.toBe(b.transcript);
  });
});
