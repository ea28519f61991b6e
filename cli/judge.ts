import { chromium } from '@playwright/test';
import path from 'node:path';
import { requireChromium } from '../config/chromium.js';
import { readSettings } from '../config/settings.js';
import { browserSandbox, chromiumLaunchOptions } from '../config/chromium-sandbox.js';
import type { AgreementWithCi } from '../judge/calibration-stats.js';
import { listCalibrationSites, runCalibration, summarise, type CalibrationJudge, type CalibrationSummary } from '../judge/calibrate.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { createProbeJudge } from '../judge/probe-judge.js';
import { checkCommandRoles, commandClients } from '../llm/run-clients.js';
import { loadBuiltinTasks } from '../slots/builtin-loader.js';
import { buildDataset } from '../slots/load.js';
import { parseGroup, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';
import { maxErroredOf } from './max-errored.js';
import { judgeLoss, type LossVerdict } from '../stats/lost-input.js';

const USAGE = usageOf('judge', 'calibrate');

/**
 * `iwb judge calibrate`: the probes (and the configured judge model, if any) over every built-in task's
 * reference site and broken variants. Exit 0 only when the probes score 100%: a probe that misjudges a
 * known site would misjudge agents' sites too.
 */
export async function judgeCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseGroup(args, 'judge');
  if (positional.length > 0) throw new UsageError(USAGE);
  const concurrency = flags.has('concurrency') ? Number(flags.get('concurrency')) : 3;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError(`--concurrency must be a positive integer\n${USAGE}`);

  const tolerance = maxErroredOf(flags);
  const settings = readSettings(cliEnv());
  const all = await loadBuiltinTasks();
  const wanted = flags.has('task') ? String(flags.get('task')).split(',').map((t) => t.trim()).filter(Boolean) : null;
  const unknown = wanted?.filter((id) => !all.some((t) => t.id === id)) ?? [];
  if (unknown.length) throw new UsageError(`--task: no built-in task ${unknown.join(', ')} (have ${all.map((t) => t.id).join(', ')})`);
  const tasks = wanted ? all.filter((t) => wanted.includes(t.id)) : all;
  const cases = buildDataset('builtin', 'builtin', tasks).cases;
  const sites = await listCalibrationSites(tasks);
  const judges: CalibrationJudge[] = [{ key: 'probe', judge: createProbeJudge(), slots: 'probed' }];
  const env = cliEnv();
  const client = (await commandClients(env)).judge;
  if (client) {
    // A judge model that cannot be reached or cannot see images would only produce errored verdicts.
    const problem = await checkCommandRoles(env, { judge: { structured: true, tools: false, images: true } });
    if (problem) {
      io.err(`iwb judge calibrate: the judge role cannot do its part, nothing was judged:\n${problem}`);
      return 1;
    }
  }
  // The model is calibrated on every slot, probe or not: the point is to measure it, not to run a benchmark.
  if (client) judges.push({ key: client.model, judge: createLlmJudge({ client, cacheDir: path.join(settings.runDir, 'verdicts') }), slots: 'all' });

  const browser = await chromium.launch(chromiumLaunchOptions(requireChromium(settings.chromium).path, browserSandbox(settings.chromiumSandbox)));
  let summary: CalibrationSummary;
  try {
    const rows = await runCalibration({ browser, cases, sites, judges, concurrency });
    summary = summarise(rows, 'probe', judges.slice(1).map((j) => j.key));
  } finally {
    await browser.close();
  }
  const models = Object.values(summary.judges);
  const loss = judgeLoss({ errored: models.reduce((n, j) => n + j.errored, 0), total: models.reduce((n, j) => n + j.slots, 0), unit: 'judge-model verdicts' }, tolerance);
  io.out(flags.has('json') ? JSON.stringify({ ...summary, lostInput: { ok: loss.ok, erroredShare: loss.share, maxErrored: tolerance.from ? tolerance.share : null, ...(loss.line ? { line: loss.line } : {}) } }, null, 2) : describe(summary, sites.length, tasks.length, Boolean(client), loss));
  if (!loss.ok) io.err(`iwb judge calibrate: ${loss.line}`);
  return summary.probes.accuracy === 1 && loss.ok ? 0 : 1;
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const ci = (c: [number, number] | null, f: (x: number) => string) => (c ? ` [${f(c[0])}, ${f(c[1])}]` : '');
const pctCi = (a: number | null, c: [number, number] | null) => `${pct(a)}${ci(c, (x) => (x * 100).toFixed(1))}`;

function row(label: string, a: AgreementWithCi): string {
  return (
    `  ${label.padEnd(10)} n ${String(a.slots).padStart(4)}  accuracy ${pctCi(a.accuracy, a.ci.accuracy)}  ` +
    `precision(fail) ${pctCi(a.precisionFail, a.ci.precisionFail)}  recall(fail) ${pctCi(a.recallFail, a.ci.recallFail)}  ` +
    `kappa ${num(a.kappa)}${ci(a.ci.kappa, (x) => x.toFixed(3))}`
  );
}

function describe(s: CalibrationSummary, sites: number, tasks: number, withModel: boolean, loss: LossVerdict): string {
  const lines = [
    `calibration: ${tasks} tasks, ${sites} sites (reference and variants); ${Math.round(s.bootstrap.level * 100)}% intervals: bootstrap over tasks, ${s.bootstrap.resamples} resamples`,
    ...Object.entries(s.judges)
      .filter(([, a]) => a.errored > 0)
      .map(([m, a]) => `${m}: ${a.errored} of ${a.slots} verdicts errored, left out of its figures below (over the ${a.slots - a.errored} it gave)`),
    ...(loss.line ? [loss.line] : []),
  ];
  for (const [judge, st] of Object.entries(s.stats)) {
    lines.push(`${judge}`, row('all', st.overall));
    for (const [c, a] of Object.entries(st.byCTech)) lines.push(row(`c_tech ${c}`, a));
    for (const [t, a] of Object.entries(st.byAssertionType)) lines.push(row(t.toLowerCase(), a));
  }
  if (!withModel) lines.push('(no judge model configured: set IWB_JUDGE_MODEL to calibrate one)');
  if (s.misjudged.length) {
    lines.push('misjudged:');
    for (const m of s.misjudged.slice(0, 40)) lines.push(`  ${m.judge}: ${m.taskId}/${m.variant} ${m.slotId} expected ${m.expected}, got ${m.got}: ${m.evidence}`);
  }
  return lines.join('\n');
}
