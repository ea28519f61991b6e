import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { datasetCommand } from '../cli/dataset.js';
import { reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';
import { checkDataset } from '../slots/check.js';
import { loadDataset } from '../slots/load.js';
import { releaseFile } from '../config/public-data.js';

const { path: WEBGEN, skip: noWebgen } = releaseFile('webgen-bench', 'test.jsonl', process.env);
const { path: PUBLIC, skip: noPublic } = releaseFile('interactweb-bench', 'all.jsonl', process.env);
const capture = () => {
  const out: string[] = [], err: string[] = [];
  return { out: (t: string) => out.push(t), err: (t: string) => err.push(t), text: () => out.join('\n'), errText: () => err.join('\n') };
};

let dir: string;
let fake: FakeServer;
before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-build-'));
  fake = await start();
});
after(async () => {
  await fake?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

test('offline build from WebGen-Bench, compared with the public release on what can be compared', { skip: noWebgen || noPublic }, async (t) => {
  const out = path.join(dir, 'offline.jsonl');
  const io = capture();
  assert.equal(await datasetCommand(['build', '--from', 'webgen', WEBGEN, '--out', out, '--offline', '--seed', '3'], io, {}), 0);
  assert.match(io.text(), /made without a model/);
  const lines = (await fs.readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { build: { slots: string }; mutation: { method: string }; degradation: unknown });
  assert.ok(lines.every((l) => l.build.slots === 'offline' && l.mutation.method === 'offline' && l.degradation), 'every record says it was made offline');

  const built = await loadDataset(out);
  const pub = await loadDataset(PUBLIC);
  const check = checkDataset(built);
  assert.deepEqual(check.weightMismatches, [], 'stored weights are the computed ones');
  assert.deepEqual(built.tasks.map((x) => x.id).sort(), pub.tasks.map((x) => x.id).sort(), 'the same 101 task ids');
  assert.equal(built.cases.length, 404);
  assert.ok(built.cases.every((c) => c.task.personas[c.persona]?.degradation), 'degradation records for every case');

  // Differences are reported, and pinned: a change in either shows up here.
  const count = (d: typeof built, type: string) => new Map(d.tasks.map((x) => [x.id, x.slots.filter((s) => s.assertionType === type).length]));
  const [bp, pp, bn, pn] = [count(built, 'POSITIVE'), count(pub, 'POSITIVE'), count(built, 'NEGATIVE'), count(pub, 'NEGATIVE')];
  const posDiff = [...bp].filter(([id, n]) => pp.get(id) !== n).map(([id, n]) => `${id}: built ${n}, public ${pp.get(id)}`);
  const negDiff = [...bn].filter(([id, n]) => pn.get(id) !== n).map(([id, n]) => `${id}: built ${n}, public ${pn.get(id)}`);
  t.diagnostic(`POSITIVE slot counts differ on ${posDiff.length} of 101 tasks: ${posDiff.join('; ')}`);
  t.diagnostic(`NEGATIVE slot counts differ on ${negDiff.length} of 101 tasks: ${negDiff.join('; ')}`);
  const dist = (d: typeof built) => ['easy', 'middle', 'hard'].map((k) => d.tasks.filter((x) => (d.cases.find((c) => c.taskId === x.id)!.difficulty) === k).length);
  t.diagnostic(`difficulty easy/middle/hard: built ${dist(built).join('/')}, public ${dist(pub).join('/')}`);
  assert.equal(posDiff.length, 5, 'one POSITIVE slot per UI test: 96 of 101 tasks match the public counts');
  assert.equal(negDiff.length, 5, 'in those 5 tasks the public release made one UI test a NEGATIVE slot; the build keeps every test POSITIVE');
  assert.deepEqual(dist(built), [28, 41, 32]);
  assert.deepEqual(dist(pub), [21, 54, 26]);
  // Test categories join: every POSITIVE slot of the build has one, and the breakdown sees all three.
  const cats = new Set(built.tasks.flatMap((x) => x.slots.filter((s) => s.assertionType === 'POSITIVE').map((s) => s.testCategory)));
  assert.deepEqual([...cats].sort(), ['Data Display Testing', 'Design Validation Testing', 'Functional Testing']);
});

const TWO = [
  { id: 'w1', instruction: 'Build a recipe site with a search box. Use white and teal.', Category: { primary_category: 'Content Presentation' }, application_type: 'Recipe site', ui_instruct: [
    { task: 'Search for "soup".', expected_result: 'Only soups are listed.', task_category: { primary_category: 'Functional Testing', subcategories: ['Searching'] } },
    { task: 'Check the colours.', expected_result: 'The background is white and components are teal.', task_category: { primary_category: 'Design Validation Testing' } },
  ] },
  { id: 'w2', instruction: 'Build a todo list that saves tasks.', Category: { primary_category: 'Data Management' }, ui_instruct: [
    { task: 'Add a task and reload.', expected_result: 'The task is still there.', task_category: { primary_category: 'Functional Testing' } },
  ] },
];

test('build with the operator model: decomposed slots, zod-checked and retried, cached for the next build', async () => {
  const input = path.join(dir, 'two.jsonl');
  await fs.writeFile(input, TWO.map((r) => JSON.stringify(r)).join('\n') + '\n');
  let decompositions = 0;
  fake.reset();
  fake.script((req) => {
    if (schemaName(req) === 'slot_decomposition') {
      decompositions++;
      // The first reply breaks the schema (c_tech 5): the client feeds the error back and asks again.
      if (decompositions === 1) return reply.json({ slots: [{ task: 't', expected_result: 'e', target_component: 'Search_Form', c_tech: 5 }] });
      return reply.json({ slots: [{ task: 'Type soup into the search box.', expected_result: 'Only soups are listed.', target_component: 'Search_Form', c_tech: 2 }, { task: 'Clear the search.', expected_result: 'Every recipe is listed again.', target_component: 'Search_Form', c_tech: 2 }] });
    }
    const ids = [...String(req.body.messages[0]?.content).matchAll(/^- ([\w.-]+):/gm)].map((m) => m[1]!);
    const persona = /Persona: (\w+)/.exec(String(req.body.messages[0]?.content))?.[1];
    return reply.json({ instruction: `A ${persona} rewrite.`, omits: persona === 'Minimalist' ? ids : [], blurs: [], contradicts: persona === 'Contradictory' ? [ids[0]] : [] });
  });
  const env = { IWB_OPERATOR_MODEL: 'fake-op', IWB_OPERATOR_BASE_URL: fake.baseURL, IWB_RUN_DIR: path.join(dir, 'runs') };
  const out = path.join(dir, 'model.jsonl');
  const io = capture();
  assert.equal(await datasetCommand(['build', '--from', 'webgen', input, '--out', out], io, env), 0);
  assert.match(io.text(), /by fake-op/);
  const d = await loadDataset(out);
  const w1 = d.tasks.find((x) => x.id === 'w1')!;
  assert.equal(w1.slots.length, 2 * 2 + 1, 'two slots per test from the model, plus the NEGATIVE slot');
  assert.equal(w1.slots.at(-1)!.assertionType, 'NEGATIVE');
  assert.ok(w1.slots.slice(0, 4).every((s) => s.targetComponent === 'Search_Form' && s.testCategory));
  assert.equal(decompositions, 4, 'three tests, one reply retried');
  const rec = JSON.parse((await fs.readFile(out, 'utf8')).split('\n')[0]!) as { build: { slots: string; operator: string }; mutation: { method: string } };
  assert.deepEqual([rec.build.slots, rec.build.operator, rec.mutation.method], ['model', 'fake-op', 'llm']);

  // A second build reads the decompositions from the cache: no decomposition request, the same slots.
  const before = decompositions;
  assert.equal(await datasetCommand(['build', '--from', 'webgen', input, '--out', path.join(dir, 'again.jsonl')], capture(), env), 0);
  assert.equal(decompositions, before);
  assert.deepEqual((await loadDataset(path.join(dir, 'again.jsonl'))).tasks.map((x) => x.slots), d.tasks.map((x) => x.slots));
});

test('a build whose model errored on a part exits 1, naming the share made offline, unless --max-errored tolerates it', async () => {
  const input = path.join(dir, 'two-lossy.jsonl');
  await fs.writeFile(input, TWO.map((r) => JSON.stringify(r)).join('\n') + '\n');
  fake.reset();
  fake.script((req) => {
    if (schemaName(req) === 'slot_decomposition') {
      // The colour test never gets a valid decomposition: retried, then that part is made offline.
      if (JSON.stringify(req.body.messages).includes('Check the colours.')) return reply.json({ slots: [{ task: 't', expected_result: 'e', target_component: 'X', c_tech: 9 }] });
      return reply.json({ slots: [{ task: 'Do it.', expected_result: 'It is done.', target_component: 'Main', c_tech: 1 }] });
    }
    const ids = [...String(req.body.messages[0]?.content).matchAll(/^- ([\w.-]+):/gm)].map((m) => m[1]!);
    const persona = /Persona: (\w+)/.exec(String(req.body.messages[0]?.content))?.[1];
    return reply.json({ instruction: `A ${persona} rewrite.`, omits: persona === 'Minimalist' ? ids : [], blurs: [], contradicts: persona === 'Contradictory' ? [ids[0]] : [] });
  });
  // 3 tests and 2 tasks x 4 personas: 11 parts asked of the model, 1 of them made offline (9.1%).
  for (const [extra, code, said] of [
    [[], 1, /1 of 11 model-made parts errored \(9\.1%\), made offline instead.*exit 1/],
    [['--max-errored', '10%'], 0, /1 of 11 model-made parts errored \(9\.1%\).*within the 10% tolerated \(--max-errored 10%\)/],
  ] as const) {
    const io = capture();
    const env = { IWB_OPERATOR_MODEL: 'fake-op', IWB_OPERATOR_BASE_URL: fake.baseURL, IWB_RUN_DIR: path.join(dir, `lossy-${code}`, 'runs') };
    assert.equal(await datasetCommand(['build', '--from', 'webgen', input, '--out', path.join(dir, `lossy-${code}.jsonl`), ...extra], io, env), code, io.errText());
    assert.match(io.errText(), said);
    assert.match(io.errText(), /warning: w1 "Check the colours\.".*made offline instead/);
  }
});

test('a bad WebGen record is named by file, line and field', async () => {
  const input = path.join(dir, 'bad.jsonl');
  await fs.writeFile(input, JSON.stringify(TWO[0]) + '\n' + JSON.stringify({ ...TWO[1], ui_instruct: [] }) + '\n');
  await assert.rejects(datasetCommand(['build', '--from', 'webgen', input, '--out', path.join(dir, 'x.jsonl'), '--offline'], capture(), {}), (e: Error) => /bad\.jsonl.*2/.test(e.message) && /ui_instruct/.test(e.message));
});
