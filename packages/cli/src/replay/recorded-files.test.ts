import type { Message } from 'ctxhost';
import { describe, expect, it } from 'vitest';
import { recordedFiles } from './recorded-files.js';

const call = (callId: string, name: string, input: Record<string, string>): Message => ({
  id: `a-${callId}`,
  role: 'assistant',
  parts: [{ id: `a-${callId}.0`, type: 'tool-call', callId, name, input }],
});
const result = (callId: string, output: string, isError = false): Message => ({
  id: `r-${callId}`,
  role: 'tool',
  parts: [{ id: `r-${callId}.0`, type: 'tool-result', callId, output, isError }],
});

describe('recordedFiles', () => {
  it('gives each asked path as the record last showed it whole: a write, else a successful read; in the order asked', () => {
    const history = [
      call('1', 'Read', { file_path: 'src/a.ts' }),
      result('1', 'old a'),
      call('2', 'Write', { file_path: 'src/a.ts', content: 'new a' }),
      result('2', 'ok'),
      call('3', 'Edit', { file_path: 'src/a.ts', old_string: 'new', new_string: 'newer' }),
      result('3', 'ok'),
      call('4', 'Read', { file_path: 'src/b.ts' }),
      result('4', 'b'),
      call('5', 'Read', { file_path: 'src/b.ts' }),
      result('5', 'ENOENT', true),
      call('6', 'Read', { file_path: 'src/c.ts' }),
      result('6', 'c'),
    ];
    expect(recordedFiles(history, ['src/b.ts', 'src/a.ts', 'src/missing.ts'])).toEqual([
      { path: 'src/b.ts', content: 'b' },
      { path: 'src/a.ts', content: 'new a' },
    ]);
  });
});
