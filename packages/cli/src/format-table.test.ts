import { describe, expect, it } from 'vitest';
import { formatCount, formatTable } from './format-table.js';

describe('formatTable', () => {
  it('aligns columns, numbers to the right', () => {
    const table = formatTable(
      [{ header: 'kind' }, { header: 'tokens', align: 'right' }],
      [
        ['user', '12'],
        ['tool_call', '1,234'],
      ],
    );
    expect(table.split('\n')).toEqual([
      'kind       tokens',
      '---------  ------',
      'user           12',
      'tool_call   1,234',
    ]);
  });

  it.each([
    [0, '0'],
    [999, '999'],
    [1234567, '1,234,567'],
  ])('formats %d as %s', (value, expected) => {
    expect(formatCount(value)).toBe(expected);
  });
});
