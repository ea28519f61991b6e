import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { buildOutputLeaving, findBuildOutput, portArgs, urlsInOutput, type NpmProject, type StartScript } from './npm-project.js';
import { describeExit } from '../sandbox/limits-text.js';
import type { Exposure } from '../sandbox/policy.js';
import { INNER_BRIDGE, openPortBridge, type PortBridge } from '../sandbox/port-bridge.js';
import { runToEnd, tail, type GroupProcess } from '../sandbox/process-group.js';
import { serveStatic } from './site-server.js';
import type { ResolvedSiteOptions, StartedSite } from './types.js';
import { treeUsage } from '../sandbox/tree-usage.js';
import { agentCaused, ConfinedDir } from '../sandbox/confined-fs.js';

/**
 * Installing and starting an agent-written npm project. Every failure comes back as a `problem` string
 * for the agent's observation, never as an exception: a broken package.json is the agent's mistake to
 * see and fix, not a harness crash.
 */

const INSTALL_MARKER = path.join('node_modules', '.iwb-install-key');

export async function installIfNeeded(root: string, project: NpmProject, opts: ResolvedSiteOptions): Promise<string | null> {
  if (!project.hasDependencies) return null;
  const marker = path.join(root, INSTALL_MARKER);
  if ((await fs.readFile(marker, 'utf8').catch(() => '')) === project.installKey) return null;
  // --ignore-scripts: install scripts of arbitrary packages are the one thing here that needs no site to run.
  // The one step that needs the network (the registry); the code it fetches does not run here.
  const proc = await sandboxed(root, ['npm', 'install', '--ignore-scripts', '--no-audit', '--no-fund'], opts, { network: true });
  const r = await runToEnd(proc, opts.installTimeoutMs);
  if (r.timedOut) return `npm install timed out after ${Math.round(opts.installTimeoutMs / 1000)} s:\n${tail(proc.output())}`;
  if (r.code !== 0) return `npm install failed (exit ${r.code})${describeExit(r.code, proc.output(), opts.limits)}:\n${tail(proc.output())}`;
  // The agent's writes are counted by the workspace; what its package.json pulled in is counted here.
  const used = await treeUsage(path.join(root, 'node_modules'));
  const max = opts.installLimits;
  if (used.files > max.files || used.bytes > max.bytes) {
    await fs.rm(path.join(root, 'node_modules'), { recursive: true, force: true });
    return (
      `npm install wrote ${used.files} files, ${Math.round(used.bytes / 2 ** 20)} MiB into node_modules, over the limit of ` +
      `${max.files} files, ${Math.round(max.bytes / 2 ** 20)} MiB; node_modules was removed: declare fewer or smaller dependencies`
    );
  }
  // As root into a folder the site's processes could have made a link: never followed.
  const refused = await agentCaused(() => new ConfinedDir(root).writeFile(INSTALL_MARKER.split(path.sep), project.installKey));
  return refused ? `node_modules could not be marked as installed: ${refused}` : null;
}

export type Attempt = { site: StartedSite } | { problem: string };

export async function runScript(root: string, project: NpmProject, script: StartScript, opts: ResolvedSiteOptions): Promise<Attempt> {
  return script === 'build' ? buildAndServe(root, opts) : startServer(root, project, script, opts);
}

async function buildAndServe(root: string, opts: ResolvedSiteOptions): Promise<Attempt> {
  const proc = await sandboxed(root, ['npm', 'run', 'build'], opts, { network: false });
  const r = await runToEnd(proc, opts.buildTimeoutMs);
  if (r.timedOut) return { problem: `npm run build timed out after ${Math.round(opts.buildTimeoutMs / 1000)} s:\n${tail(proc.output())}` };
  if (r.code !== 0) return { problem: `npm run build failed (exit ${r.code})${describeExit(r.code, proc.output(), opts.limits)}:\n${tail(proc.output())}` };
  const out = await findBuildOutput(root);
  if (!out) {
    const leaving = await buildOutputLeaving(root);
    if (leaving.length) return { problem: `npm run build left ${leaving.join(', ')} as a link out of the site folder; links out of it are never served` };
    return { problem: 'npm run build succeeded but left no dist/, build/ or out/ folder with an index.html to serve' };
  }
  const served = await serveStatic(out, { fence: root });
  return { site: { ...served, mode: 'build', problems: [], log: proc.output() } };
}

