import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BenchSchema, type Bench } from './summary.js';

/**
 * The speed regression check: the quick bench's figures, each divided by the calibration unit measured in
 * the same process during the same run (bench/calibrate.ts), against a committed baseline. Times are in
 * calibration units, so a loaded machine moves both sides together; memory is in MB as measured. The
 * tolerance is wide because other runs share the machine: it catches a slot that became several times
 * slower, not a few percent.
 */
export const BASELINE_FILE = fileURLToPath(new URL('./baseline.json', import.meta.url));

const FigureSchema = z.object({ value: z.number().positive(), unit: z.enum(['calibration', 'MB']) });
export const BaselineSchema = z.object({
  about: z.string(),
  createdAt: z.string(),
  /** A figure fails when now / baseline exceeds this (times, then memory). */
  tolerance: z.object({ time: z.number().gt(1), memory: z.number().gt(1) }),
  figures: z.record(z.string(), FigureSchema),
  /**
   * The quick bench's recording, slot by slot (`case/slot` -> verdict). A speed change must leave every one as
   * it was: the bench's scripted judge decides on what it was shown (bench/script.ts), so a page judged before
   * it settled, or read differently, shows here. Absent in a baseline written before verdicts were kept.
   */
  verdicts: z.record(z.string(), z.string()).optional(),
});
export type Baseline = z.infer<typeof BaselineSchema>;
type Figure = z.infer<typeof FigureSchema>;

/** Every compared figure of a bench, by name; a run without its calibration is left out. */
export function benchFigures(b: Bench): Record<string, Figure> {
  const out: Record<string, Figure> = {};
  const time = (name: string, ms: number | null | undefined, unit: number | undefined) => {
    if (ms !== null && ms !== undefined && ms > 0 && unit) out[name] = { value: Math.round((ms / unit) * 100) / 100, unit: 'calibration' };
  };
  for (const r of b.runs) {
    const at = `${r.kind}-${r.workers}`;
    time(`${at} wall`, r.wallS * 1000, r.calibrationMs);
    time(`${at} slot judged (median)`, r.slotMs.median, r.calibrationMs);
    time(`${at} verify step (median)`, r.verifyMs.median, r.calibrationMs);
    time(`${at} episode (median)`, r.episodeMs.median, r.calibrationMs);
    if (r.workerPeakRssMb) out[`${at} worker peak RSS`] = { value: r.workerPeakRssMb, unit: 'MB' };
  }
  time('SoM labelling (median)', b.som.ms.median, b.som.calibrationMs);
  return out;
}

export interface FigureCheck {
  name: string;
  baseline: number;
  now: number | null;
  ratio: number | null;
  ok: boolean;
}

/** Each baseline figure against the bench's; a figure the bench no longer measures fails, so none is dropped unnoticed. */
export function checkAgainstBaseline(b: Bench, baseline: Baseline): FigureCheck[] {
  const now = benchFigures(b);
  return Object.entries(baseline.figures).map(([name, base]) => {
    const f = now[name];
    if (!f || f.unit !== base.unit) return { name, baseline: base.value, now: null, ratio: null, ok: false };
    const ratio = Math.round((f.value / base.value) * 100) / 100;
    return { name, baseline: base.value, now: f.value, ratio, ok: ratio <= (base.unit === 'MB' ? baseline.tolerance.memory : baseline.tolerance.time) };
  });
}

/** The run the verdicts are held to: the quick bench's recording at one worker (its replay must equal it, test/bench.test.ts). */
const VERDICT_RUN = (b: Bench) => b.runs.find((r) => r.kind === 'record' && r.workers === 1);

/** A slot whose verdict is not the baseline's; null: the slot has none on that side. */
export interface VerdictChange {
  slot: string;
  baseline: string | null;
  now: string | null;
}

/**
 * Each slot's verdict in the baseline against the bench's: the slots that changed, went missing (not judged now)
 * or are new (the slice changed: write a new baseline). Empty when both agree, or the baseline keeps no verdicts.
 */
export function checkVerdicts(b: Bench, baseline: Baseline): VerdictChange[] {
  if (!baseline.verdicts) return [];
  const before = baseline.verdicts;
  const now = VERDICT_RUN(b)?.verdicts ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(now)])]
    .sort()
    .filter((slot) => before[slot] !== now[slot])
    .map((slot) => ({ slot, baseline: before[slot] ?? null, now: now[slot] ?? null }));
}

export function describeVerdicts(changes: readonly VerdictChange[]): string {
  return changes.map((c) => `${c.slot}: ${c.baseline ?? 'not in the baseline'} -> ${c.now ?? 'not judged'}`).join('\n');
}

export function describeChecks(checks: readonly FigureCheck[]): string {
  return checks.map((c) => `${c.ok ? 'ok  ' : 'SLOW'} ${c.name}: ${c.now ?? 'not measured'} against ${c.baseline}${c.ratio === null ? '' : ` (${c.ratio}x)`}`).join('\n');
}

/** `node --import tsx bench/regression.ts --write <bench.json>`: a new baseline from a quick bench (after a change that is meant to cost time). */
async function writeBaseline(benchFile: string): Promise<void> {
  const b = BenchSchema.parse(JSON.parse(await fs.readFile(benchFile, 'utf8')));
  const baseline: Baseline = {
    about: 'The quick bench (npm run bench -- --quick) in calibration units (bench/calibrate.ts) and MB, and its recording\'s verdicts slot by slot; test/bench.test.ts fails a figure past the tolerance and any verdict that changed. Rewrite with: node --import tsx bench/regression.ts --write <bench.json>',
    createdAt: b.createdAt,
    tolerance: { time: 3, memory: 1.5 },
    figures: benchFigures(b),
    ...(VERDICT_RUN(b)?.verdicts ? { verdicts: VERDICT_RUN(b)!.verdicts } : {}),
  };
  await fs.writeFile(BASELINE_FILE, JSON.stringify(baseline, null, 2) + '\n');
  process.stdout.write(`wrote ${BASELINE_FILE}: ${Object.keys(baseline.figures).length} figures, ${Object.keys(baseline.verdicts ?? {}).length} verdicts\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--write');
  const file = i >= 0 ? process.argv[i + 1] : undefined;
  if (!file) {
    process.stderr.write('usage: node --import tsx bench/regression.ts --write <bench.json>\n');
    process.exit(2);
  }
  writeBaseline(file).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
