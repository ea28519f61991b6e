import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { compareCommand } from '../cli/compare.js';
import { caseHref } from '../reporters/case-view.js';
import { flippedCases } from '../reporters/compare-html.js';
import type { Report } from '../reporters/report.js';
import { capture } from './cli-capture.js';
import { reportOf, type CaseSpec } from './report-support.js';

/**
 * Run A and run B of the same eight cases (two personas, two difficulties): B fixes one slot in most
 * P-MIN cases and breaks one in t6; t7 runs only in A, t8 only in B.
 */
function cases(agent: string, fixed: boolean): CaseSpec[] {
  const out: CaseSpec[] = [];
  for (let j = 0; j < 8; j++) {
    const persona = j < 4 ? 'P-MIN' : 'P-CON';
    const difficulty = j % 2 ? 'hard' : 'easy';
    const improved = fixed && j < 4;
    const broken = fixed && j === 6;
    out.push({ id: `t${j}_${persona}`, agent, persona, difficulty, positives: [improved ? 'pass' : 'fail', broken ? 'fail' : 'pass', 'pass'], negatives: ['pass'] });
  }
  return fixed ? [...out.filter((c) => !c.id.startsWith('t7')), { id: 't8_P-CON', agent, persona: 'P-CON', difficulty: 'hard', positives: ['pass'] }] : out;
}

let tmp: string;
let a: Report;
let b: Report;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-compare-html-'));
  a = reportOf(cases('agent-a', false));
  b = reportOf(cases('agent-b', true));
  for (const [dir, r] of [['run-a', a], ['run-b', b]] as const) {
    await fs.mkdir(path.join(tmp, dir), { recursive: true });
    await fs.writeFile(path.join(tmp, dir, 'report.json'), JSON.stringify(r, null, 2));
  }
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('flipped cases: every slot whose status changed, and the cases only one run has', () => {
  const flips = flippedCases(a, b);
  const byCase = Object.fromEntries(flips.map((f) => [(f.a ?? f.b)!.id, f.slots.map((s) => `${s.id} ${s.a}→${s.b}`)]));
  assert.deepEqual(byCase, {
    't0_P-MIN': ['s1 fail→pass'],
    't1_P-MIN': ['s1 fail→pass'],
    't2_P-MIN': ['s1 fail→pass'],
    't3_P-MIN': ['s1 fail→pass'],
    't6_P-CON': ['s2 pass→fail'],
    't7_P-CON': ['s1 fail→—', 's2 pass→—', 's3 pass→—', 's4 pass→—'],
    't8_P-CON': ['s1 —→pass'],
  });
  assert.deepEqual(flippedCases(a, a), [], 'a run compared with itself flips nothing');
});

test('iwb compare A B --html: headline figures with intervals, paired differences by persona and difficulty, flips linked to both case pages, nothing external', async () => {
  const out = path.join(tmp, 'pages', 'a-vs-b.html');
  const io = capture();
  assert.equal(await compareCommand([path.join(tmp, 'run-a'), path.join(tmp, 'run-b'), '--html', out], io), 0, io.errText());
  assert.match(io.errText(), /a-vs-b\.html/);
  const html = await fs.readFile(out, 'utf8');
  const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

  // Headline: each run's TCR with its interval, then B − A over the 7 shared cases.
  assert.match(text, /TCR % \d+\.\d \[\d+\.\d, \d+\.\d\] \d+\.\d \[\d+\.\d, \d+\.\d\] [+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\] 7 /);
  // P-MIN: A passes 2 of 3 positives everywhere, B all 3: TCR 66.7 -> 100, +33.3 on every resample.
  assert.match(text, /P-MIN 66\.7 \[66\.7, 66\.7\] 100\.0 \[100\.0, 100\.0\] \+33\.3 \[\+33\.3, \+33\.3\]/);
  assert.match(text, /P-CON /);
  for (const d of ['easy', 'hard']) assert.match(text, new RegExp(`\\b${d} \\d`), `a row for ${d}`);
  assert.doesNotMatch(text, /\bmiddle \d/, 'no row for a difficulty neither run has');

  // Flips: links into each run's own report folder, relative to the page.
  // t7 is only in A and t8 only in B: counted apart, their slots are no status change.
  assert.match(text, /5 shared case\(s\), 5 slot\(s\) changed status\. Not in both runs, listed below without a change: 1 case\(s\) only in A, 1 only in B\./);
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
  const t6a = a.cases.find((c) => c.id === 't6_P-CON')!;
  const t6b = b.cases.find((c) => c.id === 't6_P-CON')!;
  assert.ok(links.includes(`../run-a/${caseHref(t6a)}`), links.join('\n'));
  assert.ok(links.includes(`../run-b/${caseHref(t6b)}`), links.join('\n'));
  assert.match(text, /not in B/);
  assert.match(text, /not in A/);

  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  assert.deepEqual(links.filter((l) => /^[a-z]+:|^\/\//i.test(l)), [], 'no link or load leaves the folder');
  assert.doesNotMatch(html, /<script|src=/, 'no script and nothing loaded');
});

test('--html needs exactly two runs', async () => {
  const io = capture();
  await assert.rejects(compareCommand([path.join(tmp, 'run-a'), '--html', path.join(tmp, 'x.html')], io), /--html compares two runs/);
});
