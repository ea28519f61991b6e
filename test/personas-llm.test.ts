import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ModelClient } from '../llm/client.js';
import { InfraError } from '../llm/errors.js';
import { lastUserText, reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { llmDegrade } from '../personas/llm-operator.js';
import { createSimulatedUser } from '../personas/simulated-user.js';

let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const client = (role: 'user' | 'operator' = 'user') =>
  new ModelClient(
    { role, model: 'fake-user', baseURL: fake.baseURL, apiKey: 'k' },
    { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 2000 }, schemaRetries: 1 },
  );
const minCase = () => exampleCase(BAKERY_TASK, 'P-MIN', 'Make me a bakery landing page.', { omits: BAKERY_TASK.slots.map((s) => s.id), blurs: [], contradicts: [] });
const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? '');

describe('simulated user through a user model', () => {
  test('retrieval, answer and containment; a leaky reply is caught, counted and regenerated', async () => {
    const answers = ['Navy blue. Oh, and exactly 3 product cards please.', 'Navy blue, like the night sky.'];
    fake.script((req) => {
      const name = schemaName(req);
      if (name === 'retrieve_slots') return reply.json({ slot_ids: ['header-colour'], asks_for_everything: false });
      if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
      return reply.text(answers.shift() ?? 'unexpected');
    });
    const t = await createSimulatedUser(minCase(), { client: client() }).answer('What colour should the header be?');
    assert.equal(t.answer, 'Navy blue, like the night sky.');
    assert.deepEqual(t.retrievedSlotIds, ['header-colour']);
    assert.equal(t.retries, 1);
    assert.deepEqual(t.caughtLeakSlotIds, ['product-cards']);
    assert.deepEqual(t.leakCheck, { leakedSlotIds: [], method: 'lexical+llm' });
    assert.equal(t.source, 'llm');
    assert.equal(t.refused, false);
    // retrieve + leaky answer + answer again + LLM containment of the clean one
    assert.deepEqual(fake.requests.map(schemaName), ['retrieve_slots', undefined, undefined, 'containment_check']);
    assert.deepEqual(t.tokens, { prompt: 40, completion: 20 });

    const retrieve = fake.requests[0]!;
    assert.match(systemOf(retrieve), /product-cards/, 'retrieval sees every slot');
    assert.equal(lastUserText(retrieve), 'What colour should the header be?');
    const answer = fake.requests[1]!;
    assert.match(systemOf(answer), /navy/);
    for (const hidden of ['product cards', 'opening hours', 'login', 'Send button']) {
      assert.ok(!systemOf(answer).includes(hidden), `the answer stage never sees "${hidden}"`);
    }
    assert.match(lastUserText(fake.requests[2]!), /revealed requirements that were not asked about \(3/);
    const contain = fake.requests[3]!;
    assert.match(systemOf(contain), /product-cards/);
    assert.ok(!systemOf(contain).includes('header-colour:'), 'the retrieved slot is not among the hidden ones');
  });

  test('the LLM containment check can catch a paraphrase the word check misses', async () => {
    let checks = 0;
    fake.script((req) => {
      const name = schemaName(req);
      if (name === 'retrieve_slots') return reply.json({ slot_ids: ['header-colour'], asks_for_everything: false });
      if (name === 'containment_check') return reply.json({ leaked_slot_ids: checks++ === 0 ? ['no-login'] : [] });
      return reply.text(checks === 0 ? 'Navy, and nobody should need an account.' : 'Navy.');
    });
    const t = await createSimulatedUser(minCase(), { client: client() }).answer('What colour should the header be?');
    assert.equal(t.answer, 'Navy.');
    assert.deepEqual(t.caughtLeakSlotIds, ['no-login']);
    assert.equal(t.retries, 1);
  });

  test('leaky every time: a safe non-answer after the bound', async () => {
    fake.script((req) =>
      schemaName(req) === 'retrieve_slots'
        ? reply.json({ slot_ids: ['header-colour'], asks_for_everything: false })
        : reply.text('Navy, with 3 product cards and a login page.'),
    );
    const t = await createSimulatedUser(minCase(), { client: client(), maxRegenerations: 2 }).answer('Header colour?');
    assert.equal(t.refused, true);
    assert.equal(t.retries, 2);
    assert.deepEqual(t.caughtLeakSlotIds?.sort(), ['no-login', 'product-cards']);
    assert.ok(!/navy|3|login/i.test(t.answer), t.answer);
    assert.equal(fake.requests.length, 4);
  });

  test('a retrieval reply that never fits its schema is recorded as an error, with nothing revealed', async () => {
    fake.script(() => reply.json({ slot_ids: ['made-up-slot'], asks_for_everything: false }));
    const t = await createSimulatedUser(minCase(), { client: client() }).answer('What colour should the header be?');
    assert.equal(t.refused, true);
    assert.match(t.error ?? '', /^schema error: .*retrieve_slots/);
    assert.deepEqual(t.retrievedSlotIds, []);
    assert.equal(fake.requests.length, 2, 'one retry with the validation error fed back');
    assert.match(lastUserText(fake.requests[1]!), /did not match/);
  });

  test('the model flagging a request for everything gets a refusal', async () => {
    fake.script(reply.json({ slot_ids: [], asks_for_everything: true }));
    const t = await createSimulatedUser(minCase(), { client: client() }).answer('Summarise what you wrote, every bit.');
    assert.equal(t.refused, true);
    assert.equal(fake.requests.length, 1);
  });

  test('an endpoint that is down is an InfraError for the episode, not a turn', async () => {
    fake.script(() => reply.status(503, 'down'));
    await assert.rejects(createSimulatedUser(minCase(), { client: client() }).answer('Header colour?'), InfraError);
  });
});

describe('LLM operator', () => {
  test('returns the degraded instruction with slot ids in task order', async () => {
    fake.script(reply.json({ instruction: 'A bakery site, header in sunny yellow.', omits: ['no-login', 'brand-name'], blurs: [], contradicts: ['header-colour'] }));
    const r = await llmDegrade(client('operator'), BAKERY_TASK, 'P-CON');
    assert.ok(r.ok);
    assert.deepEqual(r.value.omits, ['brand-name', 'no-login']);
    assert.deepEqual(r.value.contradicts, ['header-colour']);
    const sys = systemOf(fake.requests[0]!);
    assert.match(sys, /Contradictory/);
    assert.equal(lastUserText(fake.requests[0]!), BAKERY_TASK.goldInstruction);
  });

  test('persona rules are validated and fed back; persistent failure is a SchemaError result', async () => {
    fake.script(
      reply.json({ instruction: 'x', omits: [], blurs: [], contradicts: ['header-colour', 'brand-name'] }),
      reply.json({ instruction: 'x', omits: [], blurs: [], contradicts: ['header-colour'] }),
    );
    const ok = await llmDegrade(client('operator'), BAKERY_TASK, 'P-CON');
    assert.ok(ok.ok);
    assert.match(lastUserText(fake.requests[1]!), /exactly one slot/);

    fake.reset();
    fake.script(() => reply.json({ instruction: 'x', omits: ['nope'], blurs: [], contradicts: [] }));
    const bad = await llmDegrade(client('operator'), BAKERY_TASK, 'P-MIN');
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.equal(bad.error.kind, 'schema');
  });
});
