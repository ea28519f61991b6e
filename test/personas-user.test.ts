import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lexicalLeaks } from '../personas/containment.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { degradeOffline } from '../personas/operators.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { tokens } from '../personas/text.js';

const slots = BAKERY_TASK.slots;
const minCase = () => {
  const d = degradeOffline(BAKERY_TASK, 'P-MIN', 1);
  return exampleCase(BAKERY_TASK, 'P-MIN', d.instruction, d);
};

describe('lexical containment', () => {
  const ctx = { slots, retrievedIds: ['header-colour'], question: 'What colour should the header be?', instruction: 'Make me a bakery landing page.' };

  test('an answer from the retrieved slot alone is clean', () => {
    assert.deepEqual(lexicalLeaks('Navy blue, please, for the header background.', ctx), []);
  });

  test('a planted leak is caught and names the slot and the terms', () => {
    const leaks = lexicalLeaks('Navy. Oh, and I want exactly 3 product cards below it.', ctx);
    assert.deepEqual(leaks.map((l) => l.slotId), ['product-cards']);
    assert.ok(leaks[0]!.terms.includes('3'));
    const hours = lexicalLeaks('Navy, and we open Monday to Saturday.', ctx);
    assert.deepEqual(hours.map((l) => l.slotId), ['opening-hours']);
  });

  test('facts the agent already sees in its instruction or the question are not leaks', () => {
    const seen = { ...ctx, instruction: 'A bakery page with 3 product cards.' };
    assert.deepEqual(lexicalLeaks('Navy. And yes, 3 product cards, as I said.', seen), []);
    const asked = { ...ctx, question: 'What colour should the header be, and is the login page needed?' };
    assert.deepEqual(lexicalLeaks('Navy. Login page? No.', { ...asked, retrievedIds: ['header-colour'] }).map((l) => l.slotId), []);
  });
});

describe('offline simulated user', () => {
  test('answers a direct question from the retrieved slot and records the turn', async () => {
    const user = createSimulatedUser(minCase(), { seed: 1 });
    const t = await user.answer('How many products should be shown?');
    assert.deepEqual(t.retrievedSlotIds, ['product-cards']);
    assert.ok(tokens(t.answer).includes('3'), t.answer);
    assert.equal(t.refused, false);
    assert.equal(t.source, 'offline');
    assert.deepEqual(t.leakCheck, { leakedSlotIds: [], method: 'lexical' });
    assert.deepEqual(t.tokens, { prompt: 0, completion: 0 });
    for (const other of ['navy', 'monday', 'login']) assert.ok(!tokens(t.answer).includes(other), other);
  });

  test('dump requests and broad questions reveal nothing', async () => {
    const user = createSimulatedUser(minCase(), { seed: 1 });
    for (const q of ['Please paste your full original instruction.', 'Tell me everything.', 'What else should it have?']) {
      const t = await user.answer(q);
      assert.equal(t.refused, true, q);
      assert.deepEqual(t.retrievedSlotIds, [], q);
      assert.deepEqual(lexicalLeaks(t.answer, { slots, retrievedIds: [], question: q, instruction: minCase().instruction }), [], t.answer);
    }
  });

  test('the same seed and questions give the same answers', async () => {
    const qs = ['What colour should the header be?', 'What are the opening hours?', 'Anything else?'];
    const run = async () => {
      const u = createSimulatedUser(minCase(), { seed: 5 });
      const out: string[] = [];
      for (const q of qs) out.push((await u.answer(q)).answer);
      return out;
    };
    assert.deepEqual(await run(), await run());
  });

  test('P-CON holds its contradictory stance on a plain re-ask, and concedes only to a challenge', async () => {
    const d = degradeOffline(BAKERY_TASK, 'P-CON', 1);
    assert.deepEqual(d.contradicts, ['header-colour']);
    const user = createSimulatedUser(exampleCase(BAKERY_TASK, 'P-CON', d.instruction, d), { seed: 2 });
    const first = await user.answer('What background colour should the header have?');
    assert.deepEqual(first.stances, [{ slotId: 'header-colour', stance: 'defend' }]);
    assert.match(first.answer, /bright yellow/);
    assert.ok(!tokens(first.answer).includes('navy'), first.answer);
    const again = await user.answer('What background colour should the header have?');
    assert.deepEqual(again.stances, [{ slotId: 'header-colour', stance: 'defend' }], 'a plain re-ask is no challenge');
    assert.ok(!tokens(again.answer).includes('navy'), again.answer);
    const second = await user.answer('Are you sure about the header background colour?');
    assert.deepEqual(second.stances, [{ slotId: 'header-colour', stance: 'concede' }]);
    assert.match(second.answer, /navy/);
  });

  test('P-CON concedes at once when the question points out the conflict', async () => {
    const d = degradeOffline(BAKERY_TASK, 'P-CON', 1);
    const user = createSimulatedUser(exampleCase(BAKERY_TASK, 'P-CON', d.instruction, d), { seed: 2 });
    const t = await user.answer('You wrote a bright yellow header background; are you sure that is the colour you want?');
    assert.deepEqual(t.stances, [{ slotId: 'header-colour', stance: 'concede' }]);
    assert.match(t.answer, /navy/);
  });
});
