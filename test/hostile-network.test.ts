import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { createCommandAgent } from '../agent/command/command-agent.js';
import { endpointsInValues, parseAgentNetworkSetting, roleEndpoint } from '../sandbox/endpoints.js';
import { getSandbox, proxyPort, Sandbox } from '../sandbox/sandbox.js';
import { episode, launchBrowser, removeTempDirs, tempDir } from './agent-support.js';
import { listenLocal } from './sandbox-support.js';

/**
 * A command: agent's network reaches its configured model endpoints and nothing else: not another
 * 127.0.0.1 port (another run's site, the harness's own servers), not through the proxy, not by
 * talking to the relay's socket itself.
 */

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const isolation = getSandbox().detected.isolation;
const needsBwrap = isolation === 'bwrap' ? false : `needs bubblewrap, unavailable here (${isolation})`;

let browser: Browser;
const hits = { model: 0, bystander: 0 };
let model: http.Server;
let bystander: http.Server;

before(async () => {
  browser = await launchBrowser();
  model = http.createServer((_req, res) => {
    hits.model++;
    res.end('model');
  });
  bystander = http.createServer((_req, res) => {
    hits.bystander++;
    res.end('<title>another run\u2019s site</title>');
  });
  await Promise.all([listenLocal(model), listenLocal(bystander)]);
});
after(async () => {
  await browser.close();
  model.close();
  bystander.close();
  await removeTempDirs();
});

/** Tries each way out; reports which worked. Plain Node: http.get direct and through the proxy, CONNECT, the raw socket. */
const PROBE = `
const http = require('http'), net = require('net'), fs = require('fs');
const [modelPort, otherPort] = process.argv.slice(2).map(Number);
const proxy = new URL(process.env.HTTP_PROXY || 'http://127.0.0.1:1');
const get = (opts) => new Promise((resolve) => {
  const r = http.get({ timeout: 3000, ...opts }, (res) => { let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => resolve(res.statusCode + ' ' + b.slice(0, 40))); });
  r.on('error', (e) => resolve('error ' + e.code)); r.on('timeout', () => { r.destroy(); resolve('timeout'); });
});
const connect = (port) => new Promise((resolve) => {
  const r = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: '127.0.0.1:' + port, timeout: 3000 });
  r.on('connect', (res, socket) => { socket.destroy(); resolve(String(res.statusCode)); });
  r.on('response', (res) => resolve(String(res.statusCode)));
  r.on('error', (e) => resolve('error ' + e.code)); r.end();
});
const raw = (port) => new Promise((resolve) => {
  // The relay's socket, found as a hostile program would: on the relay's command line.
  const sock = fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).map((p) => { try { return fs.readFileSync('/proc/' + p + '/cmdline', 'utf8').split('\\0').find((a) => a.endsWith('egress.sock')); } catch { return undefined; } }).find(Boolean);
  if (!sock) return resolve('no socket');
  const s = net.connect(sock); let b = '';
  s.on('data', (c) => (b += c)); s.on('close', () => resolve(b.trim() || 'closed')); s.on('error', (e) => resolve('error ' + e.code));
  s.write('127.0.0.1:' + port + '\\nGET / HTTP/1.0\\r\\n\\r\\n');
});
(async () => {
  const out = {
    modelDirect: await get({ host: '127.0.0.1', port: modelPort, path: '/' }),
    modelProxied: await get({ host: proxy.hostname, port: proxy.port, path: 'http://127.0.0.1:' + modelPort + '/' }),
    modelConnect: await connect(modelPort),
    otherDirect: await get({ host: '127.0.0.1', port: otherPort, path: '/' }),
    otherProxied: await get({ host: proxy.hostname, port: proxy.port, path: 'http://127.0.0.1:' + otherPort + '/' }),
    otherConnect: await connect(otherPort),
    otherRaw: await raw(otherPort),
    otherListed: fs.readFileSync('/proc/net/tcp', 'utf8').includes(':' + otherPort.toString(16).toUpperCase().padStart(4, '0') + ' '),
  };
  require('readline').createInterface({ input: process.stdin }).once('line', () => console.log(JSON.stringify({ type: 'submit', note: JSON.stringify(out) })));
})();
`;

