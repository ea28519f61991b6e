import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { createCommandAgent } from '../agent/command/command-agent.js';
import { INNER_EGRESS } from '../sandbox/egress.js';
import { agentProgramPaths, hiddenPaths } from '../sandbox/exposures.js';
import { getSandbox, Sandbox } from '../sandbox/sandbox.js';
import { episode, launchBrowser, removeTempDirs, tempDir } from './agent-support.js';

/**
 * The agent's mount namespace is an allowlist: its program folder, the workspace, the system and the
 * toolchain. Paths count by their real path, so a link to the project, to another checkout or to the
 * dataset named on the command line exposes nothing of them.
 */

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const isolation = getSandbox().detected.isolation;
const needsBwrap = isolation === 'bwrap' ? false : `needs bubblewrap, unavailable here (${isolation})`;

let browser: Browser;
/** A folder with links to the project, a second checkout and a dataset, as a hostile agent author would set up. */
let lair: string;
let otherCheckout: string;
let dataset: string;

before(async () => {
  browser = await launchBrowser();
  lair = await tempDir('lair');
  otherCheckout = await tempDir('checkout');
  await fs.mkdir(path.join(otherCheckout, '.git'));
  await fs.mkdir(path.join(otherCheckout, 'tasks', 'tip'), { recursive: true });
  await fs.writeFile(path.join(otherCheckout, 'tasks', 'tip', 'task.json'), '{"gold":"other checkout"}');
  await fs.writeFile(path.join(otherCheckout, 'agent.cjs'), '');
  dataset = await tempDir('dataset');
  await fs.writeFile(path.join(dataset, 'all.jsonl'), '{"goldInstruction":"secret"}\n');
  for (const p of [lair, otherCheckout, dataset]) await fs.chmod(p, 0o755);
  await fs.symlink(ROOT, path.join(lair, 'project'));
  await fs.symlink(path.join(ROOT, 'examples'), path.join(lair, 'examples'));
  await fs.symlink(dataset, path.join(lair, 'data'));
});
after(async () => {
  await browser.close();
  await removeTempDirs();
});

/** What the sandbox's configuration hides for this project with the dataset above. */
const hidden = () => hiddenPaths([path.join(ROOT, 'tasks'), path.join(ROOT, '.iwb'), dataset], [ROOT, path.dirname(lair)]);

describe('what a command line exposes', () => {
  test('a link to the project is the project: only a named file of it, never its folder', () => {
    assert.deepEqual(agentProgramPaths(`ls ${lair}/project`, ROOT, hidden()), []);
    assert.deepEqual(agentProgramPaths(`cat ${lair}/project/tasks/tip-calculator/task.json`, ROOT, hidden()), []);
    const file = agentProgramPaths(`node ${lair}/project/playwright.config.ts`, ROOT, hidden());
    assert.deepEqual(file, [{ path: path.join(ROOT, 'playwright.config.ts'), alias: { at: `${lair}/project/playwright.config.ts`, to: path.join(ROOT, 'playwright.config.ts') } }]);
  });

  test('a link to a folder of the project exposes that folder, linked from where it was named', () => {
    assert.deepEqual(agentProgramPaths(`node ${lair}/examples/echo-agent.mjs`, ROOT, hidden()), [
      { path: path.join(ROOT, 'examples'), alias: { at: `${lair}/examples`, to: path.join(ROOT, 'examples') } },
    ]);
  });

  test("an agent's own repository is exposed as its folder", async () => {
    const own = await tempDir('own-repo');
    await fs.mkdir(path.join(own, '.git'));
    await fs.writeFile(path.join(own, 'agent.py'), '');
    assert.deepEqual(agentProgramPaths(`python3 ${own}/agent.py`, ROOT, hidden()), [{ path: own }]);
  });

  test('a second checkout, the dataset through a link, and the temporary folder are not exposed', () => {
    assert.deepEqual(agentProgramPaths(`ls ${otherCheckout}`, ROOT, hidden()), []);
    assert.deepEqual(agentProgramPaths(`node ${otherCheckout}/agent.cjs`, ROOT, hidden()), [{ path: path.join(otherCheckout, 'agent.cjs') }]);
    assert.deepEqual(agentProgramPaths(`cat ${lair}/data/all.jsonl`, ROOT, hidden()), []);
    assert.deepEqual(agentProgramPaths(`ls ${path.dirname(lair)}`, ROOT, hidden()), []);
  });
});

describe('a hostile agent that names links on its command line', () => {
  test('reads no task, no other checkout, no dataset, and sees only allowlisted mounts', { skip: needsBwrap }, async () => {
    const dir = await tempDir('agent');
    await fs.chmod(dir, 0o755);
    const file = path.join(dir, 'agent.cjs');
    // Tries every path it was given, and lists the mount points it can see.
    await fs.writeFile(
      file,
      `const fs = require('fs');
const found = [];
const tries = [process.argv[2] + '/tasks/tip-calculator/task.json', process.argv[3] + '/tasks/tip/task.json', process.argv[4] + '/all.jsonl', process.argv[2] + '/playwright.config.ts'];
for (const t of tries) { try { fs.readFileSync(t); found.push('read ' + t); } catch {} }
const mounts = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\\n').filter(Boolean).map((l) => l.split(' ')[4]);
require('readline').createInterface({ input: process.stdin }).once('line', () => console.log(JSON.stringify({ type: 'submit', note: JSON.stringify({ found, mounts }) })));`,
    );
    // Configured as a run with that dataset is (sandbox/config.ts).
    const sandbox = new Sandbox(getSandbox().detected, { ...getSandbox().config, hidden: hidden() });
    const agent = createCommandAgent({ command: `node ${file} ${lair}/project ${otherCheckout} ${lair}/data`, stepTimeoutMs: 20_000, cwd: ROOT, env: process.env, sandbox });
    const { t, dir: episodeDir } = await episode(agent, browser);
    assert.equal(t.status, 'submitted', t.error);
    const { found, mounts } = JSON.parse(t.steps[0]!.note ?? '{}') as { found: string[]; mounts: string[] };
    assert.deepEqual(found, []);
    const allowed = ['/', '/proc', '/dev', '/tmp', '/usr', '/etc', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin', dir, episodeDir];
    // The relay's own script is the one file of the project inside (read-only, and public).
    const extra = mounts.filter((m) => m !== INNER_EGRESS && (!allowed.some((a) => m === a || m.startsWith(a + '/')) || m.startsWith(ROOT)));
    assert.deepEqual(extra, [], 'mounts beyond the allowlist');
  });
});
