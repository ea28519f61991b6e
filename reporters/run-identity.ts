import { PROFILE_NAMES, type ProfileName } from '../config/profiles.js';
import { RunAnnotationSchema, type RunAnnotation } from '../protocol/annotations.js';

export interface ReportedRun {
  profile: ProfileName;
  dataset: string;
}

/**
 * The run a report describes, from what its slot tests recorded (`_iwb.run`): a report is scored under the
 * profile its tests ran with, not the one the reporting process's environment names, because merge-reports
 * runs later and elsewhere. Tests that disagree (blobs of two runs merged, two profiles or datasets or judges
 * mixed) cannot make one report: the error names both sides. Tests of an older blob record nothing, and the
 * fallback (the reporting process's settings) stands in, as before.
 */
export function reportedRun(recorded: readonly (string | undefined)[], fallback: ReportedRun): ReportedRun {
  const runs = recorded.flatMap((text) => (text === undefined ? [] : [RunAnnotationSchema.parse(JSON.parse(text))]));
  if (runs.length === 0) return fallback;
  // Some tests recorded their run and some did not (a blob of an older build merged in): the unrecorded ones
  // ran under rules nobody can name, and would be scored under the recorded run's.
  const unrecorded = recorded.length - runs.length;
  if (unrecorded > 0) throw new MixedRunsError(`${unrecorded} of ${recorded.length} test results recorded no run (a blob of an older build?) beside ${runs.length} that did; one report scores one run, so report each run's blobs apart`);
  for (const [field, show] of FIELDS) {
    const seen = new Map<string, number>();
    for (const r of runs) seen.set(show(r), (seen.get(show(r)) ?? 0) + 1);
    if (seen.size > 1) {
      const listed = [...seen].map(([v, n]) => `${v} (${n} test result${n === 1 ? '' : 's'})`).join(' and ');
      throw new MixedRunsError(`the tests to report ran under different ${field}s: ${listed}; one report scores one run, so report each run's blobs apart`);
    }
  }
  const { profile, dataset } = runs[0]!;
  if (!(PROFILE_NAMES as readonly string[]).includes(profile)) throw new MixedRunsError(`the tests ran under profile ${profile}, which this build does not know (${PROFILE_NAMES.join(', ')})`);
  return { profile: profile as ProfileName, dataset };
}

const FIELDS: readonly (readonly [string, (r: RunAnnotation) => string])[] = [
  ['profile', (r) => r.profile],
  ['dataset', (r) => r.dataset],
  ['judge', (r) => `${r.judge.mode} session, ${r.judge.model ?? 'probes only'}${r.judge.stepCap === null ? '' : `, step cap ${r.judge.stepCap}`}`],
];

export class MixedRunsError extends Error {
  override name = 'MixedRunsError';
}
