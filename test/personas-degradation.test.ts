import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ModelClient } from '../llm/client.js';
import { reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';
import { annotateDataset, ensureDegradation } from '../personas/degradation/annotate.js';
import { annotateOffline } from '../personas/degradation/offline.js';
import { cachePath, readDegradationFile } from '../personas/degradation/store.js';
import { BAKERY_TASK } from './example-task.js';
import { colourAssignments } from '../personas/values.js';
import { loadDataset } from '../slots/load.js';
import type { Slot } from '../slots/schema.js';
import { releaseFile } from '../config/public-data.js';

const { path: ALL, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);

let dir: string;
let fake: FakeServer;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'iwb-degradation-'));
  fake = await start();
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
  await fake.close();
});

const slot = (id: string, task: string, expectedResult: string, targetComponent: string, assertionType: Slot['assertionType'] = 'POSITIVE'): Slot => ({
  id,
  task,
  expectedResult,
  targetComponent,
  assertionType,
  cTech: 1,
});

/** A hand-made task whose persona texts differ from the gold in known ways. */
const TASK = {
  goldInstruction:
    'Please build a recipe website for sharing home recipes. Users should be able to search recipes by ingredient. ' +
    'The website should show 4 featured recipes on the home page. Use mint cream for the background and teal for components.',
  slots: [
    slot('search', 'Search recipes by an ingredient', 'Matching recipes are listed', 'Ingredient search'),
    slot('featured', 'Count the featured recipes on the home page', 'Exactly 4 featured recipes are shown', 'Featured recipes'),
    slot('colours', "Check the colours", "Background is 'mint cream' and components are 'teal'", 'Background Color'),
    slot('extra', 'Check for unrequested elements', 'No unrequested elements are present', 'Unrequested_Element_Feature', 'NEGATIVE'),
  ],
};

describe('offline annotation on texts with a known diff', () => {
  test('a swapped colour is contradicted, a dropped sentence omitted, an image blurred, the rest kept', () => {
    const con = annotateOffline(TASK, TASK.goldInstruction.replace('mint cream for the background and teal', 'bright red for the background and black'));
    assert.deepEqual([con.omits, con.blurs, con.contradicts], [[], [], ['colours']]);

    const dropped = annotateOffline(TASK, 'Please build a recipe website for sharing home recipes. Use mint cream for the background and teal for components.');
    assert.deepEqual(dropped.contradicts, []);
    assert.ok(dropped.omits.includes('featured') && dropped.omits.includes('search'), JSON.stringify(dropped.findings));

    const figurative = annotateOffline(
      TASK,
      'Please build a recipe website for sharing home recipes. Users should be able to search recipes by ingredient. ' +
        'The website should show a handful of featured recipes on the home page. Let the background feel like a cool morning and the components like the deep sea.',
    );
    assert.deepEqual(figurative.contradicts, []);
    assert.deepEqual(figurative.blurs.sort(), ['colours', 'featured']);

    const negated = annotateOffline(TASK, TASK.goldInstruction.replace('Users should be able to search recipes by ingredient.', 'Users should not be able to search recipes by ingredient.'));
    assert.deepEqual(negated.contradicts, ['search']);
    // The generic NEGATIVE slot is never something a persona text degrades: the gold never states it.
    for (const a of [con, dropped, figurative, negated]) assert.ok(!a.findings.some((f) => f.slotId === 'extra'));
  });

  test('"don\'t forget" is no negation, and a shaded or renamed colour is still that colour', () => {
    const ram = annotateOffline(TASK, `Oh, and don't forget, users should be able to search recipes by ingredient! ${TASK.goldInstruction.replace('teal', 'a lovely teal')}`);
    assert.deepEqual(ram.contradicts, []);
    assert.deepEqual(colourAssignments('Define background as papaya whip; define components with dark orange.'), [
      { colour: 'papaya whip', part: 'background' },
      { colour: 'dark orange', part: 'components' },
    ]);
  });

  test('the built-in bakery task: its P-CON stance is found as a contradiction', () => {
    const gold = BAKERY_TASK.goldInstruction;
    const a = annotateOffline(BAKERY_TASK, gold.replace('navy background', 'bright yellow background'));
    assert.deepEqual(a.contradicts, ['header-colour']);
  });
});

