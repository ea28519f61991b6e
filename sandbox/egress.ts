import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointKey, parseEndpoint, type Endpoint } from './endpoints.js';

/**
 * The harness's side of an agent's network: the agent runs in a network namespace with no route out,
 * and inner-egress.mjs inside relays its connections through a unix socket in a folder it sees
 * read-only. Each connection starts with one line naming `host:port`; this side connects only when the
 * pair is allowed and answers `ok`, else `refused` and closes. The check is here, outside the sandbox:
 * a program that talks to the socket directly gets no further than the relay would.
 */

export const INNER_EGRESS = fileURLToPath(new URL('./inner-egress.mjs', import.meta.url));

export interface Egress {
  dir: string;
  socketPath: string;
  /** Pairs refused so far, for the agent's error and the run's record. */
  refused(): string[];
  close(): Promise<void>;
}

const MAX_HEAD = 300;

export async function openEgress(allowed: readonly Endpoint[]): Promise<Egress> {
  const allow = new Set(allowed.map(endpointKey));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-egress-'));
  // The sandbox's uid passes through the folder to the socket but cannot list or change it.
  await fs.chmod(dir, 0o711);
  const socketPath = path.join(dir, 'egress.sock');
  const refused = new Set<string>();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl < 0) {
        if (head.length > MAX_HEAD) client.destroy();
        return;
      }
      client.off('data', onData);
      client.pause();
      const asked = head.subarray(0, nl).toString().trim();
      const rest = head.subarray(nl + 1);
      const target = parseEndpoint(asked);
      if (!target || !allow.has(endpointKey(target))) {
        if (refused.size < 50) refused.add(asked.slice(0, 100));
        client.end('refused\n');
        return;
      }
      const upstream = net.connect(target.port, target.host);
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
      upstream.once('error', () => {
        if (upstream.connecting) client.end('unreachable\n');
        upstream.destroy();
      });
      upstream.once('connect', () => {
        client.write('ok\n');
        if (rest.length) upstream.write(rest);
        client.pipe(upstream).pipe(client);
        client.resume();
      });
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // Connecting to a unix socket needs write permission on it; the sandbox runs as another uid.
  await fs.chmod(socketPath, 0o666);
  return {
    dir,
    socketPath,
    refused: () => [...refused],
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
