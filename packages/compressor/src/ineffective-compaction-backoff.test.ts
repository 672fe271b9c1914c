import { describe, expect, it } from 'vitest';
import { createIneffectiveCompactionBackoff } from './ineffective-compaction-backoff.js';

describe('ineffective compaction backoff', () => {
  it('after a compaction that saved under 10%, waits for the prompt to grow by 10% of the window', () => {
    const backoff = createIneffectiveCompactionBackoff();
    expect(backoff.allows('s', 6_000, 10_000)).toBe(true);
    backoff.started('s', 6_000);
    expect(backoff.finished('s', 6_000, 5_500, 10_000)).toBe(7_000);
    expect(backoff.allows('s', 6_200, 10_000)).toBe(false);
    expect(backoff.allows('s', 6_999, 10_000)).toBe(false);
    expect(backoff.allows('s', 7_000, 10_000)).toBe(true);
    expect(backoff.allows('other', 6_200, 10_000)).toBe(true);
  });

  it('does not back off after a compaction that saved 10% or more', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 6_000);
    expect(backoff.finished('s', 6_000, 5_400, 10_000)).toBeUndefined();
    expect(backoff.allows('s', 6_000, 10_000)).toBe(true);
  });

  it('counts a compaction that found nothing to shorten as ineffective', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 6_000);
    backoff.finished('s', 6_000, 6_000, 10_000);
    expect(backoff.allows('s', 6_500, 10_000)).toBe(false);
  });

  it('forgets a session a recovery rewrote', () => {
    const backoff = createIneffectiveCompactionBackoff();
    backoff.started('s', 6_000);
    backoff.finished('s', 6_000, 5_900, 10_000);
    backoff.forget('s');
    expect(backoff.allows('s', 6_000, 10_000)).toBe(true);
  });

  it('keeps at most maxSessions sessions, dropping the least recently compacted', () => {
    const backoff = createIneffectiveCompactionBackoff({ maxSessions: 2 });
    for (const id of ['a', 'b', 'c']) {
      backoff.started(id, 6_000);
      backoff.finished(id, 6_000, 5_900, 10_000);
    }
    expect(backoff.allows('a', 6_000, 10_000)).toBe(true);
    expect(backoff.allows('b', 6_000, 10_000)).toBe(false);
    expect(backoff.allows('c', 6_000, 10_000)).toBe(false);
  });
});
