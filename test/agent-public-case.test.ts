import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { resolveAgent } from '../agent/registry.js';
import type { Agent, AgentContext } from '../agent/types.js';
import type { Observation } from '../agent/actions.js';
import { BAKERY_TASK } from './example-task.js';
import type { Case } from '../slots/schema.js';
import { episode, removeTempDirs } from './agent-support.js';

after(removeTempDirs);

/** A case whose hidden parts (gold instruction, slots, degradation) carry words the visible instruction lacks. */
const hidden: Case = {
  id: 'bakery-landing_P-MIN',
  taskId: BAKERY_TASK.id,
  persona: 'P-MIN',
  instruction: 'A page for my bakery, please.',
  difficulty: 'easy',
  difficultySource: 'computed',
  slots: BAKERY_TASK.slots.map((s) => ({ ...s, weight: s.cTech })),
  task: { ...BAKERY_TASK, referenceSite: '/nowhere/reference-site', personas: { 'P-MIN': { instruction: 'A page for my bakery, please.', degradation: { omits: ['header-colour'], blurs: [], contradicts: [] } } } },
};

test('an adapter sees the public case only: no gold instruction, slot, degradation record or reference site', async () => {
  const seen: { ctx?: AgentContext; observations: Observation[] } = { observations: [] };
  const spy: Agent = {
    name: 'spy',
    config: {},
    async start(ctx) {
      seen.ctx = ctx;
      return {
        next: async (o) => {
          seen.observations.push(o);
          return { action: { type: 'submit' } };
        },
      };
    },
  };
  // The spy submits at once, so the browser is never used.
  const { t } = await episode(spy, null as unknown as Browser, { c: hidden });
  assert.equal(t.status, 'submitted');
  assert.deepEqual(Object.keys(seen.ctx!.case).sort(), ['difficulty', 'id', 'instruction', 'stepCap']);
  const visible = JSON.stringify({ case: seen.ctx!.case, observations: seen.observations });
  for (const secret of ['navy', 'Crumb', 'header-colour', 'reference-site', 'login', BAKERY_TASK.goldInstruction.slice(0, 40)]) {
    assert.ok(!visible.includes(secret), `the agent saw "${secret}"`);
  }
  assert.ok(visible.includes('A page for my bakery, please.'));
});

test('the reference baseline gets its site through its own dependency, and says so when there is none', async () => {
  const { agent } = await resolveAgent('reference', { clients: {}, referenceSite: () => undefined });
  await assert.rejects(agent.start({ case: { id: 'x_P-MIN', instruction: 'hi', difficulty: 'easy', stepCap: 3 }, browser: null as unknown as Browser }), /case x_P-MIN has no reference site/);
});
