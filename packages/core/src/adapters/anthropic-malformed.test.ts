import { describe, expect, it } from 'vitest';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { fromAnthropic } from './anthropic-adapter.js';
import type { AnthropicMessageParam } from './anthropic-wire-types.js';

describe('fromAnthropic on malformed input', () => {
  it.each([
    ['not a list', 'hello'],
    ['a null message', [null]],
    ['a number as a message', [42]],
    ['a null block', [{ role: 'user', content: [null] }]],
  ])('%s: CTXHOST_ADAPTER_INVALID naming where, never a raw TypeError', (_name, input) => {
    let caught: unknown;
    try {
      fromAnthropic(input as unknown as AnthropicMessageParam[]);
    } catch (error) {
      caught = error;
    }
    expect(CtxhostError.hasCode(caught, CORE_ERROR_CODES.adapterInvalid)).toBe(true);
    expect((caught as Error).message).toMatch(/messages/);
  });
});
