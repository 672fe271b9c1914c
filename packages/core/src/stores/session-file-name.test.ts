import { describe, expect, it } from 'vitest';
import { sessionFileStem } from './session-file-name.js';

describe('sessionFileStem', () => {
  it.each([
    ['abc-DEF_123', 'abc-DEF_123'],
    ['../../etc/passwd', '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd'],
    ['..', '%2E%2E'],
    ['a b%c', 'a%20b%25c'],
    ['세션', '%EC%84%B8%EC%85%98'],
    ['C:\\x', 'C%3A%5Cx'],
  ])('encodes %j as %j', (id, stem) => {
    expect(sessionFileStem(id)).toBe(stem);
  });

  it('keeps distinct ids distinct, including ids that differ only in case of escapes', () => {
    const ids = ['a.b', 'a%2Eb', 'a/b', 'a_b', 'A.b'];
    expect(new Set(ids.map(sessionFileStem)).size).toBe(ids.length);
  });

  it('bounds long ids and keeps them distinct through a hash', () => {
    const long = 'x'.repeat(500);
    expect(sessionFileStem(long).length).toBeLessThanOrEqual(180);
    expect(sessionFileStem(long)).not.toBe(sessionFileStem(`${long}y`));
  });

  it('refuses an empty id', () => {
    expect(() => sessionFileStem('')).toThrow(/non-empty/);
  });
});
