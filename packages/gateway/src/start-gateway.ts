import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Host } from '@ctxhost/core';
import { GATEWAY_ERROR_CODES, GatewayError } from './errors.js';
import type { GatewaySettings } from './gateway-config.js';
import { createGatewayHandler, type GatewayHandler } from './gateway-handler.js';

export interface StartGatewayOptions {
  settings: GatewaySettings;
  host: () => Host | Promise<Host>;
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Default GATEWAY_TIMEOUTS. */
  timeouts?: { headersMs: number; requestMs: number };
}

export interface Gateway {
  /** `http://HOST:PORT`: the base URL clients use in place of the provider's. */
  url: string;
  handler: GatewayHandler;
  server: Server;
  /**
   * Stops taking requests, lets those in flight (streams included) finish for up to
   * `shutdown_grace_seconds`, then closes what is left.
   */
  close(): Promise<void>;
}

/** How long a client may take to send its headers, and its whole request (streamed answers are not limited). */
export const GATEWAY_TIMEOUTS = { headersMs: 10_000, requestMs: 60_000 } as const;

/** Starts the gateway on its own server. */
export async function startGateway(options: StartGatewayOptions): Promise<Gateway> {
  const handler = createGatewayHandler({ settings: options.settings, host: options.host });
  // A request holds a concurrency slot while its body arrives: without these, max_concurrent_requests clients
  // dripping bodies kept every other client at 503 for Node's default 300 s.
  const timeouts = options.timeouts ?? GATEWAY_TIMEOUTS;
  const connectionsCheckingInterval = Math.max(50, Math.min(1_000, Math.floor(timeouts.headersMs / 4)));
  const server = createServer({ connectionsCheckingInterval }, handler);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  const hostname = options.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new GatewayError(
          GATEWAY_ERROR_CODES.listenFailed,
          `ctxhost gateway: cannot listen on ${hostname}:${options.port ?? 0} (${error.message}); pick another port or 0 for a free one`,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port ?? 0, hostname, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = hostname.includes(':') ? `[${hostname}]` : hostname;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    handler,
    server,
    close: () => (closing ??= shutdown(server, handler, options.settings.shutdownGraceSeconds)),
  };
}

async function shutdown(server: Server, handler: GatewayHandler, graceSeconds: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const grace = new Promise<void>((resolve) => setTimeout(resolve, graceSeconds * 1000).unref());
  await Promise.race([handler.limit.idle(), grace]);
  server.closeAllConnections();
  await closed;
}
