import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigFileSchema, toCtxhostConfig } from '../config/config-file-schema.js';
import { createSecretRedactor, secretRedactorFromConfig } from './secret-redactor.js';

const redactor = createSecretRedactor();

/** One sample per type, and where it sits in text: [type, text around, the secret]. */
const SAMPLES: [string, string, string][] = [
  ['anthropic-key', 'export ANTHROPIC_API_KEY=SECRET', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abc'],
  ['openai-key', 'OPENAI_API_KEY=SECRET', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['openai-key', 'use SECRET for the call', 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz01234567'],
  ['github-token', 'git clone https://SECRET@github.com/a/b', 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['github-token', 'token SECRET', 'gho_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['github-token', 'GH_TOKEN=SECRET', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP'],
  ['aws-access-key', 'aws_access_key_id = SECRET', 'AKIAIOSFODNN7EXAMPLE'],
  ['password', 'aws_secret_access_key = SECRET', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['google-api-key', 'key=SECRET&q=1', 'AIzaSyA1234567890abcdefghijklmnopqrstuv'],
  ['slack-token', 'SLACK=SECRET', 'xoxb-1234567890-abcdefghijklmnop'],
  ['stripe-key', 'stripe.api_key = "SECRET"', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
  ['stripe-key', 'restricted SECRET', 'rk_live_4eC39HqLyjWDarjtT1zdp7dc'],
  ['bearer-token', 'curl -H "Authorization: Bearer SECRET" https://x', 'abc123def456ghi789jkl012'],
  ['database-connection-string', 'see postgres://admin:SECRET@db.internal:5432/app', 'hunter2-s3cret'],
  ['password', 'login with password=SECRET please', 'correct-horse-battery'],
  ['password', 'password: SECRET', 'Tr0ub4dor&3x'.replace('&', '')],
  ['password', '{"password": "SECRET"}', 'pa55word!'],
  [
    'private-key',
    'key:\nSECRET\nrest',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabcdef==\n-----END RSA PRIVATE KEY-----',
  ],
];

describe('secret redactor', () => {
  it.each(SAMPLES)('replaces a %s by its typed placeholder', (type, around, secret) => {
    const { text, found } = redactor.redact(around.replace('SECRET', secret));
    expect(text).not.toContain(secret);
    expect(text).toContain(`[REDACTED:${type}]`);
    expect(found[type]).toBeGreaterThanOrEqual(1);
  });

  it('reads a password cut short by a space mid-line to the line end (a secret holding spaces, not a two-character one)', () => {
    const { text } = redactor.redact('use this: DB_PASSWORD=F* GU$g8a\nnext line');
    expect(text).not.toContain('GU$g8a');
    expect(text).toContain('next line');
    expect(redactor.redact('echo DB_PASSWORD=hunter2 then ls').text).toContain('then ls');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Fix the failing test in src/auth/session.ts; the password field must be validated. Run pnpm test.';
    expect(redactor.redactText(text)).toBe(text);
  });

  it('redacts a private key whose END line was cut off, to the end of the text', () => {
    expect(redactor.redactText('x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt')).toBe(
      'x\n[REDACTED:private-key]',
    );
  });

  it('takes configured patterns and can leave built-ins out', () => {
    const config = toCtxhostConfig(
      ConfigFileSchema.parse({
        redaction: { disable: ['password'], patterns: [{ type: 'acme-token', regex: 'acme_[a-z0-9]{8,}' }] },
      }),
    );
    const custom = secretRedactorFromConfig(config.redaction);
    expect(custom.redactText('use acme_abcdef123456 with password=hunter22')).toBe(
      'use [REDACTED:acme-token] with password=hunter22',
    );
    expect(
      secretRedactorFromConfig({ ...config.redaction, enabled: false }).redactText(
        'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz',
      ),
    ).toContain('sk-ant');
  });

  it('rejects a pattern that is not a regular expression, naming the key', () => {
    const result = ConfigFileSchema.safeParse({ redaction: { patterns: [{ type: 'x', regex: '(unclosed' }] } });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('a valid regular expression');
  });

  it.each([
    ['a lookahead', 'token(?=[0-9])'],
    ['a backreference', '(a+)\\1'],
  ])('refuses a pattern RE2 cannot run (%s) at load, with the reason and what to do', (_name, regex) => {
    const result = ConfigFileSchema.safeParse({ redaction: { patterns: [{ type: 'x', regex }] } });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path).toStrictEqual(['redaction', 'patterns', 0, 'regex']);
    expect(issue.message).toMatch(
      /^a pattern that runs in linear time \(RE2 cannot run it: .+; rewrite it without lookarounds or backreferences\)$/,
    );
  });

  it('accepts a pattern a backtracking engine would take exponential time on: it runs on RE2', () => {
    expect(
      ConfigFileSchema.safeParse({ redaction: { patterns: [{ type: 'x', regex: '^(\\w+\\s?)*$' }] } }).success,
    ).toBe(true);
  });

  describe('fuzzed', () => {
    const noise = fc.string({
      unit: fc.constantFrom('a', 'b', 'Z', '0', ' ', '\n', '-', '_', '/', ':', '=', '@', '.', '"', 'k', 's'),
      maxLength: 60,
    });
    const sample = fc.constantFrom(...SAMPLES);
    const separator = fc.constantFrom(' ', '\n', '\t', ' , ');

    it('never throws, is idempotent, and no planted secret survives', () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(noise, sample, separator), { maxLength: 6 }), noise, (pieces, end) => {
          const text =
            pieces
              .map(([before, [, around, secret], sep]) => `${before}${sep}${around.replace('SECRET', secret)}${sep}`)
              .join('') + end;
          const once = redactor.redactText(text);
          expect(redactor.redactText(once)).toBe(once);
          for (const [, [, , secret]] of pieces) expect(once).not.toContain(secret);
        }),
        { numRuns: 400 },
      );
    });

    it('is idempotent on arbitrary text', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 300 }), (text) => {
          const once = redactor.redactText(text);
          expect(redactor.redactText(once)).toBe(once);
        }),
        { numRuns: 400 },
      );
    });
  });

  // Adversarial inputs for each pattern's prefix, about a megabyte each: a quadratic pattern would not finish within the test timeout.
  it.each([
    ['many key prefixes', 'sk-'.repeat(350_000)],
    ['many BEGIN lines without an END', '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(30_000)],
    ['a long run of key characters', `sk-ant-${'a'.repeat(1_000_000)}`],
    ['many scheme-like prefixes', 'a://b:c'.repeat(150_000)],
    ['many password= without a value end', 'password='.repeat(110_000)],
    ['many bearer words', 'Bearer '.repeat(140_000)],
    ['jwt-like runs', 'eyJ'.repeat(330_000)],
  ])('stays fast on %s', (_name, text) => {
    expect(typeof redactor.redactText(text)).toBe('string');
  });
});
