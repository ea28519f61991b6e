import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { readSettings, userKind } from '../config/settings.js';
import { ModelClient } from '../llm/client.js';
import { lastUserText, reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { PAPER_TEMPERATURE } from '../personas/paper-user.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { createUser } from '../personas/user.js';
import { episodeMeta } from '../reporters/report.js';
import type { SlotRecord } from '../reporters/metrics.js';
import type { Persona } from '../slots/schema.js';

let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const client = () =>
  new ModelClient({ role: 'user', model: 'fake-user', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 2000 }, schemaRetries: 1 });
const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? '');
const WRONG = BAKERY_TASK.goldInstruction.replace('navy background', 'bright yellow background');
const bakery = (persona: Persona, instruction: string, contradicts: string[] = []) => exampleCase(BAKERY_TASK, persona, instruction, { omits: [], blurs: [], contradicts });
const header = BAKERY_TASK.slots.find((s) => s.id === 'header-colour')!;

describe('contained user through a user model', () => {
  test('the answer prompt holds the gold sentence and the persona rule, never the test wording; it remembers the conversation', async () => {
    const answers = ['Sunny yellow, like I said.', 'Oh, you are right, I meant navy.'];
    fake.script((req) => {
      const name = schemaName(req);
      if (name === 'retrieve_slots') return reply.json({ slot_ids: ['header-colour'], asks_for_everything: false });
      if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
      return reply.text(answers.shift() ?? 'unexpected');
    });
    const user = createSimulatedUser(bakery('P-CON', WRONG, ['header-colour']), { client: client() });
    const first = await user.answer('What colour is the header?');
    const second = await user.answer('What colour is the header? Are you sure?');
    assert.deepEqual(first.stances, [{ slotId: 'header-colour', stance: 'defend' }]);
    assert.deepEqual(second.stances, [{ slotId: 'header-colour', stance: 'concede' }]);
    const answerRequests = fake.requests.filter((r) => schemaName(r) === undefined);
    assert.equal(answerRequests.length, 2);
    const [a1, a2] = answerRequests.map(systemOf);
    for (const sys of [a1!, a2!]) {
      assert.ok(!sys.includes(header.task) && !sys.includes(header.expectedResult), 'no oracle wording reaches the answer stage');
      assert.match(sys, /Confident and precise/, 'the P-CON rule from personas/p-con/voice.md');
    }
    assert.match(a1!, /Stand by what your request said.*bright yellow background/);
    assert.ok(!a1!.includes('navy'), 'while defending, the true value is not in the prompt');
    assert.match(a2!, /Admit your request had this wrong.*navy background/);
    // The second answer sees the first exchange.
    const convo = answerRequests[1]!.body.messages.map((m) => `${m.role}:${String(m.content)}`);
    assert.deepEqual(convo.slice(1), ['user:What colour is the header?', 'assistant:Sunny yellow, like I said.', 'user:What colour is the header? Are you sure?']);
  });

  test('a reply that copies eight words of the test wording is regenerated in the user\'s own words', async () => {
    const answers = ['The header background is navy blue across every single page, okay.', 'Navy, please.'];
    fake.script((req) => {
      const name = schemaName(req);
      if (name === 'retrieve_slots') return reply.json({ slot_ids: ['header-colour', 'brand-name'], asks_for_everything: false });
      if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
      return reply.text(answers.shift() ?? 'unexpected');
    });
    // A slot text long enough to copy eight words from.
    const c = bakery('P-MIN', 'A bakery page.');
    c.slots = c.slots.map((s) => (s.id === 'header-colour' ? { ...s, expectedResult: 'The header background is navy blue across every single page of the site' } : s));
    const t = await createSimulatedUser(c, { client: client() }).answer('What colour is the header?');
    assert.equal(t.answer, 'Navy, please.');
    assert.equal(t.retries, 1);
    const retry = fake.requests.filter((r) => schemaName(r) === undefined)[1]!;
    assert.match(lastUserText(retry), /in your own words/);
  });
});

describe('paper user (IWB_USER=paper)', () => {
  test('one prompt with the gold instruction and the persona rules, temperature 0.4, the visible instruction first, history kept', async () => {
    fake.script(reply.text('Really? I thought yellow looked nice... but fine, make it navy.'), reply.text('Navy, as I said.'));
    const user = createUser('paper', bakery('P-CON', WRONG, ['header-colour']), { client: client() });
    assert.equal(user.kind, 'paper');
    const t = await user.answer('The header is yellow here but navy elsewhere; which is it?');
    await user.answer('And the header colour once more?');
    assert.equal(fake.requests.length, 2, 'no retrieval, containment or regeneration call');
    const [r1, r2] = fake.requests;
    assert.equal(r1!.body.temperature, PAPER_TEMPERATURE);
    assert.equal(r1!.body.response_format, undefined);
    const sys = systemOf(r1!);
    assert.ok(sys.includes(BAKERY_TASK.goldInstruction), 'the whole gold instruction');
    assert.match(sys, /first defend your original choice.*then straight away give the CORRECT requirement/s);
    assert.ok(!sys.includes(header.expectedResult));
    assert.equal(r1!.body.messages[1]!.role, 'assistant');
    assert.match(String(r1!.body.messages[1]!.content), /bright yellow background/);
    assert.equal(lastUserText(r1!), 'The developer asks: "The header is yellow here but navy elsewhere; which is it?"');
    assert.equal(r2!.body.messages.length, 5);
    assert.equal(t.answer, 'Really? I thought yellow looked nice... but fine, make it navy.');
    assert.equal(t.source, 'llm');
    assert.ok(t.retrievedSlotIds.includes('header-colour'), 'retrieval is recorded for CHR, not used to answer');
  });

  test('without a user model the paper user is refused at start, naming the variables', () => {
    assert.throws(() => createUser('paper', bakery('P-MIN', 'A bakery page.')), /IWB_USER=paper needs a user model.*IWB_USER_MODEL/);
    assert.equal(createUser('contained', bakery('P-MIN', 'A bakery page.')).kind, 'contained');
  });

  test('IWB_USER is read once into the settings; a wrong value names the variable; report meta records the user', () => {
    assert.equal(userKind(readSettings({})), 'contained');
    assert.equal(userKind(readSettings({ IWB_USER: 'paper' })), 'paper');
    assert.throws(() => readSettings({ IWB_USER: 'oracle' }), /IWB_USER/);
    const rec = (user?: 'contained' | 'paper') => ({ episode: user ? { user, degradationSource: 'dataset' } : undefined }) as unknown as SlotRecord;
    assert.deepEqual(episodeMeta([rec('paper'), rec('paper'), rec()]), { user: 'paper', degradation: 'dataset' });
    assert.deepEqual(episodeMeta([rec('paper'), rec('contained')]), { user: 'contained, paper', degradation: 'dataset' });
    assert.deepEqual(episodeMeta([rec()]), {});
  });
});
