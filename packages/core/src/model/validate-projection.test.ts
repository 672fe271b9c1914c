import { describe, expect, it } from 'vitest';
import { ANTHROPIC_COMPACTION, NATIVE_PART_MARKER, openAICompactionPart } from './native-compaction-part.js';
import type { Message } from './message.js';
import { validateProjection } from './validate-projection.js';

const user: Message = { id: 'u', role: 'user', parts: [{ id: 'u:0', type: 'text', text: 'go on' }] };

describe('validateProjection and a provider compaction', () => {
  it('lets an assistant message that opens with a provider compaction come first (it stands for what came before)', () => {
    const block: Message = {
      id: 'c',
      role: 'assistant',
      parts: [{ id: 'c:0', type: 'text', text: '## Goal\nfix', extra: { [NATIVE_PART_MARKER]: ANTHROPIC_COMPACTION } }],
    };
    const item: Message = {
      id: 'o',
      role: 'assistant',
      parts: [openAICompactionPart({ type: 'compaction', encrypted_content: 'sealed' }, 'o:0')],
    };
    expect(validateProjection([block, user])).toEqual([]);
    expect(validateProjection([item, user])).toEqual([]);
  });

  it('still refuses an ordinary assistant message first', () => {
    const reply: Message = { id: 'a', role: 'assistant', parts: [{ id: 'a:0', type: 'text', text: 'done' }] };
    expect(validateProjection([reply, user]).map((problem) => problem.code)).toEqual(['first_not_user']);
  });
});
