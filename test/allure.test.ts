import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';
import { loadDataset } from '../slots/load.js';
import { allureSeverity, slotTestTitle } from '../specs/cases.js';
import { playwright, runCommand } from './bench-support.js';
import { externalOrigins } from '../reporters/allure-offline.js';

interface AllureAttachment {
  name: string;
  type: string;
  source: string;
}
interface AllureStep {
  name: string;
  attachments?: AllureAttachment[];
  steps?: AllureStep[];
}
interface AllureResult extends AllureStep {
  fullName: string;
  status: string;
  labels: { name: string; value: string }[];
}

async function readResults(dir: string): Promise<AllureResult[]> {
  const files = (await fs.readdir(dir)).filter((f) => f.endsWith('-result.json'));
  return Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), 'utf8')) as AllureResult));
}

/** allure-playwright hangs an attachment on the step that made it (`verdict s1` under the expect step). */
function attachments(step: AllureStep): AllureAttachment[] {
  return [...(step.attachments ?? []), ...(step.steps ?? []).flatMap(attachments)];
}

const labels = (r: AllureResult, name: string) => r.labels.filter((l) => l.name === name).map((l) => l.value);

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-allure-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('severity follows the documented weight thresholds', () => {
  const table: [number, string][] = [[3, 'blocker'], [2.5, 'blocker'], [2.25, 'critical'], [2, 'critical'], [1.5, 'normal'], [1, 'normal'], [0.75, 'minor'], [2 / 3, 'trivial'], [0.625, 'trivial']];
  assert.deepEqual(table.map(([w]) => [w, allureSeverity(w)]), table);
});

test('IWB_ALLURE=1: every slot test of the slice lands in allure-results with its labels and attachments, beside the iwb report; report:allure builds the report', async () => {
  const c = (await loadDataset('builtin')).cases.find((x) => x.id === 'tip-calculator_P-MIN')!;
  const results = path.join(tmp, 'allure-results');
  const env = {
    IWB_RUN_DIR: path.join(tmp, 'runs'),
    IWB_REPORT_DIR: path.join(tmp, 'report'),
    IWB_ALLURE_RESULTS: results,
    IWB_ALLURE_REPORT: path.join(tmp, 'allure-report'),
    PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(tmp, 'html'),
  };
  // No --reporter: the config's own reporters must run, the iwb reporter among them, with allure added.
  const slice = ['test', '--project=p-min', '--grep', '@task-tip-calculator', '--output', path.join(tmp, 'test-results')];
  const run = await playwright(slice, { ...env, IWB_ALLURE: '1' });
  assert.equal(run.status, 0, run.output.slice(-3000));
  const report = JSON.parse(await fs.readFile(path.join(tmp, 'report', 'report.json'), 'utf8')) as { cases: { id: string }[] };
  assert.deepEqual(report.cases.map((x) => x.id), [c.id], 'the iwb reporter still ran');

  const all = await readResults(results);
  assert.deepEqual(all.map((r) => r.name).sort(), c.slots.map(slotTestTitle).sort(), 'one result per slot test, and nothing else');
  for (const slot of c.slots) {
    const r = all.find((x) => x.name === slotTestTitle(slot))!;
    const what = `${r.name}: ${JSON.stringify(r.labels)}`;
    assert.ok(r.fullName.includes(c.id), r.fullName);
    assert.equal(r.status, 'passed');
    assert.deepEqual(labels(r, 'epic'), ['P-MIN'], what);
    assert.deepEqual(labels(r, 'feature'), [`${c.task.title} (tip-calculator)`], what);
    assert.deepEqual(labels(r, 'story'), [`${slot.id} ${slot.targetComponent}`], what);
    assert.deepEqual(labels(r, 'severity'), [allureSeverity(slot.weight)], what);
    assert.deepEqual(labels(r, 'tag').sort(), ['p-min', c.difficulty, slot.assertionType.toLowerCase(), 'task-tip-calculator'].sort(), what);
    const verdict = attachments(r).find((a) => a.name === `verdict ${slot.id}`);
    assert.ok(verdict, `the verdict attachment reaches Allure: ${r.name}`);
    assert.equal(verdict.type, 'application/json');
    const body = JSON.parse(await fs.readFile(path.join(results, verdict.source), 'utf8')) as { status: string };
    assert.equal(body.status, 'pass');
  }

  const built = await runCommand('npm', ['run', 'report:allure'], env);
  assert.equal(built.status, 0, built.output.slice(-3000));
  assert.ok(existsSync(path.join(tmp, 'allure-report', 'index.html')));
  // Allure 3 writes Google's tag manager into its pages; report:allure takes it out (reporters/allure-offline.ts).
  for (const page of (await fs.readdir(path.join(tmp, 'allure-report'))).filter((f) => f.endsWith('.html'))) {
    assert.deepEqual(externalOrigins(await fs.readFile(path.join(tmp, 'allure-report', page), 'utf8')), [], `${page} loads nothing from another origin`);
  }
  const summary = JSON.parse(await fs.readFile(path.join(tmp, 'allure-report', 'summary.json'), 'utf8')) as { stats: { total: number; passed: number } };
  assert.deepEqual(summary.stats, { total: c.slots.length, passed: c.slots.length }, 'the report read every result');

  // Without IWB_ALLURE a run writes no Allure results (episodes now come from the cache).
  const plain = await playwright(slice, { ...env, IWB_ALLURE_RESULTS: path.join(tmp, 'unwanted') });
  assert.equal(plain.status, 0, plain.output.slice(-3000));
  assert.equal(existsSync(path.join(tmp, 'unwanted')), false);
  console.log(`allure slice ${run.seconds.toFixed(1)} s, report:allure ${built.seconds.toFixed(1)} s, plain cached rerun ${plain.seconds.toFixed(1)} s`);
});

