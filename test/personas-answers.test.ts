import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureDegradation } from '../personas/degradation/annotate.js';
import { before, describe, test } from 'node:test';
import { releaseFile } from '../config/public-data.js';
import { declines } from '../personas/answer-score.js';
import { checkPremise, claimOf } from '../personas/premise.js';
import { purposeKind } from '../personas/questions.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { longestOracleRun } from '../personas/statements.js';
import { sentences, tokens } from '../personas/text.js';
import { loadDataset } from '../slots/load.js';
import { PERSONAS, type Case, type Dataset } from '../slots/schema.js';

/** What the simulated user answers on the public data: purpose, false premises, whole answers (issue #31). */
const { path: ALL, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);
let ds: Dataset;
before(async () => {
  if (noData) return;
  ds = await loadDataset(ALL);
  // The offline records say which slot each P-CON instruction contradicts.
  await ensureDegradation(ds, { cacheDir: await mkdtemp(path.join(os.tmpdir(), 'iwb-answers-')) });
});
const caseOf = (id: string): Case => ds.cases.find((c) => c.id === id)!;

describe('question kinds', () => {
  test('purpose and structure questions are told apart from detail questions', () => {
    assert.equal(purposeKind("What's the main thing users should be able to do on the site?"), 'purpose');
    assert.equal(purposeKind('Who is this website for?'), 'purpose');
    assert.equal(purposeKind('What pages or sections should it have?'), 'structure');
    // Asked the way agents ask, not only the battery's wording.
    for (const q of ['What are the main sections?', 'Which pages do you need?', "What're the key features?", 'What would be the different parts of the site?', 'How should the site be organised?', 'How many pages should it have?']) {
      assert.equal(purposeKind(q), 'structure', q);
    }
    assert.equal(purposeKind('What colour should the header be?'), null);
  });

  test('a yes-question carries a claim, checked against the gold alone', () => {
    const gold = 'Please implement a website for a credit repair company. Users fill out a form with their credit status. Set old lace as the body background.';
    assert.equal(claimOf('What colour is the header?'), null);
    const pay = claimOf('The spec says users can pay for services online, right?')!;
    assert.equal(checkPremise(pay, gold).holds, false);
    assert.equal(checkPremise(claimOf('You wanted a form for the credit status, right?')!, gold).holds, true);
    assert.deepEqual(checkPremise(claimOf('So the body background is navy, correct?')!, gold).wrongValues, ['navy']);
  });
});

describe('the offline user on the public data', { skip: noData }, () => {
  test('"what is the site for" is answered from the gold\'s opening sentence, in every persona', async () => {
    for (const p of PERSONAS) {
      const t = await createSimulatedUser(caseOf(`000010_${p}`)).answer("What's the main thing users should be able to do on the site?");
      assert.equal(t.refused, false, `${p}: ${t.answer}`);
      for (const w of ['wheel', 'spin', 'prizes']) assert.ok(tokens(t.answer).includes(w), `${p} lacks ${w}: ${t.answer}`);
    }
  });

  test('"what are the main sections" is answered from the gold in every persona, not met with "no idea"', async () => {
    for (const p of PERSONAS) {
      const t = await createSimulatedUser(caseOf(`000019_${p}`)).answer('What are the main sections?');
      assert.equal(t.refused, false, `${p}: ${t.answer}`);
      assert.ok(tokens(t.answer).includes('software'), `${p}: ${t.answer}`);
    }
  });

  test('a false premise is denied in every persona, never met with "Sure"', async () => {
    for (const p of PERSONAS) {
      const t = await createSimulatedUser(caseOf(`000014_${p}`)).answer('The spec says users can pay for services online, right?');
      assert.ok(declines(t.answer), `${p}: ${t.answer}`);
      assert.doesNotMatch(t.answer, /^\s*sure\b/i, p);
    }
  });

  test('an answer gives every value the gold gives for what was asked (all four directions)', async () => {
    for (const p of PERSONAS) {
      const t = await createSimulatedUser(caseOf(`000013_${p}`)).answer('Which directions can the tiles move?');
      for (const w of ['up', 'down', 'left', 'right']) assert.ok(tokens(t.answer).includes(w), `${p} lacks ${w}: ${t.answer}`);
    }
  });

  test('P-CON keeps its written colours on a plain re-ask and gives the true ones only when challenged', async () => {
    const user = createSimulatedUser(caseOf('000088_P-CON'));
    const q = 'What colours should the site use?';
    const first = await user.answer(q);
    const again = await user.answer(q);
    assert.deepEqual(again.answer, first.answer, 'a plain re-ask gets the same words');
    assert.ok(!(first.stances ?? []).some((s) => s.stance === 'concede'), first.answer);
    const challenged = await user.answer('Are you sure about those colours?');
    assert.ok((challenged.stances ?? []).some((s) => s.stance === 'concede'), challenged.answer);
    // The request swapped the two colours; the challenge gets them back in their places.
    assert.match(first.answer, /maroon as the base/i, first.answer);
    assert.match(challenged.answer, /linen as the base/i, challenged.answer);
  });

  test('P-INT never recites more than six consecutive words of its own request', async () => {
    for (const id of ['000004', '000024', '000030', '000048']) {
      const c = caseOf(`${id}_P-INT`);
      const user = createSimulatedUser(c);
      for (const q of ['What is the site mainly for?', 'What pages or sections should it have?', 'What colours should the site use?']) {
        const t = await user.answer(q);
        assert.ok(longestOracleRun(t.answer, sentences(c.task.goldInstruction)) <= 6, `${c.id} "${q}": ${t.answer}`);
      }
    }
  });
});
