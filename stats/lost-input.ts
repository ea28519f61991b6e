import { z } from 'zod';

/**
 * The one rule for figures that lost input: an errored turn, verdict or slot is left out of every figure, so
 * a command whose figures rest on fewer inputs than it was given exits non-zero, unless asked to tolerate a
 * stated share (`--max-errored 5%` on an `iwb` command, IWB_MAX_ERRORED for a Playwright run, which takes no
 * custom flags). Every figure-producing command reads its tolerance and words its verdict here, so a share
 * means the same everywhere and the output always names what was tolerated.
 */

/** "5%", "5" or "0.5%": the share of errored inputs tolerated, from 0 to 100%. */
export const ErroredShareSchema = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?%?$/, 'must be a percentage such as 5%')
  .transform((v) => Number(v.replace('%', '')) / 100)
  .refine((x) => x <= 1, 'must be at most 100%');

export const MAX_ERRORED_FLAG = 'max-errored';

export interface Tolerance {
  /** 0 to 1. */
  share: number;
  /** Where it was set (`--max-errored`, `IWB_MAX_ERRORED`); null when nothing was set and none is tolerated. */
  from: string | null;
}

export const NO_TOLERANCE: Tolerance = { share: 0, from: null };

/** A flag or variable's value read into a tolerance; the error names where the bad value came from. */
export function toleranceOf(raw: string | undefined, from: string): Tolerance {
  if (raw === undefined || raw.trim() === '') return NO_TOLERANCE;
  const parsed = ErroredShareSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${from} ${parsed.error.issues[0]!.message} (got ${JSON.stringify(raw)})`);
  return { share: parsed.data, from };
}

/** How many of a figure's inputs errored, and what they are ("slots", "turns", "verdicts"). */
export interface InputLoss {
  errored: number;
  total: number;
  unit: string;
}

export interface LossVerdict {
  /** True when nothing errored, or the errored share is within the tolerance. */
  ok: boolean;
  share: number;
  /** What the output says; null when nothing errored and nothing was tolerated (nothing to say). */
  line: string | null;
}

export const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`;

/** What befell the errored inputs and what that means, for a command whose output is not a figure (a dataset build). */
export interface LossWording {
  fate: string;
  lost: string;
}
const FIGURE_WORDING: LossWording = { fate: 'left out of every figure', lost: 'so the figures lost input' };

export function judgeLoss(loss: InputLoss, tolerance: Tolerance, wording: LossWording = FIGURE_WORDING): LossVerdict {
  const share = loss.total === 0 ? 0 : loss.errored / loss.total;
  const tolerated = tolerance.from ? `${percent(tolerance.share)} tolerated (${tolerance.from} ${percent(tolerance.share)})` : 'none tolerated';
  if (loss.errored === 0) return { ok: true, share, line: tolerance.from ? `no ${loss.unit} errored; ${tolerated}` : null };
  const head = `${loss.errored} of ${loss.total} ${loss.unit} errored (${percent(share)}), ${wording.fate}`;
  // A float's margin, so 5 of 100 is within 5%.
  const ok = share <= tolerance.share + 1e-12;
  if (ok) return { ok, share, line: `${head}; within the ${tolerated}` };
  return { ok, share, line: `${head}, ${wording.lost}: over the ${tolerated}; exit 1 (--max-errored <pct>, or IWB_MAX_ERRORED for a run, tolerates a stated share)` };
}

/** A tolerance already read (a setting's number), named by where it was set. */
export function toleranceFrom(share: number | undefined, from: string): Tolerance {
  return share === undefined ? NO_TOLERANCE : { share, from };
}
