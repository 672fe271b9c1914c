import { createHost } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createMirrorRegistry } from './mirror-registry.js';
import { createOpencodeBridgePlugin } from './opencode-bridge-plugin.js';
import type { OpencodeActions } from './opencode-actions.js';

describe('createOpencodeBridgePlugin: toasts', () => {
  it('does not hold the hook (nor the event queue behind it) while opencode leaves a toast unanswered', async () => {
    const asked: string[] = [];
    const actions = {
      toast: ({ title }: { title: string }) => {
        asked.push(title);
        return new Promise<void>(() => undefined);
      },
    } as unknown as OpencodeActions;
    const host = createHost({
      enginePlugin: false,
      plugins: [createOpencodeBridgePlugin(actions, createMirrorRegistry())],
    });
    const shown = host.toast({
      sessionId: 's',
      level: 'info',
      title: 'Context usage',
      text: '74% of the window',
      source: 'test',
    });
    const answered = await Promise.race([
      shown.then(() => 'returned'),
      new Promise((resolve) => setTimeout(() => resolve('held'), 1_000)),
    ]);
    expect(answered).toBe('returned');
    expect(asked).toEqual(['Context usage']);
  });
});
