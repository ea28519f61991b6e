import type { InputLoss } from '../stats/lost-input.js';
import type { Report } from './report-schema.js';

/**
 * The lines a reader must see before any figure: a run in which nothing could be judged (every episode
 * errored) is not a run that scored zero, and a filtered or interrupted run is not the benchmark.
 */
export function runHealth(r: Report): string[] {
  const lines: string[] = [];
  const cases = r.cases;
  const errored = cases.filter((c) => c.episodeStatus === 'errored' || c.slots.every((s) => s.status === 'errored'));
  if (cases.length > 0 && errored.length === cases.length) {
    const first = r.meta.firstError ?? 'no error message was recorded';
    lines.push(`Every episode errored (${errored.length} of ${cases.length} cases): nothing was judged, so no figure below means anything. First error: ${first}`);
  } else if (errored.length > 0) {
    lines.push(`${errored.length} of ${cases.length} cases errored (not failed): their slots are left out of every rate.`);
  }
  const p = r.meta.partial;
  if (p) lines.push(`Partial run: ${p.reason}.`);
  return lines;
}

/** Why a run is partial, or undefined when it covered the whole dataset. */
export function partialReason(casesRun: number, casesInDataset: number | null, interrupted: boolean): string | undefined {
  if (interrupted) return `interrupted after ${casesRun}${casesInDataset === null ? '' : ` of ${casesInDataset}`} cases`;
  if (casesInDataset !== null && casesRun < casesInDataset) return `${casesRun} of ${casesInDataset} cases of the dataset (filtered by --project, --grep or --shard)`;
  return undefined;
}

/** What a run's figures lost: its errored slots (an errored episode's slots included) of all its slots. */
export function runLoss(r: Report): InputLoss {
  return { errored: r.overall.erroredSlots, total: r.cases.reduce((n, c) => n + c.slots.length, 0), unit: 'slots' };
}
