import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { adapter as openai } from '../agent/adapters/openai.js';
import { siteEnvironment } from '../sandbox/env.js';
import { portArgs, urlsInOutput } from '../site/npm-project.js';
import { startSite, type SiteOptions } from '../site/site.js';
import { Workspace } from '../agent/workspace.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import { episode, fakeClient, launchBrowser, tempDir, removeTempDirs } from './agent-support.js';
import { processesWith } from './sandbox-support.js';

// A server in plain Node that shows what it was started with: port, argv, pid and environment names.
const SERVER = `import http from 'node:http';
const port = Number(process.env.PORT);
const argPort = process.argv.indexOf('--port');
const listen = argPort > 0 ? Number(process.argv[argPort + 1]) : port;
let extra = '';
try { extra = (await import('lib')).default; } catch {}
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><title>Node site</title><h1>Served by node</h1>' +
    '<pre id="info">' + JSON.stringify({ port: listen, host: process.env.HOST, argv: process.argv.slice(2), pid: process.pid, env: Object.keys(process.env), extra }) + '</pre>');
}).listen(listen, '127.0.0.1');
`;
// Ignores PORT, listens where the OS says, and prints where, as many dev servers do.
const PRINTS_URL = `import http from 'node:http';
const s = http.createServer((req, res) => res.end('<title>printed</title><h1>found by its log</h1>'));
s.listen(0, '127.0.0.1', () => console.log('  ready in 12 ms\\n  \\u001b[32m➜\\u001b[0m  Local:   http://localhost:' + s.address().port + '/'));
`;

const FAST: SiteOptions = { installTimeoutMs: 30_000, buildTimeoutMs: 30_000, startTimeoutMs: 10_000 };

async function project(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('site');
  for (const [p, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await fs.writeFile(path.join(dir, p), content);
  }
  return dir;
}
const pkg = (scripts: Record<string, string>, dependencies?: Record<string, string>) =>
  JSON.stringify({ name: 'agent-site', private: true, type: 'module', scripts, ...(dependencies ? { dependencies } : {}) });

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await Promise.all([browser.close(), removeTempDirs()]);
});

async function info(url: string): Promise<{ port: number; host: string; argv: string[]; pid: number; env: string[]; extra: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    assert.equal(await page.locator('h1').textContent(), 'Served by node');
    return JSON.parse((await page.locator('#info').textContent()) ?? '{}');
  } finally {
    await page.close();
  }
}

