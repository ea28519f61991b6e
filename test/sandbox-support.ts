import { promises as fs } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Live (not zombie) processes whose command line contains `word`, as `pid: cmdline`. */
export async function processesWith(word: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const cmd = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ');
    if (!cmd.includes(word)) continue;
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (stat && !/^\d+ \(.*\) [ZX]/.test(stat)) found.push(`${pid}: ${cmd.slice(0, 200)}`);
  }
  return found;
}

/** Starts `server` on a free 127.0.0.1 port; returns the port. */
export async function listenLocal(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}
