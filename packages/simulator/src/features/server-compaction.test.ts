import { describe, expect, it } from 'vitest';
import type { FeatureContext } from './features.js';
import {
  COMPACT_EDIT,
  COMPACTION_BETA,
  createServerCompactionFeature,
  fromLastCompaction,
} from './server-compaction.js';
import { countTokens } from '../wire/tokenizer.js';
import { buildUsage } from '../handler/usage.js';
import type { ContentBlock, MessagesRequest, WireMessage } from '../wire/wire.js';

const paragraph = 'the agent edited src/app.ts and ran the tests again '.repeat(40);

function history(turns: number): WireMessage[] {
  const messages: WireMessage[] = [];
  for (let turn = 0; turn < turns; turn++)
    messages.push(
      { role: 'user', content: `request ${turn}: ${paragraph}` },
      { role: 'assistant', content: `done ${turn}` },
    );
  messages.push({ role: 'user', content: 'what is left?' });
  return messages;
}

function context(contextLimit = 1_000_000): FeatureContext {
  return {
    requestId: 'r',
    model: 'm',
    betas: new Set([COMPACTION_BETA]),
    limits: { contextLimit, overflowStyle: 'prompt_too_long', minCacheableTokens: 1024 },
    response: {},
    state: new Map(),
  };
}

const compactAt = (value: number): MessagesRequest['context_management'] => ({
  edits: [{ type: COMPACT_EDIT, trigger: { type: 'input_tokens', value } }],
});

describe('server compaction: compact_20260112', () => {
  const feature = createServerCompactionFeature();

  it('over the trigger: answers from a compaction block and the last user message, the block first in the reply, its cost in usage.iterations', () => {
    const body: MessagesRequest = {
      model: 'm',
      max_tokens: 10,
      messages: history(250),
      context_management: compactAt(50_000),
    };
    expect(countTokens(body)).toBeGreaterThan(50_000);
    const ctx = context();
    const prepared = feature.prepareRequest!(body, ctx);
    expect(prepared.messages.map((message) => message.role)).toEqual(['assistant', 'user']);
    const block = (prepared.messages[0]!.content as ContentBlock[])[0]!;
    expect(block).toMatchObject({ type: 'compaction', encrypted_content: null });
    expect(String(block['content'])).toContain('## Goal');
    const turn = feature.finishTurn!({ content: [{ type: 'text', text: 'reply' }], stop_reason: 'end_turn' }, ctx);
    expect(turn.content.map((b) => b.type)).toEqual(['compaction', 'text']);
    const usage = feature.finishUsage!(
      buildUsage(countTokens(prepared), { read: 0, creation5m: 0, creation1h: 0 }, turn),
      ctx,
    );
    expect(usage.input_tokens).toBe(countTokens(prepared));
    expect(usage.iterations).toEqual([
      expect.objectContaining({ type: 'compaction', input_tokens: countTokens(body) }),
      expect.objectContaining({
        type: 'message',
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
      }),
    ]);
  });

  it('under the trigger: the request and reply are unchanged', () => {
    const body: MessagesRequest = {
      model: 'm',
      max_tokens: 10,
      messages: history(2),
      context_management: compactAt(50_000),
    };
    const ctx = context();
    expect(feature.prepareRequest!(body, ctx)).toBe(body);
    const turn = { content: [{ type: 'text', text: 'reply' }], stop_reason: 'end_turn' };
    expect(feature.finishTurn!(turn, ctx)).toBe(turn);
  });

  it('pause_after_compaction returns the block alone with stop_reason "compaction"', () => {
    const body: MessagesRequest = {
      model: 'm',
      max_tokens: 10,
      messages: history(250),
      context_management: {
        edits: [{ type: COMPACT_EDIT, trigger: { type: 'input_tokens', value: 50_000 }, pause_after_compaction: true }],
      },
    };
    const ctx = context();
    feature.prepareRequest!(body, ctx);
    const turn = feature.finishTurn!({ content: [{ type: 'text', text: 'reply' }], stop_reason: 'end_turn' }, ctx);
    expect(turn.stop_reason).toBe('compaction');
    expect(turn.content.map((b) => b.type)).toEqual(['compaction']);
  });

  it('a later request is read from its last compaction block on: what came before is dropped and not counted', () => {
    const compacted: WireMessage = {
      role: 'assistant',
      content: [
        { type: 'compaction', content: 'summary of before', encrypted_content: null },
        { type: 'text', text: 'reply' },
      ],
    };
    const body: MessagesRequest = {
      model: 'm',
      max_tokens: 10,
      messages: [...history(20), compacted, { role: 'user', content: 'next' }],
    };
    const read = fromLastCompaction(body);
    expect(read.messages).toEqual([compacted, { role: 'user', content: 'next' }]);
    expect(countTokens(read)).toBeLessThan(countTokens(body) / 10);
    expect(feature.prepareRequest!(body, context())).toEqual(read);
  });

  it('a compaction block with null content is a no-op', () => {
    const failed: WireMessage = {
      role: 'assistant',
      content: [
        { type: 'compaction', content: null, encrypted_content: null },
        { type: 'text', text: 'reply' },
      ],
    };
    const body: MessagesRequest = {
      model: 'm',
      max_tokens: 10,
      messages: [...history(2), failed, { role: 'user', content: 'next' }],
    };
    expect(fromLastCompaction(body)).toBe(body);
  });

  it('does not compact a request that would not fit the window (it fails as any other)', () => {
    const body: MessagesRequest = {
      model: 'm',
      max_tokens: 10,
      messages: history(250),
      context_management: compactAt(50_000),
    };
    expect(feature.prepareRequest!(body, context(60_000))).toBe(body);
  });

  it.each([
    [
      { type: COMPACT_EDIT, trigger: { type: 'input_tokens', value: 10_000 } },
      'context_management.edits.0.trigger.value: Input should be greater than or equal to 50000',
    ],
    [
      { type: COMPACT_EDIT, trigger: { type: 'tool_uses', value: 60_000 } },
      "context_management.edits.0.trigger.type: Input should be 'input_tokens'",
    ],
    [
      { type: COMPACT_EDIT, pause_after_compaction: 'yes' },
      'context_management.edits.0.pause_after_compaction: Input should be a valid boolean',
    ],
  ])('rejects a bad option %j', (edit, message) => {
    expect(feature.validateEdit!(edit, 'context_management.edits.0')?.message).toBe(message);
  });
});
