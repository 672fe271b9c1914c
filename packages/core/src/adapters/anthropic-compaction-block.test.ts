import { describe, expect, it } from 'vitest';
import { fromAnthropic, toAnthropic } from './anthropic-adapter.js';
import { BLOCK_TYPE_MARKER } from './anthropic-blocks.js';
import type { AnthropicMessageParam } from './anthropic-wire-types.js';

const turns = (content: AnthropicMessageParam['content']): AnthropicMessageParam[] => [
  { role: 'user', content: 'go on' },
  { role: 'assistant', content },
  { role: 'user', content: 'next' },
];

describe('server compaction blocks through the Anthropic adapter', () => {
  it.each([
    [
      'with a summary',
      [
        { type: 'compaction', content: '## Goal\nship it', encrypted_content: null },
        { type: 'text', text: 'done' },
      ],
    ],
    [
      'with opaque fields and a signature',
      [{ type: 'compaction', content: 'summary', encrypted_content: 'opaque==', signature: 'sig' }],
    ],
    [
      'failed (content null)',
      [
        { type: 'compaction', content: null, encrypted_content: null },
        { type: 'text', text: 'done' },
      ],
    ],
    ['with a cache breakpoint', [{ type: 'compaction', content: 'summary', cache_control: { type: 'ephemeral' } }]],
  ] as [string, AnthropicMessageParam['content']][])('round-trips exactly %s', (_case, content) => {
    const wire = turns(content);
    expect(toAnthropic(fromAnthropic(wire)).messages).toEqual(wire);
  });

  it('becomes a text part holding the summary, marked so it is sent back as a compaction block', () => {
    const [, assistant] = fromAnthropic(
      turns([{ type: 'compaction', content: 'the summary', encrypted_content: 'x' }]),
    );
    expect(assistant!.parts[0]).toMatchObject({
      type: 'text',
      text: 'the summary',
      extra: { [BLOCK_TYPE_MARKER]: 'compaction', encrypted_content: 'x' },
    });
  });

  it('rejects a compaction block whose content is neither a string nor null, naming where', () => {
    expect(() => fromAnthropic(turns([{ type: 'compaction', content: 42 as unknown as string }]))).toThrow(
      /messages\[1\]\.content\[0\]\.content/,
    );
  });
});
