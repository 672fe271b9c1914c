import { describe, expect, it } from 'vitest';
import {
  CLEAR_THINKING,
  CLEAR_TOOL_USES,
  CLEARED_TOOL_RESULT_TEXT,
  CONTEXT_MANAGEMENT_BETA,
  createContextEditingFeature,
} from './context-editing.js';
import type { FeatureContext } from './features.js';
import { countTokens } from '../wire/tokenizer.js';
import type { ContentBlock, MessagesRequest, WireMessage } from '../wire/wire.js';

const output = 'lines of build output '.repeat(100);

function toolRounds(count: number, name = 'bash'): WireMessage[] {
  const messages: WireMessage[] = [{ role: 'user', content: 'start the work' }];
  for (let round = 0; round < count; round++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${round}`, name, input: { command: `step ${round}` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${round}`, content: `${output} ${round}` }],
    });
  }
  return messages;
}

function request(messages: WireMessage[], edits: Record<string, unknown>[]): MessagesRequest {
  return { model: 'm', max_tokens: 10, messages, context_management: { edits } };
}

function context(): FeatureContext {
  return {
    requestId: 'r',
    model: 'm',
    betas: new Set([CONTEXT_MANAGEMENT_BETA]),
    limits: { contextLimit: 200_000, overflowStyle: 'prompt_too_long', minCacheableTokens: 1024 },
    response: {},
    state: new Map(),
  };
}

function results(body: MessagesRequest): string[] {
  return body.messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.filter((block) => block.type === 'tool_result').map((block) => String(block['content'])),
  );
}

describe('context editing: clear_tool_uses_20250919', () => {
  const feature = createContextEditingFeature();

  it('clears all but the last `keep` tool results once the trigger is exceeded, and reports what it cleared', () => {
    const body = request(toolRounds(6), [
      { type: CLEAR_TOOL_USES, trigger: { type: 'input_tokens', value: 1000 }, keep: { type: 'tool_uses', value: 2 } },
    ]);
    const ctx = context();
    const edited = feature.prepareRequest!(body, ctx);
    const texts = results(edited);
    expect(texts.slice(0, 4)).toEqual(Array(4).fill(CLEARED_TOOL_RESULT_TEXT));
    expect(texts.slice(4).every((text) => text.startsWith('lines of build output'))).toBe(true);
    expect(ctx.response['context_management']).toEqual({
      applied_edits: [
        { type: CLEAR_TOOL_USES, cleared_tool_uses: 4, cleared_input_tokens: countTokens(body) - countTokens(edited) },
      ],
    });
    expect(results(body)[0]).toContain('lines of build output');
  });

  it('does nothing under the trigger (the default is 100,000 input tokens) and reports no edit', () => {
    const body = request(toolRounds(6), [{ type: CLEAR_TOOL_USES }]);
    const ctx = context();
    expect(feature.prepareRequest!(body, ctx)).toBe(body);
    expect(ctx.response['context_management']).toEqual({ applied_edits: [] });
  });

  it('triggers on a count of tool uses, keeps excluded tools, and clears inputs when asked', () => {
    const messages = toolRounds(4);
    (messages[1]!.content as ContentBlock[])[0]!['name'] = 'read_memory';
    const edited = feature.prepareRequest!(
      request(messages, [
        {
          type: CLEAR_TOOL_USES,
          trigger: { type: 'tool_uses', value: 3 },
          keep: { type: 'tool_uses', value: 1 },
          exclude_tools: ['read_memory'],
          clear_tool_inputs: true,
        },
      ]),
      context(),
    );
    expect(results(edited).map((text) => text === CLEARED_TOOL_RESULT_TEXT)).toEqual([false, true, true, false]);
    const inputs = edited.messages
      .filter((message) => message.role === 'assistant')
      .map((message) => (message.content as ContentBlock[])[0]!['input']);
    expect(inputs).toEqual([{ command: 'step 0' }, {}, {}, { command: 'step 3' }]);
  });

  it('skips the edit when it would free less than clear_at_least', () => {
    const body = request(toolRounds(4), [
      {
        type: CLEAR_TOOL_USES,
        trigger: { type: 'input_tokens', value: 100 },
        keep: { type: 'tool_uses', value: 3 },
        clear_at_least: { type: 'input_tokens', value: 50_000 },
      },
    ]);
    const ctx = context();
    expect(feature.prepareRequest!(body, ctx)).toBe(body);
    expect(ctx.response['context_management']).toEqual({ applied_edits: [] });
  });

  it.each([
    [
      { type: CLEAR_TOOL_USES, trigger: { type: 'input_tokens', value: 'lots' } },
      'context_management.edits.0.trigger.value: Input should be a valid integer',
    ],
    [
      { type: CLEAR_TOOL_USES, keep: { type: 'input_tokens', value: 2 } },
      "context_management.edits.0.keep.type: Input should be 'tool_uses'",
    ],
    [
      { type: CLEAR_TOOL_USES, exclude_tools: 'bash' },
      'context_management.edits.0.exclude_tools: Input should be a valid list of tool names',
    ],
    [
      { type: CLEAR_THINKING, keep: { type: 'thinking_turns', value: -1 } },
      'context_management.edits.0.keep.value: Input should be greater than or equal to 0',
    ],
  ])('rejects a bad option %j', (edit, message) => {
    expect(feature.validateEdit!(edit, 'context_management.edits.0')?.message).toBe(message);
  });
});