describe("a command: agent's network", () => {
  test('reaches its model endpoint and no other local port, directly, through the proxy or by CONNECT', { skip: needsBwrap }, async () => {
    const dir = await tempDir('net-agent');
    await fs.chmod(dir, 0o755);
    const file = path.join(dir, 'agent.cjs');
    await fs.writeFile(file, PROBE);
    const modelPort = (model.address() as AddressInfo).port;
    const otherPort = (bystander.address() as AddressInfo).port;
    const base = getSandbox();
    // The model endpoint arrives as a URL in a variable the agent is given, as a real agent's would.
    const sandbox = new Sandbox(base.detected, { ...base.config, agentEnv: ['MY_BASE_URL'], agentNetwork: { mode: 'allowlist', endpoints: [] } });
    const agent = createCommandAgent({ command: `node ${file} ${modelPort} ${otherPort}`, stepTimeoutMs: 30_000, cwd: ROOT, env: { ...process.env, MY_BASE_URL: `http://127.0.0.1:${modelPort}/v1` }, sandbox });
    hits.model = 0;
    hits.bystander = 0;
    const { t } = await episode(agent, browser);
    assert.equal(t.status, 'submitted', t.error);
    const out = JSON.parse(t.steps[0]!.note ?? '{}') as Record<string, string | boolean>;
    assert.match(String(out.modelDirect), /^200 model/);
    assert.match(String(out.modelProxied), /^200 model/);
    assert.equal(out.modelConnect, '200');
    assert.doesNotMatch(String(out.otherDirect), /^200/);
    assert.match(String(out.otherProxied), /^403/);
    assert.equal(out.otherConnect, '403');
    assert.equal(out.otherRaw, 'refused');
    assert.equal(out.otherListed, false, "another port's listener shows in /proc/net/tcp");
    assert.equal(hits.bystander, 0, 'the other port was reached');
    assert.equal(hits.model, 2);
  });
});

describe('which endpoints are allowed', () => {
  test('the setting takes pairs and URLs, or host; anything else is refused with an example', () => {
    assert.deepEqual(parseAgentNetworkSetting('api.example.com:443, http://LOCALHOST:8000/v1 [::1]:9000'), {
      mode: 'allowlist',
      endpoints: [{ host: 'api.example.com', port: 443 }, { host: 'localhost', port: 8000 }, { host: '::1', port: 9000 }],
    });
    assert.deepEqual(parseAgentNetworkSetting('host'), { mode: 'host' });
    assert.deepEqual(parseAgentNetworkSetting(''), { mode: 'allowlist', endpoints: [] });
    assert.throws(() => parseAgentNetworkSetting('example.com'), /neither host:port nor an http\(s\) URL/);
  });

  test("the agent role's endpoint, the SDK default without a base URL, and URLs among the agent's variables", () => {
    assert.deepEqual(roleEndpoint({ baseURL: 'http://127.0.0.1:8000/v1' }), [{ host: '127.0.0.1', port: 8000 }]);
    assert.deepEqual(roleEndpoint({}), [{ host: 'api.openai.com', port: 443 }]);
    assert.deepEqual(roleEndpoint(undefined), []);
    assert.deepEqual(endpointsInValues(['sk-123', 'https://models.example/v1', 'ftp://x:21']), [{ host: 'models.example', port: 443 }]);
  });

  test("the proxy's port never takes a loopback endpoint's", () => {
    assert.equal(proxyPort([]), 3128);
    assert.equal(proxyPort([{ host: '127.0.0.1', port: 3128 }, { host: 'localhost', port: 3129 }]), 3130);
  });
});
