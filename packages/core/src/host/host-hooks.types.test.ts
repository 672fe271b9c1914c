import { describe, expect, it } from 'vitest';
import { createHostHooks } from './host-hooks.js';

/*
 * Compile-time checks: `pnpm typecheck` (tsc over the whole workspace) fails if
 * a line marked @ts-expect-error starts compiling, i.e. if the hook table ever
 * loses its payload types. The runtime test only keeps vitest from skipping the file.
 */
describe('host hook types', () => {
  it('keeps every payload type on taps', () => {
    const hooks = createHostHooks();
    hooks.messageUpdated.tapPromise('typed', async (event) => {
      const id: string = event.message.id;
      // @ts-expect-error a message has no `content` field: parts only
      void event.message.content;
      void id;
    });
    hooks.sessionError.tapPromise('typed', async (event) => {
      // @ts-expect-error the error kind is a closed union
      const kind: 'prompt_too_long' = event.error.kind;
      void kind;
    });
    // @ts-expect-error a waterfall tap must return the request
    hooks.beforeRequest.tapPromise('typed', async () => 42);
    // @ts-expect-error a toolResult tap receives a tool-result part, not a message
    hooks.toolResult.tapPromise('typed', async (part: { role: string }) => part);
    // @ts-expect-error resend answers true or undefined
    hooks.resend.tapPromise('typed', async () => 'yes');
    expect(Object.keys(hooks)).toContain('beforeRequest');
  });
});
