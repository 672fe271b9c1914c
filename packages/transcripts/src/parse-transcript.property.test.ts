import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_ERROR_CODES, TranscriptError } from './errors.js';
import { parseTranscript } from './parse-transcript.js';
import { testSize } from '../../../test/support/test-size.js';

const CODES: readonly string[] = Object.values(TRANSCRIPT_ERROR_CODES);

/** Imports `text` both ways (strict and skipping); anything thrown must be a TranscriptError with a documented code. */
function importsOrFailsCleanly(text: string): void {
  for (const skipInvalid of [false, true]) {
    try {
      const transcript = parseTranscript(text, { file: 'fuzz.jsonl', skipInvalid });
      expect(Array.isArray(transcript.messages)).toBe(true);
      expect(JSON.stringify(transcript)).not.toContain('[native code]');
    } catch (error) {
      if (!TranscriptError.isInstance(error) || !CODES.includes(error.code))
        throw new Error(`not a documented transcript error: ${String(error)}`, { cause: error });
      expect(error.message).toMatch(/^transcript fuzz\.jsonl/);
    }
  }
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(({} as Record<string, unknown>)['type']).toBeUndefined();
}

/** Values with the shapes and keys the importers read, hostile keys included. */
const KEYS = [
  'type',
  'uuid',
  'sessionId',
  'leafUuid',
  'parentUuid',
  'isSidechain',
  'message',
  'id',
  'role',
  'content',
  'text',
  'thinking',
  'signature',
  'data',
  'tool_use_id',
  'name',
  'input',
  'is_error',
  'source',
  'media_type',
  'url',
  'usage',
  'input_tokens',
  'summary',
  'history',
  'action',
  'observation',
  'args',
  'tool_call_metadata',
  'tool_call_id',
  'function_name',
  'model_response',
  'choices',
  'tool_calls',
  'function',
  'arguments',
  'tool_call_ids',
  'cause',
  'info',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
] as const;
const WORDS = [
  'user',
  'assistant',
  'system',
  'tool',
  'summary',
  'text',
  'tool_use',
  'tool_result',
  'image',
  'document',
  'thinking',
  'redacted_thinking',
  'url',
  'base64',
  'message',
  'run',
  'agent',
  '__proto__',
  'constructor',
  'toString',
  'u1',
  'c1',
  '',
] as const;
const shaped = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...WORDS),
    fc.integer({ min: -2, max: 5 }),
    fc.boolean(),
    fc.constant(null),
    fc.string({ maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 7 }),
  ),
})).value;

/** JSON text with `__proto__` as an own key, as JSON.parse produces it. */
const stringify = (value: unknown) => JSON.stringify(value);

describe('transcript importers on arbitrary input (property)', () => {
  it('arbitrary strings and bytes (invalid UTF-8 included) import or fail with a TranscriptError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
        ),
        importsOrFailsCleanly,
      ),
      { numRuns: testSize(300), seed: 1401 },
    );
  });

  it('arbitrary JSON documents, and JSONL lines of them, import or fail with a TranscriptError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          shaped.map(stringify),
          fc.array(shaped, { minLength: 1, maxLength: 6 }).map((lines) => lines.map(stringify).join('\n')),
        ),
        importsOrFailsCleanly,
      ),
      { numRuns: testSize(400), seed: 1402 },
    );
  });

  it('lines that look like each format import or fail with a TranscriptError', () => {
    const claudeLine = fc.record(
      {
        type: fc.constantFrom('user', 'assistant', 'summary', 'system', '__proto__', 'constructor', 'toString'),
        uuid: fc.constantFrom('u1', 'u2', 'u3', ''),
        sessionId: fc.constant('s'),
        message: shaped,
        isSidechain: fc.boolean(),
        parentUuid: fc.constantFrom('u1', 'u2', null),
      },
      { requiredKeys: ['type', 'uuid', 'sessionId'] },
    );
    const claude = fc.array(claudeLine, { minLength: 1, maxLength: 6 }).map((lines) => lines.map(stringify).join('\n'));
    const event = fc.record(
      {
        id: fc.oneof(fc.integer({ min: 0, max: 5 }), shaped),
        source: fc.constantFrom('user', 'agent', 'environment'),
        action: fc.constantFrom('message', 'system', 'run', 'finish', '__proto__'),
        observation: fc.constantFrom('run', 'error', 'null', 'constructor'),
        args: shaped,
        tool_call_metadata: shaped,
        content: shaped,
        cause: shaped,
      },
      { requiredKeys: ['source'] },
    );
    const openhands = fc.oneof(
      fc.array(event, { minLength: 1, maxLength: 6 }).map(stringify),
      fc.array(event, { maxLength: 6 }).map((history) => stringify({ history, instance_id: 'i' })),
    );
    const entry = fc.record(
      {
        role: fc.constantFrom('system', 'user', 'assistant', 'tool', '__proto__', 'constructor'),
        content: shaped,
        tool_calls: shaped,
        tool_call_ids: shaped,
        tool_call_id: shaped,
      },
      { requiredKeys: ['role'] },
    );
    const sweAgent = fc.record({ history: fc.array(entry, { maxLength: 6 }), info: shaped }).map(stringify);
    fc.assert(fc.property(fc.oneof(claude, openhands, sweAgent), importsOrFailsCleanly), {
      numRuns: testSize(500),
      seed: 1403,
    });
  });
});
