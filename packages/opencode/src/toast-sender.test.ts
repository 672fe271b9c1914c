import type { HostLogger } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createToastSender } from './toast-sender.js';

function recordingLogger() {
  const lines: string[] = [];
  const logger: HostLogger = {
    debug: (message) => void lines.push(`debug ${message}`),
    info: (message) => void lines.push(`info ${message}`),
    warn: (message) => void lines.push(`warn ${message}`),
    error: (message) => void lines.push(`error ${message}`),
  };
  return { logger, lines };
}

const toast = (title: string) => ({ title, message: `${title} text`, level: 'info' as const });

describe('createToastSender', () => {
  it('returns at once while opencode has not answered, and sends the toasts in order', async () => {
    const shown: string[] = [];
    let answer: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (answer = resolve));
    const sender = createToastSender(
      {
        toast: async ({ title }) => {
          shown.push(title);
          if (title === 'a') await first;
        },
      },
      recordingLogger().logger,
    );
    sender.send(toast('a'));
    sender.send(toast('b'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shown).toEqual(['a']);
    answer();
    await sender.drained();
    expect(shown).toEqual(['a', 'b']);
  });

  it('logs the first failure as a warning and later ones at debug level, and goes on sending', async () => {
    const { logger, lines } = recordingLogger();
    const shown: string[] = [];
    const sender = createToastSender(
      {
        toast: async ({ title }) => {
          if (title !== 'ok') throw new Error('connection refused');
          shown.push(title);
        },
      },
      logger,
    );
    sender.send(toast('x'));
    sender.send(toast('y'));
    sender.send(toast('ok'));
    await sender.drained();
    expect(shown).toEqual(['ok']);
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['warn', 'debug']);
    expect(lines[0]).toContain('could not show a toast in opencode');
  });
});
