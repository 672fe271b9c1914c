import { nativeCompactionOf, toAnthropic } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { blockToPart } from './claude-code-blocks.js';

describe('Claude Code content blocks', () => {
  it("reads Anthropic's compaction block as core keeps it, and sends it back exactly", () => {
    const block = { type: 'compaction', content: '## Goal\nship', encrypted_content: 'e1', signature: 's1' };
    const part = blockToPart(block, 'p1');
    expect(part.id).toBe('p1');
    expect(nativeCompactionOf(part)).toEqual({
      vendor: 'anthropic',
      readable: '## Goal\nship',
      fields: { encrypted_content: 'e1', signature: 's1' },
    });
    const wire = toAnthropic([
      { id: 'u', role: 'user', parts: [{ id: 'u0', type: 'text', text: 'go' }] },
      { id: 'a', role: 'assistant', parts: [part] },
    ]);
    expect(wire.messages[1]!.content).toEqual([block]);
  });

  it('refuses a compaction block whose content is not a string or null', () => {
    expect(() => blockToPart({ type: 'compaction', content: 3 }, 'p')).toThrow(/compaction block content/);
  });
});
