import { describe, expect, it } from 'vitest';
import { createMessage } from '../model/part-ids.js';
import { deriveProbes } from './derive-probes.js';
import { missedProbes } from './check-probes.js';
import { codingSpan } from './fidelity.test-helper.js';

describe('deriveProbes', () => {
  it('derives one probe per kind of fact a compaction loses', () => {
    const probes = deriveProbes(codingSpan());
    const texts = (kind: string) => probes.filter((probe) => probe.kind === kind).map((probe) => probe.text);
    expect(texts('file')).toEqual(['src/server/router.ts', 'src/server/rateLimiter.ts']);
    expect(texts('command')).toEqual(['npx vitest run packages/server']);
    expect(texts('error')).toEqual([
      'npx vitest run packages/server → exit 1: TypeError: bucket.take is not a function',
    ]);
    expect(texts('constraint')).toEqual([
      'Never change the public `handleRequest` signature.',
      'No, keep the limit at 100 requests per minute, not 60.',
    ]);
    expect(texts('decision')).toEqual(['I decided to use a token bucket per client instead of a fixed window.']);
    expect(texts('identifier')).toContain('handleRequest');
    expect(texts('ask')).toEqual(['No, keep the limit at 100 requests per minute, not 60.']);
  });

  it('is the same on the same span (no model, no randomness)', () => {
    expect(deriveProbes(codingSpan())).toStrictEqual(deriveProbes(codingSpan()));
  });

  it('finds what a faithful summary names and misses what it drops', () => {
    const probes = deriveProbes(codingSpan());
    const summary = createMessage('user', [
      {
        type: 'text',
        text:
          'Adding rate limiting in ./src/server/router.ts without changing handleRequest. Wrote src/server/rateLimiter.ts ' +
          '(token bucket per client rather than a fixed window). Ran npx vitest run packages/server: it failed with ' +
          'TypeError bucket.take is not a function. The user wants the limit kept at 100 requests per minute.',
      },
    ]);
    const missed = missedProbes(probes, [summary]).map((probe) => probe.kind);
    expect(missed).toEqual([]);
    const vague = createMessage('user', [{ type: 'text', text: 'We worked on the server for a while.' }]);
    expect(missedProbes(probes, [vague]).length).toBe(probes.length);
  });

  it('stays linear on hostile text (a long run of path-like and backtick characters)', () => {
    const hostile = `${'a/'.repeat(50_000)}x ${'`'.repeat(20_000)} ${'_a'.repeat(30_000)}`;
    const started = performance.now();
    deriveProbes([createMessage('user', [{ type: 'text', text: hostile }])]);
    missedProbes(deriveProbes(codingSpan()), [createMessage('user', [{ type: 'text', text: hostile }])]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
