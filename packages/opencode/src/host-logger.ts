import type { HostLogger } from '@ctxhost/core';
import type { OpencodeClient } from './opencode-actions.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** The host's log lines, written to opencode's log (service `ctxhost`); a failed write is dropped, never thrown. */
export function createHostLogger(client: OpencodeClient): HostLogger {
  const write = (level: Level) => (message: string, data?: Record<string, unknown>) => {
    void client.app
      .log({ body: { service: 'ctxhost', level, message, ...(data === undefined ? {} : { extra: data }) } })
      .catch(() => undefined);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
