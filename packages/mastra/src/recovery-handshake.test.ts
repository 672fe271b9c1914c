import { describe, expect, it } from 'vitest';
import { createRecoveryHandshake } from './recovery-handshake.js';

/** A cascade that asks for a re-send again while the retried step failed, as auto-compact's does; `results` gets each answer. */
function cascade(
  handshake: ReturnType<typeof createRecoveryHandshake>,
  sessionId: string,
  results: boolean[],
  attempts: number,
): () => Promise<void> {
  return async () => {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const answered = await handshake.resend(sessionId, undefined);
      results.push(answered ?? false);
      if (answered === true) return;
    }
  };
}

describe('the recovery handshake between the host’s cascade and Mastra’s retry', () => {
  it('lets processAPIError retry once the cascade asks for a re-send, and answers the re-send with the retried step’s outcome', async () => {
    const handshake = createRecoveryHandshake(() => undefined);
    const results: boolean[] = [];
    expect(await handshake.overflowed('s', cascade(handshake, 's', results, 3))).toBe(true);
    handshake.retrying('s');
    handshake.settle('s', true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(results).toEqual([true]);
  });

  it('gives a retry that overflowed again to the running cascade, which asks for its next re-send', async () => {
    const handshake = createRecoveryHandshake(() => undefined);
    const results: boolean[] = [];
    expect(await handshake.overflowed('s', cascade(handshake, 's', results, 3))).toBe(true);
    expect(await handshake.overflowed('s', async () => expect.unreachable('no second cascade'))).toBe(true);
    handshake.settle('s', true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(results).toEqual([false, true]);
  });

  it('says "do not retry" when the cascade ends without asking for a re-send', async () => {
    const handshake = createRecoveryHandshake(() => undefined);
    expect(await handshake.overflowed('s', async () => undefined)).toBe(false);
    expect(handshake.resend('s', undefined)).toBeUndefined();
  });

  it('answers a re-send with false when the host cancels it', async () => {
    const handshake = createRecoveryHandshake(() => undefined);
    const controller = new AbortController();
    let outcome: Promise<boolean> | undefined;
    const asked = handshake.overflowed('s', async () => {
      outcome = handshake.resend('s', controller.signal);
      await outcome;
    });
    expect(await asked).toBe(true);
    controller.abort();
    expect(await outcome).toBe(false);
  });
});
