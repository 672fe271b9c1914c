import type { CompactionReport } from '@ctxhost/core';
import type { Pool, PoolClient } from 'pg';
import { quoteIdentifier } from './store-options.js';

/** What a store tells its subscribers; `remote` is true when another store instance (another worker) caused it. */
export type PostgresStoreNotification =
  | { type: 'session.deleted'; sessionId: string; remote: boolean }
  | { type: 'compaction.completed'; sessionId: string; seq: number; report: CompactionReport; remote: boolean };

export type PostgresStoreListener = (notification: PostgresStoreNotification) => void | Promise<void>;

/** The NOTIFY payload. A compaction's report rides along unless it would pass NOTIFY's 8000-byte limit; then it is read from the event row. */
export interface NotificationPayload {
  origin: string;
  type: PostgresStoreNotification['type'];
  sessionId: string;
  seq?: number;
  report?: CompactionReport;
}

/** Payloads up to this many bytes are sent whole (PostgreSQL's limit is 8000). */
export const NOTIFY_PAYLOAD_LIMIT = 7_900;

export interface NotificationListener {
  /** Resolves once LISTEN is in place. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface NotificationListenerOptions {
  pool: Pool;
  channel: string;
  onPayload(payload: NotificationPayload): Promise<void>;
  /** Delay before reconnecting after the listening connection broke (ms). */
  reconnectDelayMs?: number;
}

/**
 * LISTENs on one channel over a connection kept out of the pool for it, and
 * hands each payload to `onPayload` one at a time, in arrival order. A broken
 * connection is replaced until `stop()`; notifications sent while it was
 * down are missed (NOTIFY is not queued for absent listeners).
 */
export function createNotificationListener(options: NotificationListenerOptions): NotificationListener {
  let client: PoolClient | undefined;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  let reconnectTimer: NodeJS.Timeout | undefined;

  const deliver = (text: string | undefined) => {
    const payload = parsePayload(text);
    if (payload === undefined) return;
    chain = chain.then(() => options.onPayload(payload)).catch(() => undefined);
  };

  function scheduleReconnect(): void {
    if (stopped) return;
    reconnectTimer = setTimeout(() => void connect().catch(scheduleReconnect), options.reconnectDelayMs ?? 1_000);
    reconnectTimer.unref();
  }

  async function connect(): Promise<void> {
    const connection = await options.pool.connect();
    connection.on('notification', (message) => {
      if (message.channel === options.channel) deliver(message.payload);
    });
    connection.on('error', () => {
      if (client !== connection) return;
      client = undefined;
      connection.release(true);
      scheduleReconnect();
    });
    try {
      await connection.query(`LISTEN ${quoteIdentifier(options.channel)}`);
    } catch (error) {
      connection.release(true);
      throw error;
    }
    client = connection;
  }

  return {
    start: connect,
    async stop() {
      stopped = true;
      clearTimeout(reconnectTimer);
      const connection = client;
      client = undefined;
      if (connection !== undefined) {
        await connection.query('UNLISTEN *').catch(() => undefined);
        connection.release();
      }
      await chain;
    },
  };
}

function parsePayload(text: string | undefined): NotificationPayload | undefined {
  try {
    const value = JSON.parse(text ?? '') as Partial<NotificationPayload>;
    if (typeof value.origin !== 'string' || typeof value.sessionId !== 'string') return undefined;
    if (value.type !== 'session.deleted' && value.type !== 'compaction.completed') return undefined;
    return value as NotificationPayload;
  } catch {
    return undefined;
  }
}