describe('npm projects the agent builds', () => {
  test('a start script with no dependencies: no install, a free port, no secrets, killed on close', async () => {
    const mark = `start-site-${process.pid}-${Date.now()}`;
    const root = await project({ 'package.json': pkg({ start: `node server.mjs ${mark}` }), 'server.mjs': SERVER });
    const env = { ...process.env, FOO_API_KEY: 'k', GH_TOKEN: 't', MY_SECRET_THING: 's', OPENAI_BASE_URL: 'u', IWB_DATASET: 'gold.jsonl', KEEP_ME: '1', LANG: 'C.UTF-8' };
    const site = await startSite(root, { ...FAST, env });
    assert.equal(site.mode, 'start');
    assert.deepEqual(site.problems, []);
    assert.equal(existsSync(path.join(root, 'node_modules')), false, 'no install without dependencies');
    const seen = await info(site.url);
    assert.equal(site.url, `http://127.0.0.1:${seen.port}`);
    assert.equal(seen.host, '127.0.0.1');
    // An allowlist: not only what looks like a secret stays out, anything not named does.
    for (const name of ['FOO_API_KEY', 'GH_TOKEN', 'MY_SECRET_THING', 'OPENAI_BASE_URL', 'IWB_DATASET', 'KEEP_ME']) assert.ok(!seen.env.includes(name), name);
    assert.ok(seen.env.includes('PATH') && seen.env.includes('LANG'));
    assert.notDeepEqual(await processesWith(mark), []);
    await site.close();
    assert.deepEqual(await processesWith(mark), [], 'every process of the site is gone after close');
    await assert.rejects(fetch(site.url));
  });

  test('dev is preferred, vite-like dev scripts get --port and --host', async () => {
    const root = await project({ 'package.json': pkg({ dev: 'node server.mjs vite', start: 'node -e "process.exit(1)"' }), 'server.mjs': SERVER });
    const site = await startSite(root, FAST);
    try {
      assert.equal(site.mode, 'dev');
      const seen = await info(site.url);
      assert.deepEqual(seen.argv, ['vite', '--port', String(seen.port), '--host', '127.0.0.1']);
    } finally {
      await site.close();
    }
  });

  test('a server that ignores PORT is found through the URL it prints', async () => {
    const root = await project({ 'package.json': pkg({ start: 'node printer.mjs' }), 'printer.mjs': PRINTS_URL });
    const site = await startSite(root, FAST);
    try {
      assert.equal(site.mode, 'start');
      assert.match(await (await fetch(site.url)).text(), /found by its log/);
    } finally {
      await site.close();
    }
  });

  test('a build script is run and its dist/ served', async () => {
    const build = `import fs from 'node:fs'; fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.html', '<title>built</title><h1>from dist</h1>');`;
    const root = await project({ 'package.json': pkg({ build: 'node build.mjs' }), 'build.mjs': build });
    const site = await startSite(root, FAST);
    try {
      assert.equal(site.mode, 'build');
      assert.match(await (await fetch(site.url)).text(), /from dist/);
    } finally {
      await site.close();
    }
  });

  test('dependencies are installed once (local file: dependency, no download)', async () => {
    const root = await project({
      'package.json': pkg({ start: 'node server.mjs' }, { lib: 'file:./lib' }),
      'server.mjs': SERVER,
      'lib/package.json': JSON.stringify({ name: 'lib', version: '1.0.0', type: 'module', main: 'index.js' }),
      'lib/index.js': "export default 'from lib';\n",
    });
    const first = await startSite(root, FAST);
    const marker = path.join(root, 'node_modules', '.iwb-install-key');
    try {
      assert.deepEqual(first.problems, []);
      assert.equal((await info(first.url)).extra, 'from lib');
    } finally {
      await first.close();
    }
    const installedAt = (await fs.stat(marker)).mtimeMs;
    const second = await startSite(root, FAST);
    await second.close();
    assert.equal((await fs.stat(marker)).mtimeMs, installedAt, 'an unchanged package.json is not installed again');
    const ws = await Workspace.open(root);
    assert.ok(!(await ws.list()).some((f) => f.startsWith('node_modules/')), 'installed packages are not workspace files');
  });

  test('an install over the node_modules limit is removed and reported', async () => {
    const root = await project({
      'package.json': pkg({ start: 'node server.mjs' }, { lib: 'file:./lib' }),
      'server.mjs': SERVER,
      'lib/package.json': JSON.stringify({ name: 'lib', version: '1.0.0', type: 'module', main: 'index.js' }),
      'lib/index.js': "export default 'from lib';\n",
    });
    const site = await startSite(root, { ...FAST, installLimits: { files: 1, bytes: 1 << 20 } });
    try {
      assert.match(site.problems[0] ?? '', /npm install wrote \d+ files, 0 MiB into node_modules, over the limit of 1 files/);
      assert.equal(existsSync(path.join(root, 'node_modules')), false);
    } finally {
      await site.close();
    }
  });

  test('install and start failures become problems; what is servable is served', async () => {
    const root = await project({
      'package.json': pkg({ start: 'node -e "console.error(\'boom: no server here\'); process.exit(3)"' }, { lib: 'workspace:*' }),
      'index.html': '<title>fallback</title><h1>static fallback</h1>',
    });
    const site = await startSite(root, FAST);
    try {
      assert.equal(site.mode, 'static');
      assert.match(site.problems[0]!, /npm install failed \(exit 1\)[\s\S]*EUNSUPPORTEDPROTOCOL/);
      assert.match(site.problems[1]!, /npm run start exited \(3\) before serving anything[\s\S]*boom: no server here/);
      assert.match(site.problems[2]!, /served as static files/);
      assert.match(await (await fetch(site.url)).text(), /static fallback/);
    } finally {
      await site.close();
    }
  });

  test('nothing servable: an error page naming the failure; a silent server times out and is killed', async () => {
    const hang = `setInterval(() => {}, 1000);`;
    const mark = `hang-site-${process.pid}-${Date.now()}`;
    const root = await project({ 'package.json': JSON.stringify({ scripts: { start: `node hang.cjs ${mark}` } }), 'hang.cjs': hang });
    const site = await startSite(root, { ...FAST, startTimeoutMs: 1500 });
    try {
      assert.equal(site.mode, 'error');
      assert.match(site.problems[0]!, /did not answer on port \d+ .* within 2 s/);
      const res = await fetch(site.url);
      assert.equal(res.status, 503);
      assert.match(await res.text(), /Site failed to start[\s\S]*did not answer/);
      assert.deepEqual(await processesWith(mark), [], 'the timed-out server was killed');
    } finally {
      await site.close();
    }
  });

  test('a package.json that is not JSON is reported and the folder served statically', async () => {
    const root = await project({ 'package.json': '{ "scripts": ', 'index.html': '<h1>plain</h1>' });
    const site = await startSite(root, FAST);
    try {
      assert.equal(site.mode, 'static');
      assert.match(site.problems[0]!, /package\.json is not valid JSON/);
    } finally {
      await site.close();
    }
  });

  test('helpers: port flags per dev server, URLs in logs, the cleaned environment', () => {
    assert.deepEqual(portArgs('vite', 5000), ['--port', '5000', '--host', '127.0.0.1']);
    assert.deepEqual(portArgs('next dev', 5000), ['-p', '5000', '-H', '127.0.0.1']);
    assert.deepEqual(portArgs('vite build', 5000), []);
    assert.deepEqual(portArgs('node server.js', 5000), []);
    assert.deepEqual(urlsInOutput('Local: \u001b[36mhttp://localhost:\u001b[1m5173\u001b[22m/'), ['http://127.0.0.1:5173', 'http://localhost:5173']);
    assert.deepEqual(urlsInOutput('at http://0.0.0.0:8080 and http://127.0.0.1:3000/x'), ['http://127.0.0.1:8080', 'http://127.0.0.1:3000']);
    assert.deepEqual(urlsInOutput('Local: http://localhost:5173/'), ['http://127.0.0.1:5173', 'http://localhost:5173']);
    const env = siteEnvironment({ PATH: '/bin', ANTHROPIC_API_KEY: 'a', AWS_SECRET_ACCESS_KEY: 'b', npm_lifecycle_event: 'bench', IWB_AGENT: 'x', HOME: '/root' }, { PORT: '1' });
    assert.deepEqual(Object.keys(env).sort(), ['BROWSER', 'FORCE_COLOR', 'HOME', 'NO_COLOR', 'PATH', 'PORT', 'TMPDIR', 'npm_config_cache', 'npm_config_update_notifier']);
  });
});