/** The probe judge takes no screenshots; the LLM-SoM judge attaches one per turn, so a fake judge model decides here. */
let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake?.close();
});

test("the LLM judge's labelled screenshots reach allure-results as PNG files", async () => {
  const dataset = path.join(tmp, 'echo.jsonl');
  const slot = (id: string, expected: string, type: string) => ({ id, original_task: `check ${id}`, expected_result: expected, target_component: `Part_${id}`, assertion_type: type, c_tech: 1 });
  const record = {
    id: 'echo-1-P-MIN',
    original_id: 'echo-1',
    persona: 'P-MIN',
    application_type: 'Echo page',
    instruction: 'A page that repeats my request.',
    ground_truth_instruction: 'Build a page titled "Echo agent" that repeats the request in a quote.',
    difficulty: 'easy',
    oracle_slots: [slot('s1', 'The heading reads Echo agent', 'POSITIVE'), slot('s2', 'There is no sign-up form', 'NEGATIVE')],
  };
  await fs.writeFile(dataset, JSON.stringify(record) + '\n');
  fake.script((req) =>
    preflightAnswer(req.body) ??
    (schemaName(req) === 'visual_score'
      ? reply.json({ layout: 4, creativeAlignment: 4, overall: 4, rationale: 'plain' })
      : reply.json({ thought: 'seen', action: { kind: 'verdict', status: 'pass', evidence: 'from the screenshot' } })),
  );
  const results = path.join(tmp, 'allure-llm');
  const run = await playwright(['test', '--project=p-min', '--workers=1', '--output', path.join(tmp, 'test-results-llm')], {
    IWB_ALLURE: '1',
    IWB_ALLURE_RESULTS: results,
    PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(tmp, 'html-llm'),
    IWB_DATASET: dataset,
    IWB_AGENT: 'command:node examples/echo-agent.mjs',
    ECHO_AGENT_NO_QUESTION: '1',
    IWB_RUN_DIR: path.join(tmp, 'runs-llm'),
    IWB_REPORT_DIR: path.join(tmp, 'report-llm'),
    IWB_JUDGE_MODEL: 'fake-judge',
    IWB_JUDGE_BASE_URL: fake.baseURL,
    IWB_JUDGE_API_KEY: 'test-key',
  });
  assert.equal(run.status, 0, run.output.slice(-3000));
  const all = await readResults(results);
  assert.deepEqual(all.map((r) => r.name).sort(), ['Part_s1 › s1', 'Part_s2 › s2']);
  for (const r of all) {
    const id = r.name.split(' › ')[1]!;
    const shots = attachments(r).filter((a) => a.type === 'image/png' && a.name.startsWith(`judge ${id} step`));
    assert.equal(shots.length, 1, `one judge turn, one screenshot: ${JSON.stringify(attachments(r))}`);
    const png = await fs.readFile(path.join(results, shots[0]!.source));
    assert.ok(png.length > 1000 && png.subarray(1, 4).toString() === 'PNG', 'a real PNG file in allure-results');
  }
  console.log(`LLM-judged run with allure: ${run.seconds.toFixed(1)} s`);
});
