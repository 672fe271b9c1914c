import { describe, expect, it } from 'vitest';
import { REHYDRATED_HEADING, renderRehydrated } from './rehydration.js';

const count = (text: string) => Math.ceil(text.length / 4);

describe('renderRehydrated', () => {
  it('says in one line that a file is no longer on disk, beside the files re-read whole', () => {
    const block = renderRehydrated(
      [
        { path: 'src/app.ts', content: 'export const app = 1;' },
        { path: 'src/old.ts', content: '', gone: true },
      ],
      1_000,
      count,
    );
    expect(block.text).toBe(
      [
        REHYDRATED_HEADING,
        '### src/app.ts\n```\nexport const app = 1;\n```',
        '',
        '### src/old.ts: no longer on disk (deleted or moved since the agent touched it)',
      ].join('\n'),
    );
    expect(block.files).toEqual(['src/app.ts', 'src/old.ts']);
  });
});
