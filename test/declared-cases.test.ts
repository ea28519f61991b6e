import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Case } from '../slots/schema.js';
import { caseTitle, slotTestDetails, slotTestTitle } from '../specs/cases.js';
import { releaseFile } from '../config/public-data.js';
import { installRunContext } from '../config/run-context.js';

const { path: ALL, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);

/**
 * The runner declares every persona's tests first and leaves its cases for the workers, which Playwright
 * starts after every failed slot. What a worker declares from that file must be exactly what it would have
 * declared from the dataset: the public release's 404 cases are checked field by field after the round trip
 * (JSON drops a field whose value is undefined, which is the same as its absence), and so are the test
 * titles, tags and annotations they declare.
 */
const normalised = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const declared = (cases: Case[]) => cases.map((c) => [caseTitle(c), c.slots.map((s) => [slotTestTitle(s), slotTestDetails(c, s)])]);
test('declared cases: a worker reads the runner\'s snapshot of its persona\'s cases, equal to the dataset\'s, and parses the dataset itself when the file is torn', { skip: noData }, async () => {
  const memo = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-declared-'));
  const env = process.env;
  const saved = { ...env };
  try {
    env.IWB_DATASET = ALL;
    delete env.TEST_WORKER_INDEX;
    env.IWB_CASES_SNAPSHOT = path.join(memo, 'elsewhere'); // inherited from another run: the runner ignores it
    // What playwright.config.ts installs: the frozen settings (the dataset) and the process's environment (run state).
    installRunContext({ run: { schemaVersion: 1, cwd: process.cwd(), variables: { IWB_DATASET: ALL }, chromium: null }, env });
    const { casesToDeclare, loadCases } = await import('../fixtures/cases.js');
    const dataset = await loadCases();
    assert.equal(dataset.cases.length, 404);

    // The runner: its persona's cases, and a snapshot named for its workers.
    const runner = await casesToDeclare('P-MIN', memo);
    assert.deepEqual(runner, dataset.cases.filter((c) => c.persona === 'P-MIN'));
    const prefix = env.IWB_CASES_SNAPSHOT;
    assert.ok(prefix && prefix.startsWith(path.join(memo, 'cases-')), `the runner names its own snapshot: ${prefix}`);
    const files = (await fs.readdir(memo)).sort();
    assert.deepEqual(files.map((f) => f.replace(/^cases-[0-9a-f]+\./, '')), ['p-con.json', 'p-int.json', 'p-min.json', 'p-ram.json']);

    // A worker: every persona's cases from the snapshot, equal to the dataset's after the JSON round trip.
    env.TEST_WORKER_INDEX = '3';
    for (const persona of ['P-MIN', 'P-RAM', 'P-INT', 'P-CON'] as const) {
      const fromFile = await casesToDeclare(persona, memo);
      const parsed = dataset.cases.filter((c) => c.persona === persona);
      assert.deepEqual(fromFile, normalised(parsed), persona);
      assert.deepEqual(declared(fromFile), declared(parsed), `${persona}: the same tests are declared`);
      assert.notEqual(fromFile[0], dataset.cases.find((c) => c.persona === persona), 'read from the file, not the parsed dataset');
    }

    // A torn file is not trusted: the worker parses the dataset and declares the same cases.
    const file = `${prefix}.p-ram.json`;
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.slice(0, text.length / 2));
    const torn = await casesToDeclare('P-RAM', memo);
    assert.equal(torn[0], dataset.cases.find((c) => c.persona === 'P-RAM'), 'the parsed dataset, not the torn file');
    // One whose cases were edited does not match its digest either.
    const edited = JSON.parse(text) as { cases: Array<{ id: string }> };
    edited.cases[0]!.id = 'edited';
    await fs.writeFile(file, JSON.stringify(edited));
    assert.equal((await casesToDeclare('P-RAM', memo))[0]!.id, dataset.cases.find((c) => c.persona === 'P-RAM')!.id);
  } finally {
    for (const k of Object.keys(env)) if (!(k in saved)) delete env[k];
    Object.assign(env, saved);
    await fs.rm(memo, { recursive: true, force: true });
  }
});
