import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { capture } from './cli-capture.js';
import { personasCommand } from '../cli/personas.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { leakBattery } from '../personas/leak-test.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { longestOracleRun, oracleText } from '../personas/statements.js';
import { tokens } from '../personas/text.js';
import type { UserTurn } from '../personas/types.js';
import { ensureDegradation } from '../personas/degradation/annotate.js';
import { loadDataset } from '../slots/load.js';
import type { Case, Persona } from '../slots/schema.js';
import { releaseFile } from '../config/public-data.js';

const { path: ALL, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'iwb-voices-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bakery = (persona: Persona, instruction: string, contradicts: string[] = []) =>
  exampleCase(BAKERY_TASK, persona, instruction, { omits: [], blurs: [], contradicts });
const oracle = oracleText(BAKERY_TASK.slots);
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

describe('persona voices on a hand-made case (offline)', () => {
  const q = 'What background colour should the header have?';

  test('answers come from the gold sentence, never from the test wording', async () => {
    for (const p of ['P-MIN', 'P-RAM', 'P-INT', 'P-CON'] as const) {
      const t = await createSimulatedUser(bakery(p, 'A bakery page.'), { seed: 3 }).answer(q);
      assert.deepEqual(t.retrievedSlotIds, ['header-colour'], p);
      assert.ok(tokens(t.answer).includes('navy'), `${p}: ${t.answer}`);
      // The slot's expected_result says "navy blue"; the user wrote "navy" and never says "blue".
      assert.ok(!tokens(t.answer).includes('blue'), `${p}: ${t.answer}`);
      assert.ok(longestOracleRun(t.answer, oracle) <= 7, `${p}: ${t.answer}`);
    }
  });

  test('P-MIN terse, P-RAM buried in chatter, P-INT figurative', async () => {
    const min = await createSimulatedUser(bakery('P-MIN', 'A bakery page.'), { seed: 3 }).answer(q);
    assert.ok(words(min.answer) <= 12, min.answer);
    const ram = await createSimulatedUser(bakery('P-RAM', 'A bakery page.'), { seed: 3 }).answer(q);
    // The fact is there, and most of the words are about something else.
    assert.match(ram.answer, /navy background/);
    assert.ok(words(ram.answer) >= 3 * words('The header must have a navy background with the bakery name in white.'), ram.answer);
    const int = await createSimulatedUser(bakery('P-INT', 'A bakery page.'), { seed: 3 }).answer(q);
    assert.match(int.answer, /the navy of |navy, like /, int.answer);
    assert.doesNotMatch(int.answer, /must have a navy background/, int.answer);
  });

  test('P-CON defends first, concedes when challenged, and keeps the conceded value', async () => {
    const wrong = BAKERY_TASK.goldInstruction.replace('navy background', 'bright yellow background');
    const user = createSimulatedUser(bakery('P-CON', wrong, ['header-colour']), { seed: 3 });
    const first = await user.answer(q);
    assert.deepEqual(first.stances, [{ slotId: 'header-colour', stance: 'defend' }]);
    assert.match(first.answer, /bright yellow/);
    assert.ok(!tokens(first.answer).includes('navy'), first.answer);
    const second = await user.answer(`${q.replace(/\?$/, '')}, are you sure?`);
    assert.deepEqual(second.stances, [{ slotId: 'header-colour', stance: 'concede' }]);
    assert.ok(tokens(second.answer).includes('navy') && !second.answer.includes('yellow'), second.answer);
    const later = await user.answer('And the header background, to be sure?');
    assert.deepEqual(later.stances, [{ slotId: 'header-colour', stance: 'concede' }]);
    assert.ok(tokens(later.answer).includes('navy') && !later.answer.includes('yellow'), later.answer);
  });

  test('memory: a repeated question gets the same answer; a topic-less follow-up is about the last topic', async () => {
    const user = createSimulatedUser(bakery('P-INT', 'A bakery page.'), { seed: 9 });
    const a = await user.answer('How many products should be shown?');
    await user.answer('What are the opening hours?');
    const b = await user.answer('How many products should be shown?');
    assert.equal(b.answer, a.answer);
    const follow = await user.answer('Are you sure?');
    assert.deepEqual(follow.retrievedSlotIds, a.retrievedSlotIds);
    assert.equal(follow.refused, false);
    const con = createSimulatedUser(bakery('P-CON', BAKERY_TASK.goldInstruction.replace('navy background', 'bright yellow background'), ['header-colour']), { seed: 1 });
    assert.deepEqual((await con.answer(q)).stances, [{ slotId: 'header-colour', stance: 'defend' }]);
    const told = await con.answer('Are you sure? That does not match the rest.');
    assert.deepEqual(told.stances, [{ slotId: 'header-colour', stance: 'concede' }]);
  });

  test('asked about something never requested, the user wants only what it asked for', async () => {
    const t = await createSimulatedUser(bakery('P-MIN', 'A bakery page.'), { seed: 3 }).answer('Should the site have a login page?');
    assert.deepEqual(t.retrievedSlotIds, ['no-login']);
    assert.match(t.answer, /login|sign-up|[Nn]o\b/);
  });
});


describe('the simulated user on public cases', { skip: noData }, () => {
  const env = () => ({ IWB_RUN_DIR: path.join(dir, 'runs') });
  const ask = async (caseId: string, ...questions: string[]): Promise<{ turns: UserTurn[]; degradation: { contradicts: string[] } }> => {
    const io = capture();
    assert.equal(await personasCommand(['ask', ALL, caseId, ...questions, '--json'], io, env()), 0);
    return JSON.parse(io.outText());
  };

  test('000005 P-CON: stands by neon pink, then concedes lavender (iwb personas ask)', async () => {
    const r = await ask('000005_P-CON', 'What colour should the background be?', 'Are you sure about the background colour?');
    assert.deepEqual(r.degradation.contradicts, ['s7']);
    const [first, second] = r.turns;
    assert.deepEqual(first!.stances, [{ slotId: 's7', stance: 'defend' }]);
    assert.match(first!.answer, /neon pink/);
    assert.doesNotMatch(first!.answer, /lavender/);
    assert.deepEqual(second!.stances, [{ slotId: 's7', stance: 'concede' }]);
    assert.match(second!.answer, /lavender/);
    assert.doesNotMatch(second!.answer, /pink/);
  });

  test('000005 P-INT: lavender inside an image, not as a spec; the text output names every turn', async () => {
    const r = await ask('000005_P-INT', 'What exact colour code should the background use?');
    const a = r.turns[0]!.answer;
    assert.match(a, /lavender of |lavender, like /, a);
    assert.doesNotMatch(a, /[Aa]ssign lavender|lavender background/, a);
    const io = capture();
    await personasCommand(['ask', ALL, '000005_P-INT', 'What colour should the background be?', 'Anything else?'], io, env());
    assert.match(io.outText(), /Q1: .*\nA1: .*\n {4}retrieved \[s7\]; leak check \(lexical\) \[\]/);
    assert.match(io.outText(), /Q2: Anything else\?/);
  });

  test('no answer repeats eight consecutive words of the oracle text (four public tasks, every persona, the leak battery)', async () => {
    const ds = await loadDataset(ALL);
    await ensureDegradation(ds, { cacheDir: path.join(dir, 'runs', 'degradation') });
    // 000002, 000007, 000057 and 000084 have gold sentences that copy 8+ words of their checklist.
    const picked: Case[] = ds.cases.filter((c) => ['000002', '000007', '000057', '000084'].includes(c.taskId));
    assert.equal(picked.length, 16);
    let answered = 0;
    for (const c of picked) {
      const user = createSimulatedUser(c, { seed: 0 });
      for (const b of leakBattery(c)) {
        const t = await user.answer(b.question);
        if (!t.refused) answered++;
        assert.ok(longestOracleRun(t.answer, oracleText(c.slots)) <= 7, `${c.id} "${b.question}": ${t.answer}`);
      }
    }
    assert.ok(answered > 60, `only ${answered} answers`);
  });
});
