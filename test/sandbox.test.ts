import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { createCommandAgent, type CommandAgentOptions } from '../agent/command/command-agent.js';
import { startSite } from '../site/site.js';
import { allowOnlyOrigin } from '../sandbox/browser-network.js';
import { guardPage } from '../vision/page-guard.js';
import { parseAgentLine } from '../agent/command/command-protocol.js';
import { agentEnvironment, parseAgentEnvNames } from '../sandbox/env.js';
import { agentProgramPaths } from '../sandbox/exposures.js';
import { AGENT_LIMITS, SYSTEM_DIRS, wrapArgv, type ResourceLimits } from '../sandbox/policy.js';
import { getSandbox, Sandbox } from '../sandbox/sandbox.js';
import { episode, launchBrowser, removeTempDirs, tempDir } from './agent-support.js';
import { processesWith } from './sandbox-support.js';

/**
 * Hostile agents and sites, each contained. Every test here fails when the processes run unconfined
 * as before (checked once by hand when this was written; see docs/sandbox.md).
 */

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const PLANTED = `planted-key-${process.pid}-${Date.now()}`;
const MiB = 1024 * 1024;
/** Hiding files and the network needs bubblewrap; limits and reaping hold in the separate-user fallback too. */
const isolation = getSandbox().detected.isolation;
const needsBwrap = isolation === 'bwrap' ? false : `needs bubblewrap, unavailable here (${isolation})`;
const needsSandbox = isolation === 'bwrap' || isolation === 'user' ? false : `needs a sandbox, unavailable here (${isolation})`;

let browser: Browser;
/** A process of the harness's user holding a key in its environment, as a Playwright worker would. */
let holder: ChildProcess;
/** Gold data and another case's workspace, at paths a hostile agent knows. */
let gold: string;
let otherCase: string;

before(async () => {
  browser = await launchBrowser();
  holder = spawn('sleep', ['120'], { env: { ...process.env, IWB_JUDGE_API_KEY: PLANTED }, stdio: 'ignore' });
  const data = await tempDir('dataset');
  gold = path.join(data, 'all.jsonl');
  await fs.writeFile(gold, JSON.stringify({ goldInstruction: 'the secret answer' }) + '\n');
  otherCase = path.join(await tempDir('run'), 'other-case', 'workspace');
  await fs.mkdir(otherCase, { recursive: true });
  await fs.writeFile(path.join(otherCase, 'index.html'), '<h1>another case</h1>');
});
after(async () => {
  holder.kill('SIGKILL');
  await Promise.all([browser.close(), removeTempDirs()]);
});

/** What a hostile program tries, as a script: scan every /proc/<pid>/environ, read gold and neighbours. */
const SPY = (targets: string[]) => `
const fs = require('fs');
const found = [];
for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'utf8').includes(${JSON.stringify(PLANTED)})) found.push('key in /proc/' + pid + '/environ'); } catch {}
}
if (Object.values(process.env).some((v) => String(v).includes(${JSON.stringify(PLANTED)}))) found.push('key in own env');
for (const t of ${JSON.stringify(targets)}) { try { fs.readFileSync(t); found.push('read ' + t); } catch {} }
`;

/** The program is a file in a folder of its own, which the sandbox exposes read-only. */
async function agent(code: string, extra: Partial<CommandAgentOptions> = {}) {
  const dir = await tempDir('agent');
  // As root, the sandbox runs the agent as a uid of its own: its folder must be readable by others, as
  // an installed program's is (mkdtemp makes it 0700).
  await fs.chmod(dir, 0o755);
  const file = path.join(dir, 'agent.cjs');
  await fs.writeFile(file, code);
  return createCommandAgent({
    command: `node ${file}`,
    stepTimeoutMs: 20_000,
    cwd: ROOT,
    env: { ...process.env, OPENAI_API_KEY: PLANTED },
    ...extra,
  });
}

/** An agent that runs `setup` once, then answers its first message with a submit carrying `report()` as the note. */
const reporting = (setup: string, report: string) =>
  `${setup}\nrequire('readline').createInterface({ input: process.stdin }).once('line', () => console.log(JSON.stringify({ type: 'submit', note: JSON.stringify(${report}) })));`;

