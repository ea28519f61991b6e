import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Browser } from '@playwright/test';
import { listCalibrationSites, runCalibration, summarise, type CalibrationSite } from '../judge/calibrate.js';
import { createProbeJudge } from '../judge/probe-judge.js';
import { loadBuiltinTasks } from '../slots/builtin-loader.js';
import { buildDataset } from '../slots/load.js';

/**
 * The built-in calibration of the probes, in parts that run as test files of their own, at once (issue #33:
 * as one file it was the longest of `npm test`, alone on the machine at the end of its tier). A part takes every
 * `parts`-th site of the list; a task's sites are listed together and it has at least three broken variants
 * (judge-calibration.test.ts checks both), so every part judges broken slots of every task, and the parts
 * together judge what the single test judged.
 */

// The CLI covers one task end to end (judge-calibration.test.ts); the rest of the built-in sites are judged here.
export const CLI_TASK = 'tip-calculator';

// The six original tasks are calibrated in full here; on the other tasks every variant's broken slots are
// judged (the answers a judge must get right to catch a broken site). Their reference sites are probed in
// builtin-probes.test.ts (which leaves out these, probed in full here), and `npx iwb judge calibrate` runs
// everything (measured: 100%).
export const FULL = ['bakery-menu', 'conference-schedule', 'expense-tracker', 'ocean-quiz', 'reading-list'];

export function calibrationPartTest(part: number, parts: number, browser: () => Browser): void {
  test(`calibration, part ${part + 1} of ${parts}: the probes score 100% on the original tasks in full and on every broken slot of the rest`, async () => {
    const tasks = (await loadBuiltinTasks()).filter((t) => t.id !== CLI_TASK);
    const cases = buildDataset('builtin', 'builtin', tasks).cases;
    const sites = (await listCalibrationSites(tasks)).filter((_, i) => i % parts === part);
    const select = (site: CalibrationSite, slotId: string) => FULL.includes(site.taskId) || site.expected[slotId] === 'fail';
    const rows = await runCalibration({ browser: browser(), cases, sites, judges: [{ key: 'probe', judge: createProbeJudge(), slots: 'probed' }], concurrency: 3, select });
    const summary = summarise(rows, 'probe', []);
    assert.deepEqual(summary.misjudged, []);
    assert.equal(summary.probes.accuracy, 1);
    assert.equal(summary.probes.slots, sites.reduce((n, s) => n + Object.keys(s.expected).filter((id) => select(s, id)).length, 0));
    assert.ok(new Set(rows.filter((r) => r.expected === 'fail').map((r) => r.taskId)).size === tasks.length, 'every task has broken slots judged');
    const st = summary.stats.probe!;
    assert.deepEqual(Object.keys(st.byCTech).sort(), ['1', '2', '3']);
    assert.deepEqual(Object.keys(st.byAssertionType).sort(), ['NEGATIVE', 'POSITIVE']);
    assert.deepEqual(st.overall.ci.accuracy, [1, 1], 'a perfect judge has a degenerate interval');
  });
}
