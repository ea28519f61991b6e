import path from 'node:path';
import { PROFILE_NAMES, PROFILES, type ProfileName } from '../config/profiles.js';
import { readSettings } from '../config/settings.js';
import { loadPriceTable } from '../llm/cost.js';
import { formatText } from '../reporters/format.js';
import { profileSwitchNote, underProfile } from '../reporters/rescore.js';
import { runHealth, runLoss } from '../reporters/run-health.js';
import { judgeLoss } from '../stats/lost-input.js';
import { maxErroredOf } from './max-errored.js';
import { readRunRecords } from '../reporters/run-records.js';
import { writeReportFolder } from '../reporters/write-report.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';

const REPORT_USAGE = usageOf('report');

/**
 * `iwb report`: report.json, report.md, summary.html and the case pages of a finished run, scored again from
 * the slot records the run kept in its run folder (reporters/run-records.ts). No model is called and no
 * browser opened; prices (IWB_PRICES) and the bootstrap are today's, the verdicts are the run's.
 */
export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseCommand(args, 'report');
  if (positional.length !== 1) throw new UsageError(REPORT_USAGE);
  const asked = flags.get('profile');
  if (asked !== undefined && !isProfile(asked)) throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}\n${REPORT_USAGE}`);
  const tolerance = maxErroredOf(flags);
  const runId = flags.get('run');
  const started = performance.now();
  let read: Awaited<ReturnType<typeof readRunRecords>>;
  try {
    read = await readRunRecords(positional[0]!, typeof runId === 'string' ? runId : undefined);
  } catch (e) {
    io.err(`iwb report: ${(e as Error).message}`);
    return 2;
  }
  const runProfile: ProfileName = isProfile(read.run.meta.profile) ? read.run.meta.profile : 'iwb';
  const profile: ProfileName = asked !== undefined && isProfile(asked) ? asked : runProfile;
  const settings = readSettings(cliEnv());
  const out = path.resolve(typeof flags.get('out') === 'string' ? String(flags.get('out')) : settings.reportDir);
  const note = profileSwitchNote(runProfile, profile);
  const written = await writeReportFolder(out, {
    records: read.records.map((r) => underProfile(r, PROFILES[profile])),
    meta: { ...read.run.meta, profile },
    interrupted: read.run.interrupted,
    prices: loadPriceTable(settings.prices),
    rescored: { at: new Date().toISOString(), from: read.file, runProfile, ...(note ? { note } : {}) },
  });
  const seconds = (performance.now() - started) / 1000;
  const loss = judgeLoss(runLoss(written.report), tolerance);
  // The run's own rule (stats/lost-input.ts): a re-score that lost input past the tolerance exits 1 as the run did.
  const code = loss.ok ? 0 : 1;
  if (flags.has('json')) {
    const lost = { ok: loss.ok, erroredSlots: written.report.overall.erroredSlots, maxErrored: tolerance.from ? tolerance.share : null, ...(loss.line ? { lostInput: loss.line } : {}) };
    io.out(JSON.stringify({ report: path.join(out, 'report.json'), from: read.file, profile, runProfile, cases: written.report.overall.cases, seconds, ...lost }));
    return code;
  }
  const health = [...runHealth(written.report), ...(loss.line ? [loss.line] : [])].map((l) => `[iwb] ${l}\n`).join('');
  io.out(`${health}${formatText(written.report)}\n${note ? `[iwb] ${note}\n` : ''}re-scored ${written.report.cases.length} cases from ${read.file} in ${seconds.toFixed(1)} s (no model, no browser) · report: ${path.join(out, 'report.json')} · ${written.pages.pages} case pages`);
  if (!loss.ok) io.err(`iwb report: ${loss.line}`);
  return code;
}

const isProfile = (p: unknown): p is ProfileName => typeof p === 'string' && (PROFILE_NAMES as readonly string[]).includes(p);