const tight = (over: Partial<ResourceLimits>): ResourceLimits => ({ ...AGENT_LIMITS, ...over });

describe('a hostile command: agent', () => {
  test('finds no key in any /proc/*/environ, no gold file, no task, no other case', { skip: needsBwrap }, async () => {
    const tasks = (await fs.readdir(path.join(ROOT, 'tasks'))).map((t) => path.join(ROOT, 'tasks', t, 'task.json'));
    const targets = [gold, path.join(otherCase, 'index.html'), ...tasks.slice(0, 3), path.join(ROOT, 'playwright.config.ts')];
    const { t } = await episode(await agent(reporting(SPY(targets), 'found')), browser);
    assert.equal(t.status, 'submitted', t.error);
    assert.deepEqual(JSON.parse(t.steps[0]!.note ?? 'null'), []);
    assert.equal(t.sandbox, getSandbox().detected.isolation);
  });

  test('a 2 GB protocol line is refused as it streams, within seconds', { skip: needsSandbox }, async () => {
    // Written in 1 MiB pieces: the program never holds the line, and neither may the harness.
    const flood = "const b = Buffer.alloc(1 << 20, 97); let n = 0; const w = () => { while (n < 2048) { n++; if (!process.stdout.write(b)) return process.stdout.once('drain', w); } }; process.stdin.once('data', w);";
    const started = Date.now();
    const { t } = await episode(await agent(flood), browser);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(t.status, 'agent-failed'); // the agent's own doing: its site is still judged
    assert.match(t.error ?? '', /protocol line longer than 33554432 characters/);
    assert.ok(seconds < 15, `took ${seconds} s`);
  });

  test('a fork bomb stops at the process limit and nothing of it outlives the episode', { skip: needsSandbox }, async () => {
    // Bounded at 2^7 processes even unconfined, so a failing sandbox cannot take the machine down.
    const mark = `bomb-${process.pid}-${Date.now()}`;
    const bomb = `sh -c 'b() { [ $1 -lt 7 ] && { b $(($1 + 1)) & b $(($1 + 1)) & }; sleep 20; }; b 0' ${mark}`;
    const setup = `require('child_process').spawn('sh', ['-c', ${JSON.stringify(bomb)}], { stdio: 'ignore', detached: true }).unref(); const peak = { n: 0 };
const fs = require('fs');
const marked = (p) => { try { return fs.readFileSync('/proc/' + p + '/cmdline', 'utf8').includes(${JSON.stringify(mark)}); } catch { return false; } };
const count = () => { try { peak.n = Math.max(peak.n, fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p) && marked(p)).length); } catch {} };
const timer = setInterval(count, 50); setTimeout(() => clearInterval(timer), 3000);`;
    const code = setup + `\nrequire('readline').createInterface({ input: process.stdin }).once('line', () => setTimeout(() => console.log(JSON.stringify({ type: 'submit', note: String(peak.n) })), 3000));`;
    const { t } = await episode(await agent(code, { limits: tight({ processes: 32, cpuSeconds: 10 }) }), browser);
    assert.equal(t.status, 'submitted', t.error);
    const peak = Number(t.steps[0]!.note);
    // Unconfined, the bomb reaches 255 shells; the limit of 32 counts the agent, its threads and the sleeps too.
    // How far below the limit it stops depends on the machine (CI once saw 3: the agent's own threads count),
    // so the floor only shows the bomb ran; the ceiling and the reaping below are the claims.
    assert.ok(peak >= 1 && peak <= 32, `peak of ${peak} bomb processes`);
    assert.deepEqual(await processesWith(mark), [], 'bomb processes left running');
  });

  test('a memory hog is stopped by its memory limit, with the limit named', { skip: needsSandbox }, async () => {
    const hog = "process.stdin.once('data', () => { const keep = []; for (let i = 0; i < 2560; i++) keep.push(Buffer.allocUnsafe(1 << 20)); console.log(JSON.stringify({ type: 'submit', note: 'allocated ' + keep.length })); });";
    const { t } = await episode(await agent(hog, { limits: tight({ memoryBytes: 1280 * MiB }) }), browser);
    assert.equal(t.status, 'agent-failed', `the hog finished: ${t.steps[0]?.note}`);
    assert.match(t.error ?? '', /memory limit of 1280 MiB/);
  });

  test('a setsid daemon dies with the episode', { skip: needsSandbox }, async () => {
    const mark = `daemon-${process.pid}-${Date.now()}`;
    const setup = `require('child_process').spawn('setsid', ['sh', '-c', 'sleep 300', ${JSON.stringify(mark)}], { stdio: 'ignore', detached: true }).unref();`;
    const { t } = await episode(await agent(reporting(setup, "'started'")), browser);
    assert.equal(t.status, 'submitted', t.error);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await processesWith(mark), []);
  });
});

