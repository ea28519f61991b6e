import { readSettings, SETTINGS_VARIABLES } from '../config/settings.js';
import { MAX_ERRORED_FLAG, toleranceFrom, toleranceOf, type Tolerance } from '../stats/lost-input.js';
import { cliEnv, UsageError } from './io.js';

/**
 * A figure-producing command's tolerance of errored inputs: `--max-errored <pct>`, else IWB_MAX_ERRORED (the
 * run's setting, so a run and its re-score agree), else none. The rule itself is stats/lost-input.ts.
 */
export function maxErroredOf(flags: Map<string, string | true>, env?: Readonly<Record<string, string | undefined>>): Tolerance {
  const raw = flags.get(MAX_ERRORED_FLAG);
  if (raw === true) throw new UsageError(`--${MAX_ERRORED_FLAG} needs a percentage such as 5%`);
  if (raw !== undefined) {
    try {
      return toleranceOf(raw, `--${MAX_ERRORED_FLAG}`);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  return toleranceFrom(readSettings(env ?? cliEnv()).maxErrored, SETTINGS_VARIABLES.maxErrored);
}
