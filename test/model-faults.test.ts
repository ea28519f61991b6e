import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { adapter as openai } from '../agent/adapters/openai.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { ModelClient } from '../llm/client.js';
import { InfraError } from '../llm/errors.js';
import { reply, schemaName, type FakeReply, type RecordedRequest } from '../testkit/fake-server.js';
import type { Role } from '../config/roles.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { agentTestbed, episode, SITE } from './agent-support.js';
import { makeCase, siteUnderTest, slot, tempSite, type TempSite } from './judge-support.js';

/**
 * Issue 15's model faults, each met by every role that calls a model: the agent inside an episode, the
 * simulated user on a turn, the judge on a verdict. A fault met once is retried and leaves no trace in the
 * outcome; a fault that persists ends as *errored* (the endpoint's failure, counted apart), never as a pass or
 * a fail, after a bounded number of requests. The one exception is the agent's own reply cut at its token
 * limit: that is the agent's failure, measured like any other.
 */
const FAULTS = ['429', '500', 'timeout', 'malformed', 'empty', 'cut'] as const;
type Fault = (typeof FAULTS)[number];

const RETRIES = 2;
const TIMEOUT_MS = 400;
/** At most: the first try, the policy's retries, the schema rounds and one raised-limit resend. */
const BOUND = 12;

const bed = agentTestbed();
let site: TempSite;
let runs: string;
before(async () => {
  site = await tempSite({ 'index.html': SITE });
  runs = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-faults-'));
});
after(async () => {
  await Promise.all([site?.dispose(), fs.rm(runs, { recursive: true, force: true })]);
});

const client = (role: Role) =>
  new ModelClient(
    { role, model: `fake-${role}`, baseURL: bed.fake.baseURL, apiKey: 'k' },
    { retry: { retries: RETRIES, baseDelayMs: 1, maxDelayMs: 20, timeoutMs: TIMEOUT_MS }, schemaRetries: 1 },
  );

function faultReply(fault: Fault, good: FakeReply): FakeReply {
  switch (fault) {
    case '429':
      return reply.status(429, 'rate limit reached', { 'retry-after-ms': '15' });
    case '500':
      return reply.status(500, 'internal server error');
    case 'timeout':
      return reply.delay(TIMEOUT_MS * 3, good);
    case 'malformed':
      return reply.malformed();
    case 'empty':
      return reply.empty();
    case 'cut':
      return reply.text('{"thought": "let me think about this at some len', { finishReason: 'length' });
  }
}

/** The fault on the first request only (`once`), or on every request (`persistent`). */
function faulty(fault: Fault, mode: 'once' | 'persistent', good: (req: RecordedRequest) => FakeReply) {
  let faults = 0;
  return (req: RecordedRequest) => {
    if (mode === 'persistent' || faults++ === 0) return faultReply(fault, good(req));
    return good(req);
  };
}

const goodAgent = (req: RecordedRequest): FakeReply =>
  req.body.messages.some((m) => m.role === 'tool')
    ? reply.tools([{ name: 'submit', arguments: {}, id: 'call_submit' }])
    : reply.tools([{ name: 'implement', arguments: { files: [{ path: 'index.html', content: SITE }] }, id: 'call_impl' }]);

const goodUser = (req: RecordedRequest): FakeReply => {
  const name = schemaName(req);
  if (name === 'retrieve_slots') return reply.json({ slot_ids: ['header-colour'], asks_for_everything: false });
  if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
  return reply.text('Navy blue, please.');
};

const goodJudge = (): FakeReply => reply.json({ thought: 'done', action: { kind: 'verdict', status: 'pass', evidence: 'the heading is there' } });

