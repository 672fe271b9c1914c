import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server, for tests and the chaos suite: `partition()`
 * keeps every connection open but stops forwarding bytes either way (a network
 * partition, or a server that accepted and then never answers), `heal()`
 * resumes forwarding for new data, `close()` ends it all.
 */
export interface TcpProxy {
  readonly port: number;
  /** A connection URL like `url`, pointed at the proxy. */
  urlFor(url: string): string;
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let partitioned = false;
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (!partitioned) to.write(chunk);
    });
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    partition() {
      partitioned = true;
    },
    heal() {
      partitioned = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of a postgres:// URL. */
export function targetOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || '5432') };
}
