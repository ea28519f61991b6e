import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import type { Action } from '../agent/actions.js';
import { blameOf, runEpisode } from '../agent/episode.js';
import type { Trajectory } from '../agent/trajectory.js';
import type { Agent, Decision } from '../agent/types.js';
import { InfraError } from '../llm/errors.js';
import { DEFAULT_SITE_QUOTA, SiteOverQuota, type SiteQuota } from '../site/site-quota.js';
import { launchBrowser, makeCase, removeTempDirs, scriptedUser, tempDir } from './agent-support.js';

/**
 * One test per row of docs/episode-outcomes.md that no other file meets: what the agent's input can
 * cause ends as the agent's result (its site judged), never as an errored case.
 */

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await Promise.all([browser.close(), removeTempDirs()]);
});

/** An agent that answers with the given decisions in order, then submits. */
function scripted(decisions: Decision[]): Agent {
  return {
    name: 'scripted',
    config: { kind: 'scripted' },
    start: async () => ({ next: async () => decisions.shift() ?? { action: { type: 'submit' } } }),
  };
}

const implement = (files: Record<string, string>, deletes: string[] = []): Decision => ({
  action: { type: 'implement', files: Object.entries(files).map(([p, content]) => ({ path: p, content })), deletes } as Action,
});

async function run(decisions: Decision[], siteQuota?: SiteQuota): Promise<{ t: Trajectory; dir: string }> {
  const dir = await tempDir('outcome');
  const t = await runEpisode({
    case: makeCase(),
    agent: scripted(decisions),
    browser,
    user: scriptedUser('ok'),
    dir,
    stepCap: 6,
    caseHash: 'h',
    site: { installTimeoutMs: 30_000, buildTimeoutMs: 30_000, startTimeoutMs: 15_000 },
    ...(siteQuota ? { siteQuota } : {}),
  });
  return { t, dir };
}

const pkg = (start: string) => JSON.stringify({ type: 'module', scripts: { start } });
const SERVE = "import http from 'node:http'; http.createServer((q, r) => r.end('<title>up</title>')).listen(Number(process.env.PORT), '127.0.0.1');";

describe('agent-caused errors end as the agent result, never errored', () => {
  test('a bad path (index.html/x.txt after writing index.html) is an observation; the episode goes on', async () => {
    const { t } = await run([implement({ 'index.html': '<h1>a</h1>' }), implement({ 'index.html/x.txt': 'x' })]);
    assert.equal(t.status, 'submitted', t.error);
    assert.match(t.steps[1]!.observation, /errors: write index\.html\/x\.txt: "index\.html" is a file, not a folder/);
  });

  test('a malformed action costs the step and is told to the agent', async () => {
    const { t } = await run([{ invalid: 'the line is not JSON' }]);
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(t.steps[0]!.action, 'invalid');
    assert.match(t.steps[0]!.observation, /error: the line is not JSON/);
  });

  test('a site that will not start: the failure page is what runs, and what is judged', async () => {
    const { t } = await run([implement({ 'package.json': pkg('node -e "process.exit(3)"') })]);
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(t.steps[0]!.site?.mode, 'error');
    assert.match(t.steps[0]!.observation, /site errors: npm run start exited \(3\)/);
  });

  test("a site whose processes write past the quota: the agent's failure", async () => {
    const server = `import fs from 'node:fs'; fs.writeFileSync('junk.bin', Buffer.alloc(300000)); ${SERVE}`;
    const quota = { ...DEFAULT_SITE_QUOTA, bytes: 100_000 };
    const { t } = await run([implement({ 'package.json': pkg('node server.mjs'), 'server.mjs': server })], quota);
    assert.equal(t.status, 'agent-failed');
    assert.match(t.error ?? '', /SiteOverQuota: the site folder \(node_modules aside\) holds 3 files/);
  });

  test('a site that swaps a folder for a link while the next implement writes: nothing lands outside, not errored', async () => {
    const victim = path.join(await tempDir('victim'), 'host');
    await fs.mkdir(path.join(victim, 'keep'), { recursive: true });
    await fs.writeFile(path.join(victim, 'keep', 'k.txt'), 'keep');
    const swapper = await fs.readFile(fileURLToPath(new URL('./fixtures/link-swapper.mjs', import.meta.url)), 'utf8');
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x/s${i % 3}/f${i}.txt`, "pwned"]));
    const { t } = await run([
      implement({ 'package.json': pkg(`node swap.mjs . x ${victim} & node serve.mjs`), 'swap.mjs': swapper, 'serve.mjs': SERVE }),
      implement(many, ['x/keep']),
      implement(many, ['x/keep']),
    ]);
    assert.deepEqual((await fs.readdir(victim, { recursive: true })).sort(), ['keep', 'keep/k.txt'], 'the harness wrote or deleted through the link');
    assert.notEqual(t.status, 'errored', t.error);
  });
});

describe('whose failure each error is', () => {
  test("over quota is the agent's; the harness's disk full, an endpoint down and a harness bug are errored", () => {
    assert.equal(blameOf(new SiteOverQuota('over')), 'agent');
    assert.equal(blameOf(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })), 'infra');
    assert.equal(blameOf(new InfraError('judge', 'connection failed', 4)), 'infra');
    assert.equal(blameOf(new TypeError('a harness bug')), 'infra');
  });
});
