import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The harness's side of a site server's network: the server runs in a network namespace of its own
 * (it reaches nothing, not even other ports of this machine's 127.0.0.1), and the judged browser
 * reaches it on a 127.0.0.1 port of the host that this bridge relays, through a unix socket in a
 * folder both sides see, to inner-bridge.mjs inside the sandbox. Raw TCP, so WebSockets (a dev
 * server's hot reload) pass too.
 */

export const INNER_BRIDGE = fileURLToPath(new URL('./inner-bridge.mjs', import.meta.url));

export interface PortBridge {
  /** The folder holding the socket, exposed writable to the sandbox. */
  dir: string;
  socketPath: string;
  /** Relays a host port (`outerPort`, else a free one) to `innerPort` inside; returns the host port. */
  forward(innerPort: number, outerPort?: number): Promise<number>;
  /** The host port that relays `innerPort`, if one does. */
  outerFor(innerPort: number): number | undefined;
  close(): Promise<void>;
}

export async function openPortBridge(): Promise<PortBridge> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-bridge-'));
  const socketPath = path.join(dir, 'site.sock');
  const servers = new Map<number, { server: net.Server; outer: number }>();
  const sockets = new Set<net.Socket>();

  const relay = (innerPort: number) => (client: net.Socket) => {
    sockets.add(client);
    const upstream = net.connect(socketPath);
    sockets.add(upstream);
    upstream.write(`${innerPort}\n`);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  };

  const listen = (server: net.Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const a = server.address();
        resolve(typeof a === 'object' && a ? a.port : port);
      });
    });

  return {
    dir,
    socketPath,
    async forward(innerPort, outerPort) {
      const known = servers.get(innerPort);
      if (known) return known.outer;
      let server = net.createServer(relay(innerPort));
      let outer: number;
      try {
        outer = await listen(server, outerPort ?? 0);
      } catch {
        // The port the server printed is taken on the host: any free one relays to it as well.
        server = net.createServer(relay(innerPort));
        outer = await listen(server, 0);
      }
      servers.set(innerPort, { server, outer });
      return outer;
    },
    outerFor: (innerPort) => servers.get(innerPort)?.outer,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([...servers.values()].map(({ server }) => new Promise<void>((r) => server.close(() => r()))));
      servers.clear();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