describe('without bubblewrap', () => {
  const config = { agentEnv: [], unsafe: false, agentNetwork: { mode: 'allowlist' as const, endpoints: [] }, hidden: { trees: [], wholes: [ROOT] } };

  test('no sandbox and no consent: the episode errors, saying what to do', async () => {
    const refused = new Sandbox({ isolation: 'refused', detail: 'bubblewrap failed (test); install bubblewrap or set IWB_UNSAFE_NO_SANDBOX=1' }, config);
    const { t } = await episode(await agent(reporting('', "'ran'"), { sandbox: refused }), browser);
    assert.equal(t.status, 'errored');
    assert.match(t.error ?? '', /SandboxUnavailable: .*IWB_UNSAFE_NO_SANDBOX=1/);
  });

  test('as root, the fallback user cannot read the harness user\'s files or keys, and its daemons die', { skip: process.getuid?.() !== 0 ? 'needs root' : false }, async () => {
    const fallback = new Sandbox({ isolation: 'user', root: true, detail: 'test' }, config);
    const keyFile = path.join(await tempDir('keys'), 'key.txt');
    await fs.writeFile(keyFile, PLANTED, { mode: 0o600 });
    const mark = `user-daemon-${process.pid}-${Date.now()}`;
    const setup = `${SPY([keyFile])}
require('child_process').spawn('setsid', ['sh', '-c', 'sleep 300', ${JSON.stringify(mark)}], { stdio: 'ignore', detached: true }).unref();
found.push('uid ' + process.getuid());`;
    const { t } = await episode(await agent(reporting(setup, 'found'), { sandbox: fallback }), browser);
    assert.equal(t.status, 'submitted', t.error);
    const found = JSON.parse(t.steps[0]!.note ?? '[]') as string[];
    assert.equal(found.length, 1, found.join('; '));
    assert.match(found[0]!, /^uid [1-9]\d{5}$/);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await processesWith(mark), []);
  });
});

describe('a hostile site', () => {
  test("its dev script finds no key, no gold, no other case, reaches no other port, and its daemon dies with it", { skip: needsBwrap }, async () => {
    const mark = `site-daemon-${process.pid}-${Date.now()}`;
    let contacted = 0;
    const bystander = http.createServer((_req, res) => {
      contacted++;
      res.end('ok');
    });
    await new Promise<void>((r) => bystander.listen(0, '127.0.0.1', r));
    const port = (bystander.address() as AddressInfo).port;
    const spy = `${SPY([gold, path.join(otherCase, 'index.html'), path.join(ROOT, 'tasks')])}
require('child_process').spawn('setsid', ['sh', '-c', 'sleep 300', ${JSON.stringify(mark)}], { stdio: 'ignore', detached: true }).unref();
const http = require('http');
const probe = new Promise((resolve) => { const r = http.get('http://127.0.0.1:${port}/', () => resolve('reached port ${port}')); r.on('error', () => resolve(null)); r.setTimeout(2000, () => { r.destroy(); resolve(null); }); });
probe.then((p) => { if (p) found.push(p); http.createServer((q, s) => s.end('<title>spy</title><pre id="found">' + JSON.stringify(found) + '</pre>')).listen(Number(process.env.PORT), '127.0.0.1'); });`;
    const root = await tempDir('hostile-site');
    await fs.writeFile(path.join(root, 'spy.cjs'), spy);
    await fs.writeFile(path.join(root, 'package.json'), JSON.stringify({ scripts: { dev: 'node spy.cjs' } }));
    const site = await startSite(root, { startTimeoutMs: 20_000, env: { ...process.env, OPENAI_API_KEY: PLANTED } });
    try {
      assert.equal(site.mode, 'dev', site.problems.join('\n'));
      const page = await browser.newPage();
      await page.goto(site.url);
      const found = JSON.parse((await page.locator('#found').textContent()) ?? 'null');
      await page.close();
      assert.deepEqual(found, []);
      assert.equal(contacted, 0);
      assert.notDeepEqual(await processesWith(mark), [], 'the daemon started');
    } finally {
      await site.close();
      bystander.close();
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await processesWith(mark), [], 'the daemon outlived the site');
  });
});