describe('an episode that builds an npm project', () => {
  let fake: FakeServer;
  before(async () => {
    fake = await start();
  });
  after(async () => {
    await fake.close();
  });

  test('is started on a free port for implement and verify, and the verify sees it', async () => {
    const files = [
      { path: 'package.json', content: pkg({ start: 'node server.mjs' }) },
      { path: 'server.mjs', content: SERVER },
    ];
    fake.script(
      reply.tools([{ name: 'implement', arguments: { files } }]),
      reply.tools([{ name: 'verify', arguments: { path: '/' } }]),
      reply.tools([{ name: 'submit', arguments: {} }]),
    );
    const agent = openai.create(undefined, { clients: { agent: fakeClient(fake) } });
    const { t, dir } = await episode(agent, browser);
    assert.equal(t.status, 'submitted', t.error);
    assert.deepEqual(t.steps[0]!.site, { mode: 'start', problems: [] });
    assert.match(t.steps[1]!.observation, /rendered \/ \("Node site"\)/);
    assert.match(String(fake.requests[2]!.body.messages.find((m) => m.role === 'tool' && m.content && String(m.content).startsWith('Opened'))?.content), /"Node site"/);
    const judged = await startSite(path.join(dir, 'workspace'), FAST);
    try {
      assert.equal(judged.mode, 'start');
      assert.match(await (await fetch(judged.url)).text(), /Served by node/);
    } finally {
      await judged.close();
    }
  });
});
