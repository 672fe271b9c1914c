import { describe, expect, it } from 'vitest';
import { createIneffectiveCompactionBackoff } from './ineffective-compaction-backoff.js';

const sizes = (tokensBefore: number, tokensAfter: number) => ({
  tokensBefore,
  tokensAfter,
  contextWindow: 10_000,
  threshold: 0.5,
});

describe('ineffective compaction backoff', () => {
  it('after a compaction that saved under 10%, waits for the prompt to grow by 10% of the window', () => {
    const backoff = createIneffectiveCompactionBackoff();
    expect(backoff.allows('s', 6_000, 10_000)).toBe(true);
    backoff.started('s', 6_000);
    expect(backoff.finished('s', sizes(6_000, 5_500))).toBe(7_000);
    expect(backoff.allows('s', 6_200, 10_000)).toBe(false);
    expect(backoff.allows('s', 6_999, 10_000)).toBe(false);
    expect(backoff.allows('s', 7_000, 10_000)).toBe(true);
    expect(backoff.allows('other', 6_200, 10_000)).toBe(true);
  });

  it('does not back off after a compaction that saved 10% or more and got under the threshold', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 6_000);
    expect(backoff.finished('s', sizes(6_000, 4_800))).toBeUndefined();
    expect(backoff.allows('s', 6_000, 10_000)).toBe(true);
  });

  it('counts a compaction that found nothing to shorten as ineffective', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 6_000);
    backoff.finished('s', sizes(6_000, 6_000));
    expect(backoff.allows('s', 6_500, 10_000)).toBe(false);
  });

  it('after a compaction that left the prompt at or over the threshold, waits for 10% of the window of growth', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 9_000);
    // Saved 40%, still over half the window: the kept tail alone holds more than the threshold.
    expect(backoff.finished('s', sizes(9_000, 5_400))).toBe(6_400);
    expect(backoff.allows('s', 5_600, 10_000)).toBe(false);
    expect(backoff.allows('s', 6_400, 10_000)).toBe(true);
  });

  it('backs off after a compaction of another reason (no shouldCompress before it) that could not help', () => {
    const backoff = createIneffectiveCompactionBackoff();
    expect(backoff.finished('s', sizes(9_000, 8_000), false)).toBe(9_000);
    expect(backoff.allows('s', 8_100, 10_000)).toBe(false);
    expect(backoff.finished('t', sizes(9_000, 4_000), false)).toBeUndefined();
    expect(backoff.allows('t', 5_000, 10_000)).toBe(true);
  });

  it('forgets a session a recovery rewrote', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 6_000);
    backoff.finished('s', sizes(6_000, 5_900));
    backoff.forget('s');
    expect(backoff.allows('s', 6_000, 10_000)).toBe(true);
  });

  it('keeps at most maxSessions sessions, dropping the least recently compacted', () => {
    const backoff = createIneffectiveCompactionBackoff({ maxSessions: 2 });
    for (const id of ['a', 'b', 'c']) {
      backoff.started(id, 6_000);
      backoff.finished(id, sizes(6_000, 5_900));
    }
    expect(backoff.allows('a', 6_000, 10_000)).toBe(true);
    expect(backoff.allows('b', 6_000, 10_000)).toBe(false);
    expect(backoff.allows('c', 6_000, 10_000)).toBe(false);
  });
});
