import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import mime from 'mime-types';
import { PROC_FD } from '../sandbox/confined-fs.js';

/** A running site: where to point a browser, and how to stop it. */
export interface ServedSite {
  url: string;
  root: string;
  close(): Promise<void>;
}

/**
 * Content types from mime-types (the jshttp table behind Express), so wasm, fonts, media and manifests
 * are served as browsers expect; a module script or a wasm file served as octet-stream fails to load.
 */
export function contentTypeOf(file: string): string {
  return mime.contentType(path.extname(file).toLowerCase()) || 'application/octet-stream';
}

/** Resolves a URL path inside root, or returns null when it would leave it (`..`, encoded or not). */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
  const target = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  return target === root || target.startsWith(root + path.sep) ? target : null;
}

/** Refused before serving: the folder to serve is (or passes through) a link that leaves the workspace. */
export class OutsideWorkspace extends Error {
  override name = 'OutsideWorkspace';
}

/**
 * Serves a folder of static files on 127.0.0.1, on a free port unless one is given. The folder holds
 * agent-written files and build output, which may be links: the folder itself must resolve inside `fence`
 * (the workspace; a `dist` linked to the reference site is refused), and each file is opened first and its
 * real path read from the open descriptor, so a link, or a folder swapped for one after a check, never
 * serves anything from outside. Only regular files are served (a FIFO would hang the reader).
 */
export async function serveStatic(rootDir: string, opts: { fence?: string; port?: number } = {}): Promise<ServedSite> {
  const fence = opts.fence ?? rootDir;
  const port = opts.port ?? 0;
  const root = await fs.realpath(rootDir);
  const fenceReal = await fs.realpath(fence);
  if (!inside(fenceReal, root)) throw new OutsideWorkspace(`${rootDir} resolves to ${root}, outside ${fenceReal}: links out of the workspace are not served`);
  const server = http.createServer(async (req, res) => {
    const target = resolveInside(root, req.url ?? '/');
    if (!target) return send(res, 403, 'forbidden');
    let handle: FileHandle | undefined;
    try {
      let file = await fs.realpath(target);
      if (!inside(root, file)) return send(res, 403, 'forbidden');
      if ((await fs.stat(file)).isDirectory()) file = path.join(file, 'index.html');
      handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
      const opened = PROC_FD ? await fs.readlink(`/proc/self/fd/${handle.fd}`) : await fs.realpath(file);
      if (!inside(root, opened)) return send(res, 403, 'forbidden');
      const stat = await handle.stat();
      if (!stat.isFile()) return send(res, 404, 'not found');
      res.writeHead(200, {
        'content-type': contentTypeOf(file),
        'content-length': stat.size,
        'cache-control': 'no-store',
      });
      const stream = handle.createReadStream({ autoClose: true });
      handle = undefined;
      stream.pipe(res);
    } catch {
      send(res, 404, 'not found');
    } finally {
      await handle?.close().catch(() => undefined);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    root,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}

/**
 * A page saying why the site could not be started, served on every path. The judge then sees a
 * visible failure rather than a connection error, and its verdicts stay ordinary fails.
 */
export async function serveErrorPage(problems: string[]): Promise<ServedSite> {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body =
    '<!doctype html><html><head><meta charset="utf-8"><title>Site failed to start</title></head><body>' +
    '<h1>Site failed to start</h1>' +
    problems.map((p) => `<pre>${escape(p)}</pre>`).join('') +
    '</body></html>';
  const server = http.createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root: '',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