describe('context editing after a server compaction', () => {
  it('counts and clears only what follows the compaction block (the rest is no longer in the context)', () => {
    const feature = createContextEditingFeature();
    const before = toolRounds(5);
    const compacted: WireMessage = {
      role: 'assistant',
      content: [
        { type: 'compaction', content: 'summary', encrypted_content: null },
        { type: 'text', text: 'ok' },
      ],
    };
    const after = toolRounds(4).map(
      (message) => JSON.parse(JSON.stringify(message).replaceAll('toolu_', 'toolu_late_')) as WireMessage,
    );
    const body = request(
      [...before, compacted, ...after],
      [{ type: CLEAR_TOOL_USES, trigger: { type: 'input_tokens', value: 100 }, keep: { type: 'tool_uses', value: 2 } }],
    );
    const ctx = { ...context(), betas: new Set([CONTEXT_MANAGEMENT_BETA, 'compact-2026-01-12']) };
    const edited = feature.prepareRequest!(body, ctx);
    expect(edited.messages[0]).toEqual(compacted);
    expect(
      (ctx.response['context_management'] as { applied_edits: { cleared_tool_uses: number }[] }).applied_edits[0]!
        .cleared_tool_uses,
    ).toBe(2);
  });
});

describe('context editing: clear_thinking_20251015', () => {
  const feature = createContextEditingFeature();
  const thinkingTurn = (round: number): WireMessage => ({
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: `reasoning about step ${round} `.repeat(20), signature: 's' },
      { type: 'text', text: `answer ${round}` },
    ],
  });
  const messages: WireMessage[] = [
    { role: 'user', content: 'q0' },
    thinkingTurn(0),
    { role: 'user', content: 'q1' },
    thinkingTurn(1),
    { role: 'user', content: 'q2' },
    thinkingTurn(2),
  ];

  it('keeps the thinking of the last turn by default and drops the older ones', () => {
    const ctx = context();
    const edited = feature.prepareRequest!(request(messages, [{ type: CLEAR_THINKING }]), ctx);
    const kinds = edited.messages
      .filter((message) => message.role === 'assistant')
      .map((message) => (message.content as ContentBlock[]).map((block) => block.type).join('+'));
    expect(kinds).toEqual(['text', 'text', 'thinking+text']);
    const [applied] = (ctx.response['context_management'] as { applied_edits: Record<string, number>[] }).applied_edits;
    expect(applied).toMatchObject({ type: CLEAR_THINKING, cleared_thinking_turns: 2 });
    expect(applied!['cleared_input_tokens']).toBeGreaterThan(0);
  });

  it('keeps everything with keep "all"', () => {
    const body = request(messages, [{ type: CLEAR_THINKING, keep: 'all' }]);
    expect(feature.prepareRequest!(body, context())).toBe(body);
  });
});
