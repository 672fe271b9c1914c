import { describe, expect, it, vi } from 'vitest';
import {
  boundAfterFit,
  boundAfterRejection,
  capSessionWindow,
  learnedWindowBound,
  relaxLearnedWindow,
  setLearnedSessionWindow,
  setLearnedWindowBound,
  withLearnedWindow,
} from './learned-window.js';

describe('the window bound an overflow that named no limit teaches', () => {
  it('keeps the smallest prompt refused and the largest answered under it', () => {
    const refused = boundAfterRejection(boundAfterRejection(undefined, 13_000), 9_000);
    expect(refused).toEqual({ rejected: 9_000 });
    const fitted = boundAfterFit(refused, 4_000);
    expect(fitted).toEqual({ fits: 4_000, rejected: 9_000 });
    expect(boundAfterFit(fitted, 3_000)).toEqual({ fits: 4_000, rejected: 9_000 });
    expect(boundAfterFit(fitted, 6_000)).toEqual({ fits: 6_000, rejected: 9_000 });
  });

  it('forgets the bound when a prompt as large as one refused is answered', () => {
    expect(boundAfterFit({ fits: 4_000, rejected: 9_000 }, 9_000)).toBeUndefined();
    expect(boundAfterFit(undefined, 9_000)).toBeUndefined();
  });

  it('drops a fit a later refusal contradicts', () => {
    expect(boundAfterRejection({ fits: 4_000, rejected: 9_000 }, 3_500)).toEqual({ rejected: 3_500 });
    expect(boundAfterRejection({ fits: 4_000, rejected: 9_000 }, 8_000)).toEqual({ fits: 4_000, rejected: 8_000 });
  });

  it('caps a model window per host by the largest prompt answered', () => {
    const host = {};
    const other = {};
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(400_000);
    setLearnedWindowBound(host, 'gpt-5.5', { rejected: 9_000 });
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(400_000);
    setLearnedWindowBound(host, 'gpt-5.5', { fits: 4_000, rejected: 9_000 });
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(4_000);
    expect(withLearnedWindow(host, 'gpt-5.5', undefined)).toBe(4_000);
    expect(withLearnedWindow(host, 'gpt-5.5', 3_000)).toBe(3_000);
    expect(withLearnedWindow(host, 'gpt-4o', 128_000)).toBe(128_000);
    expect(withLearnedWindow(other, 'gpt-5.5', 400_000)).toBe(400_000);
    setLearnedWindowBound(host, 'gpt-5.5', undefined);
    expect(learnedWindowBound(host, 'gpt-5.5')).toBeUndefined();
  });

  it('relaxes a model’s bound by an answered prompt, counting it only when a bound is learned', () => {
    const host = {};
    const count = vi.fn(() => 6_000);
    expect(relaxLearnedWindow(host, 'gpt-5.5', count)).toBe(false);
    expect(count).not.toHaveBeenCalled();
    setLearnedWindowBound(host, 'gpt-5.5', { fits: 4_000, rejected: 9_000 });
    expect(relaxLearnedWindow(host, 'gpt-5.5', count)).toBe(true);
    expect(learnedWindowBound(host, 'gpt-5.5')).toEqual({ fits: 6_000, rejected: 9_000 });
    expect(relaxLearnedWindow(host, 'gpt-5.5', () => 5_000)).toBe(false);
    expect(relaxLearnedWindow(host, 'gpt-5.5', () => 9_000)).toBe(true);
    expect(learnedWindowBound(host, 'gpt-5.5')).toBeUndefined();
  });

  it('caps a session’s window at each turn by the model’s bound as it is then, keeping a window set since as its own', () => {
    const host = {};
    const session: { contextWindow: number | undefined } = { contextWindow: undefined };
    setLearnedWindowBound(host, 'gpt-5.5', { fits: 4_000, rejected: 9_000 });
    capSessionWindow(host, 'gpt-5.5', session, 150_000);
    expect(session.contextWindow).toBe(4_000);
    // Raised by another session, then forgotten: each turn follows it.
    setLearnedWindowBound(host, 'gpt-5.5', { fits: 6_000, rejected: 9_000 });
    capSessionWindow(host, 'gpt-5.5', session, session.contextWindow);
    expect(session.contextWindow).toBe(6_000);
    // A raise the session's own answer made is a learned cap too.
    setLearnedWindowBound(host, 'gpt-5.5', { fits: 7_000, rejected: 9_000 });
    setLearnedSessionWindow(session, 7_000);
    setLearnedWindowBound(host, 'gpt-5.5', undefined);
    capSessionWindow(host, 'gpt-5.5', session, session.contextWindow);
    expect(session.contextWindow).toBe(150_000);
    // A limit an overflow stated is the session's own window from then on, capped by a bound learned later.
    session.contextWindow = 120_000;
    setLearnedWindowBound(host, 'gpt-5.5', { fits: 5_000, rejected: 9_000 });
    capSessionWindow(host, 'gpt-5.5', session, session.contextWindow);
    expect(session.contextWindow).toBe(5_000);
    setLearnedWindowBound(host, 'gpt-5.5', undefined);
    capSessionWindow(host, 'gpt-5.5', session, session.contextWindow);
    expect(session.contextWindow).toBe(120_000);
  });
});
