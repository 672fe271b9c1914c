import { describe, expect, it } from 'vitest';
import { TranscriptError } from './errors.js';
import { parseTranscript } from './parse-transcript.js';

const TIME = '2026-01-01T00:00:00.000Z';

/** The least CPU time of three parses, at least 5 ms (CPU time, not wall time: the machine may be busy with other work). */
function timed(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = process.cpuUsage();
    parseTranscript(text, { skipInvalid: true });
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.max(5, best);
}

const codexHeader = JSON.stringify({ timestamp: TIME, type: 'session_meta', payload: { id: 's', cwd: '/w' } });
const codexItems = (count: number, type: (index: number) => string): string =>
  [
    codexHeader,
    ...Array.from({ length: count }, (_, index) =>
      JSON.stringify({ timestamp: TIME, type: 'response_item', payload: { type: type(index) } }),
    ),
  ].join('\n');

describe('hostile transcripts', () => {
  it('counts Codex item types named like Object.prototype members as types', () => {
    const names = ['constructor', '__proto__', 'toString', 'constructor'];
    const transcript = parseTranscript(codexItems(names.length, (index) => names[index]!));
    expect(transcript.meta?.skippedItemTypes).toStrictEqual(
      JSON.parse('{"constructor": 2, "__proto__": 1, "toString": 1}'),
    );
  });

  // The old importer copied the type counts per item: quadratic (minutes at 20,000 lines).
  it('reads a Codex file with a new item type per line in time linear in its size', () => {
    const build = (count: number) => codexItems(count, (index) => `type_${index}`);
    expect(timed(build(20_000)) / timed(build(5_000))).toBeLessThan(10);
  });

  it('reads a Codex file of token counts with no reply between compactions in time linear in its size', () => {
    const build = (count: number) =>
      codexItems(0, String)
        .split('\n')
        .concat(
          Array.from({ length: count }, (_, index) =>
            index % 3 === 2
              ? JSON.stringify({ timestamp: TIME, type: 'compacted', payload: { message: 'sum' } })
              : JSON.stringify({
                  timestamp: TIME,
                  type: 'event_msg',
                  payload: {
                    type: 'token_count',
                    info: {
                      last_token_usage: { input_tokens: 5, output_tokens: 1 },
                      total_token_usage: { total_tokens: index },
                    },
                  },
                }),
          ),
        )
        .join('\n');
    expect(timed(build(20_000)) / timed(build(5_000))).toBeLessThan(10);
  });

  // A crafted Gemini CLI file of 2.2 MB once took 95 s: each rewind scanned the whole session.
  it('reads a Gemini CLI file of messages, then a rewind per line, in time linear in its size', () => {
    const build = (count: number) => {
      const lines = [JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: TIME, kind: 'main' })];
      for (let index = 0; index < count; index++)
        lines.push(JSON.stringify({ id: `m${index}`, timestamp: TIME, type: 'user', content: 'hi' }));
      for (let index = 0; index < count; index++) lines.push(JSON.stringify({ $rewindTo: `m${count - 1}` }));
      return lines.join('\n');
    };
    expect(timed(build(20_000)) / timed(build(5_000))).toBeLessThan(10);
  });

  it('refuses a Gemini function response nested 200,000 deep with the line, not a RangeError', () => {
    const deep = `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`;
    const text = [
      JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: TIME, kind: 'main' }),
      JSON.stringify({ id: 'u', timestamp: TIME, type: 'user', content: 'read' }),
      `{"id":"g","timestamp":"${TIME}","type":"gemini","content":"","toolCalls":[{"id":"c","name":"read_file","args":{},"result":[{"functionResponse":{"id":"c","name":"read_file","response":${deep}}}],"status":"success"}]}`,
    ].join('\n');
    let caught: unknown;
    try {
      parseTranscript(text, { file: 'deep.jsonl' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TranscriptError);
    expect((caught as Error).message).toMatch(/deep\.jsonl:3: .*nested too deeply/);
  });
});
