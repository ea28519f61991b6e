import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allPersonaDefinitions } from '../personas/definitions.js';
import { BAKERY_TASK } from './example-task.js';
import { degradeOffline, OPERATORS } from '../personas/operators.js';
import { appType } from '../personas/p-min/operator.js';
import { sentences, tokens } from '../personas/text.js';
import { loadDataset } from '../slots/load.js';
import { PERSONAS } from '../slots/schema.js';

const gold = BAKERY_TASK.goldInstruction;
const words = (s: string) => new Set(tokens(s));

describe('persona definitions', () => {
  test('every persona has one valid definition with a distinct maxim', () => {
    const defs = allPersonaDefinitions();
    assert.deepEqual(defs.map((d) => d.id), [...PERSONAS]);
    assert.equal(new Set(defs.map((d) => d.maxim)).size, 4);
  });
});

describe('offline operators', () => {
  test('the same seed gives byte-identical output; another seed may differ', () => {
    for (const p of PERSONAS) {
      assert.equal(JSON.stringify(degradeOffline(BAKERY_TASK, p, 42)), JSON.stringify(degradeOffline(BAKERY_TASK, p, 42)), p);
    }
    const variants = new Set([1, 2, 3, 4, 5].map((s) => degradeOffline(BAKERY_TASK, 'P-RAM', s).instruction));
    assert.ok(variants.size > 1, 'P-RAM chatter depends on the seed');
  });

  test('P-MIN keeps only the app type and omits every slot', () => {
    const d = degradeOffline(BAKERY_TASK, 'P-MIN', 7);
    assert.match(d.instruction, /bakery landing page/i);
    assert.deepEqual(d.omits, BAKERY_TASK.slots.map((s) => s.id));
    const w = words(d.instruction);
    for (const fact of ['navy', 'white', '3', 'contact', 'footer', 'login', 'crumb']) assert.ok(!w.has(fact), `${fact} dropped`);
    assert.equal(appType({ ...BAKERY_TASK, title: 'task_17' }), 'landing page');
  });

  test('P-RAM keeps every gold sentence, in order, buried in chatter, and blurs a hedged one', () => {
    const d = degradeOffline(BAKERY_TASK, 'P-RAM', 11);
    let from = 0;
    for (const s of sentences(gold)) {
      const core = s.replace(/[.!?]+$/, '').slice(1); // the hedge may lower-case the first letter
      const at = d.instruction.indexOf(core, from);
      assert.ok(at >= 0, `kept: ${s}`);
      from = at;
    }
    assert.ok(sentences(d.instruction).length >= sentences(gold).length + 3, 'chatter added');
    assert.ok(d.blurs.length >= 1);
    assert.deepEqual(d.omits, []);
  });

  test('P-INT replaces colours, numbers and component names and blurs the slots that had them', () => {
    const d = degradeOffline(BAKERY_TASK, 'P-INT', 3);
    const w = words(d.instruction);
    for (const gone of ['navy', 'white', '3', 'header', 'footer', 'form', 'button', 'cards']) assert.ok(!w.has(gone), `${gone} replaced`);
    for (const id of ['header-colour', 'brand-name', 'product-cards', 'contact-form']) assert.ok(d.blurs.includes(id), id);
    assert.ok(!d.blurs.includes('no-login'), 'a slot with nothing concrete replaced is not blurred');
    assert.match(d.instruction, /Crumb & Co/);
  });

  test('P-CON contradicts exactly one fact and leaves the rest verbatim', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const d = degradeOffline(BAKERY_TASK, 'P-CON', seed);
      assert.equal(d.contradicts.length, 1);
      const a = sentences(gold);
      const b = sentences(d.instruction);
      assert.equal(b.length, a.length);
      const changed = a.filter((s, i) => s !== b[i]);
      assert.equal(changed.length, 1, `seed ${seed}: one sentence changed`);
    }
    const d = degradeOffline(BAKERY_TASK, 'P-CON', 1);
    const slot = BAKERY_TASK.slots.find((s) => s.id === d.contradicts[0])!;
    const facts = tokens(slot.task).filter((t) => ['navy', 'white', '3'].includes(t));
    assert.ok(facts.some((f) => !words(d.instruction).has(f)), 'the contradicted value is gone');
  });

  test('P-CON negates a feature when no slot has a colour or number', () => {
    const plain = {
      ...BAKERY_TASK,
      goldInstruction: 'Build a page for a bakery. Add a contact form with name and email fields. Do not add any login page.',
      slots: BAKERY_TASK.slots.filter((s) => s.id === 'contact-form' || s.id === 'no-login'),
    };
    const seen = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const d = OPERATORS['P-CON'](plain, seed);
      seen.add(d.contradicts[0]!);
      if (d.contradicts[0] === 'contact-form') assert.match(d.instruction, /don't want the contact form|leave out the contact form/i);
      else assert.match(d.instruction, /definitely have a login page|sure there is a login page/i);
    }
    assert.equal(seen.size, 2);
  });

  test('every operator on every built-in task names only real slots', async () => {
    const ds = await loadDataset('builtin');
    for (const task of ds.tasks) {
      const ids = new Set(task.slots.map((s) => s.id));
      for (const p of PERSONAS) {
        const d = degradeOffline(task, p, 9);
        assert.ok(d.instruction.length > 10, `${task.id} ${p}`);
        assert.notEqual(d.instruction, task.goldInstruction, `${task.id} ${p} changed the text`);
        for (const id of [...d.omits, ...d.blurs, ...d.contradicts]) assert.ok(ids.has(id), `${task.id} ${p} ${id}`);
      }
    }
  });
});

test('personas: the list is the folder listing, and each folder holds definition, operator, voice and rules', async () => {
  const { promises: fsp } = await import('node:fs');
  const { PERSONA_MODULES } = await import('../personas/registry.js');
  const { PERSONAS } = await import('../slots/schema.js');
  const dir = new URL('../personas/', import.meta.url);
  const folders = (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const withIndex = folders.filter((f) => /^p-/.test(f)).sort();
  assert.deepEqual(Object.keys(PERSONA_MODULES).map((p) => p.toLowerCase()).sort(), withIndex);
  for (const p of PERSONAS) {
    const files = await fsp.readdir(new URL(`${p.toLowerCase()}/`, dir));
    for (const f of ['definition.json', 'operator.ts', 'voice.ts', 'voice.md', 'paper.md', 'index.ts']) assert.ok(files.includes(f), `${p}: ${f}`);
  }
  const con = PERSONA_MODULES['P-CON'].rules;
  assert.equal(con.length, 1);
  assert.equal(con[0]!.holds({ instruction: 'x', omits: [], blurs: [], contradicts: ['a', 'b'] }), false);
});
