import { describe, expect, it } from 'vitest';
import { aiSdkContextManagement, nativeFieldsOf, withoutNativeFields } from './native-fields.js';

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

describe('aiSdkContextManagement', () => {
  it("spells each edit's top-level keys as the AI SDK does and leaves the values alone", () => {
    const edit = {
      type: 'clear_tool_uses_20250919',
      clear_at_least: { type: 'input_tokens', value: 5_000 },
      exclude_tools: ['read_file'],
      clear_tool_inputs: true,
    };
    expect(aiSdkContextManagement([edit])).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          clearAtLeast: { type: 'input_tokens', value: 5_000 },
          excludeTools: ['read_file'],
          clearToolInputs: true,
        },
      ],
    });
  });
});