/** An HTTP server that serves `html` and counts WebSocket upgrade requests (answered by closing). */
async function upgradeCounter(html = ''): Promise<{ port: number; upgrades: () => number; close: () => Promise<void> }> {
  let upgrades = 0;
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  server.on('upgrade', (_req, socket) => {
    upgrades++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    upgrades: () => upgrades,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

describe('the judged browser', () => {
  test("a WebSocket to another 127.0.0.1 port is refused; the site's own still connects", async () => {
    const other = await upgradeCounter();
    const html = `<title>ws</title><script>
      for (let i = 0; i < 3; i++) new WebSocket('ws://127.0.0.1:${other.port}/leak');
      new WebSocket('ws://' + location.host + '/hmr');
    </script>`;
    const site = await upgradeCounter(html);
    const page = await browser.newPage();
    const guard = await guardPage(page, `http://127.0.0.1:${site.port}/`);
    try {
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.waitForTimeout(500);
      assert.equal(other.upgrades(), 0, 'the other port was reached');
      assert.equal(guard.blocked(), 3);
      assert.ok(site.upgrades() >= 1, "the site's own socket was refused too");
    } finally {
      await guard.dispose();
      await page.close();
      await Promise.all([site.close(), other.close()]);
    }
  });
});

describe('the judged browser, routed twice', () => {
  test("the judge's guard inside the fixture's routed context: one route, the same refusals, counted by whoever was latest", async () => {
    const other = await upgradeCounter('<title>other</title>');
    const html = `<title>site</title><script>
      window.leak = () => fetch('http://127.0.0.1:${other.port}/leak').catch(() => {});
    </script>`;
    const site = await upgradeCounter(html);
    const context = await browser.newContext();
    const routes: string[] = [];
    const route = context.route.bind(context);
    context.route = ((url: string, handler: never) => (routes.push(url), route(url, handler))) as typeof context.route;
    const page = await context.newPage();
    let fixture = 0;
    try {
      await allowOnlyOrigin(context, `http://127.0.0.1:${site.port}`, () => fixture++);
      const guard = await guardPage(page, `http://127.0.0.1:${site.port}/`);
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.evaluate(() => (window as unknown as { leak(): Promise<void> }).leak());
      assert.deepEqual([guard.blocked(), fixture], [1, 0], "while the guard holds, the refusal is the guard's alone, as when its own route ran first");
      assert.equal(routes.length, 1, 'the guard joined the route in force');
      await guard.dispose();
      await page.evaluate(() => (window as unknown as { leak(): Promise<void> }).leak());
      assert.deepEqual([guard.blocked(), fixture], [1, 1], "after the guard, the fixture's route still refuses, and counts");
      const elsewhere = await allowOnlyOrigin(context, `http://127.0.0.1:${other.port}`);
      assert.equal(routes.length, 2, 'a rule for another origin is a route of its own');
      await elsewhere.dispose();
    } finally {
      await context.close();
      await Promise.all([site.close(), other.close()]);
    }
  });
});

describe('the policy, as arguments', () => {
  test('servers get no network, root runs drop to a fresh uid, limits are plain numbers', () => {
    const jail = { argv: ['npm', 'run', 'dev'], cwd: '/w/site', exposures: [{ path: '/w/site', writable: true }], network: false, limits: AGENT_LIMITS };
    const asRoot = wrapArgv({ isolation: 'bwrap', uid: 250_000 }, jail, []);
    assert.equal(asRoot[0], 'bwrap');
    assert.ok(asRoot.includes('--unshare-net') && asRoot.includes('--unshare-pid') && asRoot.includes('--die-with-parent'));
    const bound = asRoot.flatMap((a, i) => (a === '--ro-bind' || a === '--bind' ? [asRoot[i + 1]!] : []));
    assert.deepEqual(bound.filter((p) => !SYSTEM_DIRS.includes(p)), ['/w/site'], 'nothing of the host beyond the system and the exposures');
    const setpriv = asRoot.indexOf('/usr/bin/setpriv');
    assert.ok(setpriv > asRoot.indexOf('--'), 'the uid changes inside the namespaces');
    assert.ok(asRoot.includes('--reuid=250000') && asRoot.includes('--no-new-privs'));
    assert.ok(asRoot.includes(`--data=${AGENT_LIMITS.memoryBytes}`) && asRoot.includes('--nproc=256'));
    assert.deepEqual(asRoot.slice(-3), ['npm', 'run', 'dev']);
    const withNet = wrapArgv({ isolation: 'bwrap' }, { ...jail, network: true }, []);
    assert.ok(!withNet.includes('--unshare-net') && withNet.includes('--unshare-user'));
    assert.equal(wrapArgv({ isolation: 'none' }, jail, [])[0], '/usr/bin/prlimit');
  });

  test('environments are allowlists; the agent gets the names in IWB_AGENT_ENV, never an IWB_ one', () => {
    const base = { PATH: '/bin', LANG: 'C', OPENAI_API_KEY: 'k', MY_MODEL_KEY: 'm', IWB_JUDGE_API_KEY: 'j', HOME: '/root' };
    assert.deepEqual(Object.keys(agentEnvironment(base)).sort(), ['HOME', 'LANG', 'PATH', 'TMPDIR']);
    assert.equal(agentEnvironment(base, ['MY_MODEL_KEY']).MY_MODEL_KEY, 'm');
    assert.equal(agentEnvironment(base, ['IWB_JUDGE_API_KEY']).IWB_JUDGE_API_KEY, undefined);
    assert.equal(agentEnvironment(base).HOME, '/tmp/home');
    assert.deepEqual(parseAgentEnvNames('MY_MODEL_KEY, MY_BASE_URL'), ['MY_MODEL_KEY', 'MY_BASE_URL']);
    assert.throws(() => parseAgentEnvNames('IWB_JUDGE_API_KEY'), /harness setting/);
    assert.throws(() => parseAgentEnvNames('not-a-name'), /not a variable name/);
  });

  test("an agent's own folder is exposed, never one that holds the tasks, the runs or the project", () => {
    const hidden = { trees: [path.join(ROOT, 'tasks'), path.join(ROOT, '.iwb')], wholes: [ROOT] };
    assert.deepEqual(agentProgramPaths('node examples/echo-agent.mjs', ROOT, hidden), [{ path: path.join(ROOT, 'examples') }]);
    assert.deepEqual(agentProgramPaths('node playwright.config.ts', ROOT, hidden), [{ path: path.join(ROOT, 'playwright.config.ts') }]);
    assert.deepEqual(agentProgramPaths('cat tasks/bakery-menu/task.json', ROOT, hidden), []);
    assert.deepEqual(agentProgramPaths('ls .', ROOT, hidden), []);
  });

  test('self-reported tokens are bounded', () => {
    assert.match((parseAgentLine('{"type":"submit","usage":{"promptTokens":1e12,"completionTokens":1}}') as { invalid: string }).invalid, /usage/);
  });
});