async function startServer(root: string, project: NpmProject, script: 'dev' | 'start', opts: ResolvedSiteOptions): Promise<Attempt> {
  const port = await freePort();
  const extra = portArgs(project.scripts[script] ?? '', port);
  const npmArgv = ['npm', 'run', script, ...(extra.length ? ['--', ...extra] : [])];
  // In a network namespace of its own the server reaches nothing; the bridge relays the judged
  // browser to it, on the same port number so the URLs it prints stay right.
  const bridge = opts.sandbox.ownNetwork ? await openPortBridge() : undefined;
  if (bridge) await bridge.forward(port, port);
  const proc = await sandboxed(root, bridge ? bridged(bridge, npmArgv) : npmArgv, opts, {
    network: false,
    env: { PORT: String(port), HOST: '127.0.0.1' },
    ...(bridge ? { bridge } : {}),
  }).catch(async (e: unknown) => {
    await bridge?.close();
    throw e;
  });
  const stop = async (graceMs?: number) => {
    await proc.kill(graceMs);
    await bridge?.close();
  };
  const deadline = Date.now() + opts.startTimeoutMs;
  while (Date.now() < deadline) {
    if (proc.hasExited()) {
      const code = await proc.exited;
      await stop(0);
      return { problem: `npm run ${script} exited (${code}) before serving anything${describeExit(code, proc.output(), opts.limits)}:\n${tail(proc.output())}` };
    }
    for (const url of await candidates(port, proc.output(), bridge)) {
      if (await reachable(url)) {
        return { site: { url, root, close: () => stop(), mode: script, problems: [], log: proc.output() } };
      }
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await stop();
  return {
    problem:
      `npm run ${script} did not answer on port ${port} (PORT and HOST were set) or on a URL it printed ` +
      `within ${Math.round(opts.startTimeoutMs / 1000)} s:\n${tail(proc.output())}`,
  };
}

/** Where the server may be answering, as host URLs: through the bridge, a printed port gets a relay of its own. */
async function candidates(port: number, output: string, bridge: PortBridge | undefined): Promise<string[]> {
  const urls = [`http://127.0.0.1:${port}`, ...urlsInOutput(output)];
  if (!bridge) return urls;
  const out = new Set<string>();
  for (const u of urls) out.add(`http://127.0.0.1:${await bridge.forward(Number(new URL(u).port))}`);
  return [...out];
}

/** The command line with the inner end of the bridge started beside it, inside the same sandbox. */
function bridged(bridge: PortBridge, argv: string[]): string[] {
  return ['/bin/sh', '-c', '"$0" "$1" "$2" & shift 2; exec "$@"', process.execPath, INNER_BRIDGE, bridge.socketPath, ...argv];
}

/** A site process in the sandbox: the workspace is its only writable folder besides a private /tmp. */
function sandboxed(
  root: string,
  argv: string[],
  opts: ResolvedSiteOptions,
  how: { network: boolean; env?: Record<string, string>; bridge?: PortBridge },
): Promise<GroupProcess> {
  const exposures: Exposure[] = [{ path: root, writable: true }];
  if (how.bridge) exposures.push({ path: how.bridge.dir, writable: true }, { path: INNER_BRIDGE, writable: false });
  return opts.sandbox.spawn({ argv, cwd: root, env: { ...opts.env, ...how.env }, exposures, network: how.network, limits: opts.limits });
}

/** Any HTTP answer counts: a dev server that returns 404 on / is up, and the agent should see the 404. */
function reachable(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 800 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