describe('model faults during an agent episode', () => {
  for (const fault of FAULTS) {
    test(`${fault} once: retried, the episode is submitted as if nothing happened`, async () => {
      bed.fake.script(faulty(fault, 'once', goodAgent));
      const agent = openai.create(undefined, { clients: { agent: client('agent') } });
      const { t } = await episode(agent, bed.browser);
      assert.equal(t.status, 'submitted', t.error);
      assert.deepEqual(t.files, ['index.html']);
    });

    test(`${fault} persistent: ${fault === 'cut' ? "the agent's own failure, its site still judged" : 'the episode is errored'}, within bounded requests`, async () => {
      bed.fake.script(faulty(fault, 'persistent', goodAgent));
      const agent = openai.create(undefined, { clients: { agent: client('agent') } });
      const { t } = await episode(agent, bed.browser, { stepCap: 4 });
      if (fault === 'cut') {
        assert.notEqual(t.status, 'errored', 'a reply cut at the agent\'s own limit is not the harness\'s failure');
        assert.notEqual(t.status, 'submitted');
      } else {
        assert.equal(t.status, 'errored', `${fault}: ${t.status} ${t.error ?? ''}`);
        assert.match(t.error ?? '', /\[agent\]/, 'the error names the role');
        assert.ok(bed.fake.requests.length <= 1 + RETRIES, `${bed.fake.requests.length} requests for one step`);
      }
    });
  }
});

describe('model faults during a simulated-user turn', () => {
  const ask = () => createSimulatedUser(exampleCase(BAKERY_TASK, 'P-MIN', 'A bakery page.', { omits: [], blurs: [], contradicts: [] }), { client: client('user') }).answer('What colour is the header?');

  for (const fault of FAULTS) {
    test(`${fault} once: retried, the user answers`, async () => {
      bed.fake.script(faulty(fault, 'once', goodUser));
      const turn = await ask();
      assert.equal(turn.error, undefined, turn.error);
      assert.equal(turn.refused, false);
      assert.equal(turn.answer, 'Navy blue, please.');
    });

    test(`${fault} persistent: errored (the episode fails over, or the turn carries the error), never an invented answer`, async () => {
      bed.fake.script(faulty(fault, 'persistent', goodUser));
      const outcome = await ask().then(
        (turn) => ({ turn }),
        (e: unknown) => ({ error: e }),
      );
      if ('error' in outcome) {
        assert.ok(outcome.error instanceof InfraError, String(outcome.error));
        assert.match(outcome.error.message, /^\[user\]/);
      } else {
        assert.ok(outcome.turn.error, `${fault}: the turn is marked errored`);
        assert.equal(outcome.turn.refused, true, 'the agent gets a non-answer, not a made-up one');
        assert.ok(!/navy/i.test(outcome.turn.answer));
      }
      assert.ok(bed.fake.requests.length <= BOUND, `${bed.fake.requests.length} requests`);
    });
  }
});

describe('model faults during a judge verdict', () => {
  const judge = async (mode: 'once' | 'persistent', fault: Fault, cacheDir?: string) => {
    const s = slot(`heading-${fault}`, { task: 'Read the heading', expectedResult: 'The heading reads Crumb & Co' });
    const sut = await siteUnderTest(bed.browser, site, makeCase([s]));
    try {
      bed.fake.script(faulty(fault, mode, goodJudge));
      return await createLlmJudge({ client: client('judge'), ...(cacheDir ? { cacheDir } : {}) }).judge(sut, s);
    } finally {
      await sut.close();
    }
  };

  for (const fault of FAULTS) {
    test(`${fault} once: retried, the verdict stands`, async () => {
      const v = await judge('once', fault);
      assert.equal(v.status, 'pass', v.evidence);
    });

    test(`${fault} persistent: the slot is errored, not failed or passed`, async () => {
      const v = await judge('persistent', fault);
      assert.equal(v.status, 'errored', `${fault}: ${v.status} ${v.evidence}`);
      assert.ok(bed.fake.requests.length <= BOUND, `${bed.fake.requests.length} requests`);
    });
  }

  test('a rerun asks the judge again only for the slot that errored', async () => {
    const cacheDir = path.join(runs, 'verdicts');
    const first = await judge('persistent', '500', cacheDir);
    assert.equal(first.status, 'errored');
    bed.fake.reset();
    const again = await judge('once', '500', cacheDir);
    assert.equal(again.status, 'pass', 'the errored verdict was not served from the cache');
    bed.fake.reset();
    const third = await judge('persistent', '500', cacheDir);
    assert.equal(third.status, 'pass', 'the pass is served from the cache');
    assert.equal(bed.fake.requests.length, 0, 'no model call for a verdict already reached');
  });
});