describe('degradation records on the public data', { skip: noData }, () => {
  test('offline: at least 85 of the 101 P-CON cases get a contradicted slot; 000005 is its background colour', async () => {
    const ds = await loadDataset(ALL);
    const con = ds.cases.filter((c) => c.persona === 'P-CON');
    const withContradiction = con.filter((c) => annotateOffline(c.task, c.instruction).contradicts.length > 0);
    assert.equal(con.length, 101);
    assert.ok(withContradiction.length >= 85, `${withContradiction.length} of 101`);
    const c5 = con.find((c) => c.id === '000005_P-CON')!;
    assert.deepEqual(annotateOffline(c5.task, c5.instruction).contradicts, ['s7']);
    // P-MIN keeps almost nothing: every case omits something and none contradicts.
    const min = ds.cases.filter((c) => c.persona === 'P-MIN').map((c) => annotateOffline(c.task, c.instruction));
    assert.ok(min.every((a) => a.omits.length > 0 && a.contradicts.length === 0));
  });

  test('a run without records derives them once into the cache, then reads them back', async () => {
    const cacheDir = path.join(dir, 'cache');
    const first = await loadDataset(ALL);
    const d1 = await ensureDegradation(first, { cacheDir });
    assert.match(d1.source, /^offline-derived:/);
    assert.equal(d1.attached, 404);
    assert.deepEqual(first.cases.find((c) => c.id === '000005_P-CON')!.task.personas['P-CON']!.degradation!.contradicts, ['s7']);
    const second = await loadDataset(ALL);
    const d2 = await ensureDegradation(second, { cacheDir });
    assert.equal(d2.source, cachePath(ALL, cacheDir));
    await assert.rejects(ensureDegradation(await loadDataset(ALL), { cacheDir, file: path.join(dir, 'missing.json') }), /missing\.json: degradation records file not found/);
  });
});

describe('judged annotation through a model', () => {
  const tinyDataset = async () => {
    const file = path.join(dir, 'tiny.jsonl');
    const { writeFile } = await import('node:fs/promises');
    const rec = (persona: string, instruction: string) =>
      JSON.stringify({
        id: `t1_${persona}`,
        original_id: 't1',
        persona,
        instruction,
        ground_truth_instruction: TASK.goldInstruction,
        oracle_slots: TASK.slots.map((s) => ({ id: s.id, original_task: s.task, expected_result: s.expectedResult, target_component: s.targetComponent, assertion_type: s.assertionType, c_tech: 1 })),
      });
    await writeFile(file, [rec('P-MIN', 'A recipe site.'), rec('P-CON', TASK.goldInstruction.replace('teal', 'black'))].join('\n') + '\n');
    return loadDataset(file);
  };

  test('ids are checked, a bad reply is fed back, and a second run reuses every record without a call', async () => {
    fake.reset();
    fake.script(
      reply.json({ omits: ['search', 'nope'], blurs: [], contradicts: [] }),
      reply.json({ omits: ['search', 'featured', 'colours'], blurs: [], contradicts: [] }),
      reply.json({ omits: [], blurs: [], contradicts: ['colours'] }),
    );
    const client = new ModelClient({ role: 'operator', model: 'fake-op', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 2000 }, schemaRetries: 1 });
    const ds = await tinyDataset();
    const first = await annotateDataset(ds, { client });
    assert.equal(first.calls, 2);
    assert.equal(fake.requests.length, 3);
    assert.ok(fake.requests.every((r) => schemaName(r) === 'degradation_annotation'));
    assert.match(String(fake.requests[1]!.body.messages.at(-1)?.content), /omits\[1\]/);
    assert.deepEqual(first.file.records['t1_P-CON'], { ...first.file.records['t1_P-CON'], method: 'llm', model: 'fake-op', contradicts: ['colours'] });
    const again = await annotateDataset(await tinyDataset(), { client, previous: first.file });
    assert.equal(again.calls, 0);
    assert.equal(again.reused, 2);
    assert.equal(fake.requests.length, 3);
  });

  test('the CLI writes the records file where asked, and a run picks it up through IWB_DEGRADATION', async () => {
    const { personasCommand } = await import('../cli/personas.js');
    const out = path.join(dir, 'records.json');
    const io = { out: (_: string) => {}, err: (_: string) => {} };
    const ds = await tinyDataset();
    assert.equal(await personasCommand(['annotate', ds.source, '--offline', '--out', out], io, { IWB_RUN_DIR: path.join(dir, 'runs') }), 0);
    const file = await readDegradationFile(out);
    assert.deepEqual(file!.records['t1_P-CON']!.contradicts, ['colours']);
    assert.ok(JSON.parse(await readFile(out, 'utf8')).records['t1_P-MIN'].omits.includes('featured'));
    const again = await tinyDataset();
    assert.equal((await ensureDegradation(again, { cacheDir: path.join(dir, 'none'), file: out })).source, out);
  });
});
