import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { chromium } from '@playwright/test';
import { BROWSER_UID, browserSandbox, chromiumLaunchOptions, machineFacts } from '../config/chromium-sandbox.js';
import { readSettings } from '../config/settings.js';
import { formatMarkdown } from '../reporters/format.js';
import { buildReport } from '../reporters/report.js';
import { enforcedSandbox, weakerIsolationLine } from '../sandbox/enforced.js';

/**
 * The judged Chromium keeps its own sandbox, as an unprivileged uid under a root harness, and the run
 * says what it enforced (meta.sandbox); a run weaker than the default says so on its first line.
 */

const facts = machineFacts();
const DEFAULT = { isolations: ['bwrap', 'bwrap'], agentNetwork: { mode: 'allowlist' as const, endpoints: [{ host: '127.0.0.1', port: 8000 }] }, browser: browserSandbox('auto', { root: true, setpriv: true, userNamespaces: true }), root: true };

describe('the judged browser', () => {
  test('as root it runs as its own uid, with its own sandbox where the kernel allows, else says why not', () => {
    assert.deepEqual(browserSandbox('auto', { root: true, setpriv: true, userNamespaces: true }), { kind: 'own-sandbox-as-user', uid: BROWSER_UID });
    assert.deepEqual(browserSandbox('auto', { root: false, setpriv: true, userNamespaces: true }), { kind: 'own-sandbox' });
    assert.match(JSON.stringify(browserSandbox('auto', { root: true, setpriv: true, userNamespaces: false })), /no-sandbox.*user namespaces/);
    assert.match(JSON.stringify(browserSandbox('off', { root: true, setpriv: true, userNamespaces: true })), /IWB_CHROMIUM_SANDBOX=off/);
    const asUser = chromiumLaunchOptions('/usr/bin/chromium', { kind: 'own-sandbox-as-user', uid: 4242 });
    assert.ok(asUser.chromiumSandbox && !asUser.args.includes('--no-sandbox') && asUser.args.includes('--iwb-uid=4242'));
    assert.ok(chromiumLaunchOptions('/usr/bin/chromium', { kind: 'no-sandbox', why: 'test' }).args.includes('--no-sandbox'));
  });

  const live = browserSandbox('auto', facts);
  const skip = live.kind !== 'own-sandbox-as-user' || !readSettings(process.env).chromium ? `needs root, setpriv and user namespaces (${live.kind})` : false;
  test("its renderers run as the browser's uid, in a user namespace, under a seccomp filter", { skip }, async () => {
    const browser = await chromium.launch(chromiumLaunchOptions(readSettings(process.env).chromium, live));
    try {
      const page = await browser.newPage();
      await page.setContent('<title>sandboxed</title><p>ok</p>');
      assert.equal(await page.title(), 'sandboxed');
      const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
      const renderers = pids.flatMap((pid) => {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          if (!cmd.includes('--type=renderer')) return [];
          const status = readFileSync(`/proc/${pid}/status`, 'utf8');
          return [{ uid: Number(/Uid:\s+(\d+)/.exec(status)![1]), seccomp: Number(/Seccomp:\s+(\d+)/.exec(status)![1]) }];
        } catch {
          return [];
        }
      });
      // Other browsers on the machine may run renderers too; this one's run as its uid.
      const ours = renderers.filter((r) => r.uid === BROWSER_UID);
      assert.ok(ours.length >= 1, `no renderer runs as uid ${BROWSER_UID}: ${JSON.stringify(renderers)}`);
      assert.ok(ours.every((r) => r.seccomp === 2), 'a renderer without its seccomp filter');
    } finally {
      await browser.close();
    }
  });
});

describe('meta.sandbox', () => {
  test('names mounts, network, uid, quotas and the browser; the default run is not called weaker', () => {
    const s = enforcedSandbox(DEFAULT);
    assert.equal(s.isolation, 'bwrap');
    assert.match(s.mounts, /^allowlist/);
    assert.match(s.network, /only 127\.0\.0\.1:8000/);
    assert.match(s.uid, /fresh unprivileged uid/);
    assert.match(s.quotas, /CPU 900 s/);
    assert.match(s.browser, /own sandbox, as uid/);
    assert.deepEqual(s.weaker, []);
    assert.equal(weakerIsolationLine(s), '');
  });

  test('a weaker run says so on the first line of report.md', () => {
    const cases = [
      { ...DEFAULT, isolations: ['user'] },
      { ...DEFAULT, agentNetwork: { mode: 'host' as const } },
      { ...DEFAULT, browser: browserSandbox('off') },
    ];
    for (const run of cases) {
      const sandbox = enforcedSandbox(run);
      assert.equal(sandbox.weaker.length, 1, JSON.stringify(sandbox));
      const md = formatMarkdown(buildReport([], { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'passed', sandbox }));
      assert.match(md.split('\n')[0]!, /^\*\*WEAKER ISOLATION THAN THE DEFAULT: /);
    }
    const plain = formatMarkdown(buildReport([], { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'passed', sandbox: enforcedSandbox(DEFAULT) }));
    assert.equal(plain.split('\n')[0], '# InteractWeb-Bench report');
  });
});
