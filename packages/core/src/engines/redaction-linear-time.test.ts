import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/config-defaults.js';
import { createSecretRedactor, secretRedactorFromConfig } from './secret-redactor.js';

/** The fastest of two runs, in milliseconds. */
function timed(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 2; round++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Text of about `bytes` made of `unit` repeated. */
const sized = (unit: string, bytes: number): string => unit.repeat(Math.ceil(bytes / unit.length));

// Half a megabyte against two: enough to tell 4x from 16x, small enough for the unit run (the chaos bench runs 1 and 4 MB).
const MB = 500_000;
const redactor = createSecretRedactor();
// A backtracking engine takes exponential time on this pattern; RE2 takes linear time.
const configured = secretRedactorFromConfig({
  ...DEFAULT_CONFIG.redaction,
  patterns: [{ type: 'catastrophic', regex: '^(\\w+\\s?)*$' }],
});

/*
 * Work is linear when 4 MB takes about 4 times as long as 1 MB; a quadratic scan takes 16 times as
 * long. The bound (10, or under 150 ms in all) leaves room for a busy machine without letting a
 * quadratic one through.
 */
describe('redaction takes time linear in the text', () => {
  it.each([
    ['JWT-like runs (-eyJ repeated)', '-eyJ'],
    ['key prefixes', 'sk-ant-'],
    ['scheme-like prefixes', 'a://b:c'],
    ['assignments without a value end', 'password='],
    ['secret names before long tokens', 'token aB3dE5fG7hJ9kL1m '],
    ['percent escapes', 'a%3Db%26'],
    ['base64 text', 'REJfUEFTU1dPUkQ9aHVudGVyMg'],
    ['BEGIN lines without an END', '-----BEGIN RSA PRIVATE KEY-----\n'],
    ['quotes after a secret name', 'token: "'],
    ['mysql without -p', 'mysql -u root '],
  ])('on %s', (_name, unit) => {
    const small = sized(unit, MB);
    const large = sized(unit, 4 * MB);
    const ratio =
      timed(() => redactor.redactText(large)) /
      Math.max(
        1,
        timed(() => redactor.redactText(small)),
      );
    expect(ratio).toBeLessThan(10);
  });

  it('runs a configured catastrophic pattern in linear time (RE2)', () => {
    const small = `${sized('a ', MB)}!`;
    const large = `${sized('a ', 4 * MB)}!`;
    const ratio =
      timed(() => configured.redactText(large)) /
      Math.max(
        1,
        timed(() => configured.redactText(small)),
      );
    expect(ratio).toBeLessThan(10);
  });
});
