import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Browser } from '@playwright/test';
import { runEpisode } from '../agent/episode.js';
import { AgentCrash, type Agent } from '../agent/types.js';
import { agentKey, getEpisode } from '../fixtures/episode-cache.js';
import { InfraError, ModelError } from '../llm/errors.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import type { SimulatedUser } from '../personas/types.js';

/** These agents never verify or implement, so no browser is started. */
const NO_BROWSER = undefined as unknown as Browser;
const user: SimulatedUser = { answer: async (q) => ({ question: q, answer: 'ok', retrievedSlotIds: [], leakCheck: { leakedSlotIds: [], method: 'lexical' }, retries: 0, refused: false, tokens: { prompt: 0, completion: 0 }, source: 'offline' }) };
const c = exampleCase(BAKERY_TASK, 'P-MIN', 'Make me a bakery page.');

function agent(next: () => Promise<unknown>, name = 'scripted'): Agent & { starts: number } {
  const a = {
    name,
    config: { kind: name },
    starts: 0,
    start: async () => {
      a.starts++;
      return { next: async () => (await next()) as { action: { type: 'clarify'; question: string } } };
    },
  };
  return a;
}

const tmp = () => fs.mkdtemp(path.join(os.tmpdir(), 'iwb-budget-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('an episode is bounded by its own budget: past it, the agent has failed and keeps what it built', async () => {
  const slow = agent(async () => {
    await sleep(150);
    return { action: { type: 'clarify', question: 'and?' } };
  });
  const t = await runEpisode({ case: c, agent: slow, browser: NO_BROWSER, user, dir: await tmp(), stepCap: 20, caseHash: 'h', budgetMs: 1000 });
  assert.equal(t.status, 'agent-failed');
  assert.match(t.error ?? '', /budget of 1 s \(IWB_EPISODE_TIMEOUT\)/);
  assert.ok(t.steps.length >= 2 && t.steps.length < 20, `${t.steps.length} steps`);
});

test("whose failure: the agent's model refusing or its process crashing is the agent's; an endpoint down is errored", async () => {
  const run = async (e: Error) => (await runEpisode({ case: c, agent: agent(async () => Promise.reject(e)), browser: NO_BROWSER, user, dir: await tmp(), stepCap: 5, caseHash: 'h' })).status;
  assert.equal(await run(new ModelError('agent', 'HTTP 400: context length exceeded', 'bad-request')), 'agent-failed');
  assert.equal(await run(new AgentCrash('the agent program exited (1)')), 'agent-failed');
  assert.equal(await run(new InfraError('agent', 'connection failed', 4)), 'errored');
  assert.equal(await run(new InfraError('user', 'connection failed', 4)), 'errored');
  assert.equal(await run(new TypeError('a harness bug')), 'errored');
});

test('a case whose episode this run already attempted (its test died) is reported errored, not started again', async () => {
  const runDir = await tmp();
  const a = agent(async () => ({ action: { type: 'submit' } }));
  const req = { case: c, agent: a, browser: NO_BROWSER, user, runDir, stepCap: 5, runId: 'run-1' };
  // What a dead test leaves: the attempt marker of this run, a staging folder, no trajectory.
  const base = path.join(runDir, agentKey(a));
  await fs.mkdir(path.join(base, '.attempts'), { recursive: true });
  await fs.writeFile(path.join(base, '.attempts', c.id), 'run-1');
  await fs.mkdir(path.join(base, '.staging', `${c.id}-99999-1`), { recursive: true });

  const again = await getEpisode(req);
  assert.equal(again.trajectory.status, 'errored');
  assert.match(again.trajectory.error ?? '', /already attempted/);
  assert.equal(a.starts, 0, 'the episode is not rerun from scratch');

  const next = await getEpisode({ ...req, runId: 'run-2' });
  assert.equal(next.trajectory.status, 'submitted', 'a later run tries again');
  assert.equal(a.starts, 1);
  assert.deepEqual(await fs.readdir(path.join(base, '.staging')), [], 'the dead attempt\'s staging folder is gone');
});
