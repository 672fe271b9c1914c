import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue, Message } from '../model/message.js';
import { redactMessages } from './redact-messages.js';
import { createSecretRedactor, secretRedactorFromConfig } from './secret-redactor.js';
import { DEFAULT_CONFIG } from '../config/config-defaults.js';

const redactor = createSecretRedactor();
const SECRET = 'hunter2-Zq8xV3';

const message = (parts: Message['parts']): Message => ({ id: 'm1', role: 'assistant', parts });

describe('redactMessages', () => {
  it.each([
    ['a password in an array', { password: [SECRET] }],
    ['a password in an object', { credentials: { user: 'me', value: SECRET } }],
    ['a numeric secret', { api_key: 87_654_321, note: SECRET.length }],
    ['a secret as an object key', { [`ghp_${'Ab3dEf9hIjK1mNoPqRsTuVwXyZ0123456789'}`]: true }],
    ['JSON inside a JSON string', { body: JSON.stringify({ auth: { token: SECRET } }) }],
    ['deep nesting', JSON.parse(`${'{"a":'.repeat(50)}{"secret":"${SECRET}"}${'}'.repeat(50)}`) as JsonValue],
  ])('redacts %s in a tool-call input', (_name, input) => {
    const [out] = redactMessages(
      [message([{ id: 'p', type: 'tool-call', callId: 'c', name: 'run', input }])],
      redactor,
    );
    const text = JSON.stringify(out);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('87654321');
    expect(text).not.toContain('ghp_');
  });

  it('redacts tool names, text files, URLs and extra fields', () => {
    const key = `sk-ant-api03-${'Ab3dEf9hIjK1mNoPqRsT'.repeat(3)}`;
    const [out] = redactMessages(
      [
        message([
          { id: 'a', type: 'tool-call', callId: 'c', name: `call_${key}`, input: {}, extra: { password: SECRET } },
          { id: 'b', type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: `DB_PASSWORD=${SECRET}` } },
          { id: 'c', type: 'image', source: { kind: 'url', url: `https://u:${SECRET}@example.com/i.png` } },
          {
            id: 'd',
            type: 'tool-result',
            callId: 'c',
            output: [{ type: 'text', text: 'ok', extra: { citation: `token=${SECRET}` } }],
          },
        ]),
      ],
      redactor,
    );
    const text = JSON.stringify(out);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(key);
  });

  it('never throws and keeps no planted secret, whatever JSON surrounds it', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.constantFrom('password', 'api_key', 'token', 'Authorization'),
        (around, key) => {
          const input = { wrapper: [around, { [key]: around === null ? SECRET : [around, SECRET] }] } as JsonValue;
          const [out] = redactMessages(
            [message([{ id: 'p', type: 'tool-call', callId: 'c', name: 't', input }])],
            redactor,
          );
          expect(JSON.stringify(out)).not.toContain(SECRET);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('uses the configured redactor (a configured pattern, run on RE2)', () => {
    const configured = secretRedactorFromConfig({
      ...DEFAULT_CONFIG.redaction,
      patterns: [{ type: 'acme', regex: 'acme_[a-z0-9]{8,}' }],
    });
    const [out] = redactMessages([message([{ id: 'p', type: 'text', text: 'use acme_abcdef123456 now' }])], configured);
    expect(JSON.stringify(out)).toContain('[REDACTED:acme]');
  });
});
