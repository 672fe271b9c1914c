import { describe, expect, it } from 'vitest';
import { nativeFieldsOf, withoutNativeFields } from './native-fields.js';

describe('nativeFieldsOf', () => {
  it("reads Anthropic's edits and betas", () => {
    const edit = { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 } };
    expect(nativeFieldsOf({ betas: ['compact-2026-01-12'], context_management: { edits: [edit] } })).toEqual({
      vendor: 'anthropic',
      betas: ['compact-2026-01-12'],
      contextManagement: { edits: [edit] },
    });
  });

  it("reads the Responses API's array as OpenAI's", () => {
    const entry = { type: 'compaction', compact_threshold: 100_000 };
    expect(nativeFieldsOf({ context_management: [entry] })).toEqual({ vendor: 'openai', contextManagement: [entry] });
  });

  it('is undefined without native fields, and strips them for a carrier that cannot send them', () => {
    expect(nativeFieldsOf(undefined)).toBeUndefined();
    expect(nativeFieldsOf({ context_management: 'nonsense' })).toBeUndefined();
    expect(withoutNativeFields({ betas: ['x'], context_management: [], metadata: { a: 1 } })).toEqual({
      metadata: { a: 1 },
    });
    expect(withoutNativeFields({ betas: ['x'] })).toBeUndefined();
  });
});
