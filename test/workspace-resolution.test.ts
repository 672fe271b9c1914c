import { describe, expect, it } from 'vitest';
import { BUILT_IN_HOOK_NAMES, WIRE_EVENTS } from '@ctxhost/core';

describe('workspace packages resolve by their public names', () => {
  it('imports @ctxhost/core', () => {
    expect(BUILT_IN_HOOK_NAMES).toContain('anthropic-auto-compact');
    expect(WIRE_EVENTS['session.idle']).toBe('sessionIdle');
  });
});
