import { z } from 'zod';
import { InFlightSchema } from './in-flight.js';

/**
 * The latency bench's figures (`npm run bench -- --latency <ms>`): every fake role answers after a fixed
 * delay, so a run's model time is known exactly (requests x delay) and its wall time says how well the
 * harness hides it. The ideal is the model time spread evenly over the episodes in flight.
 */
export const LatencyRunSchema = z.object({
  /** Episodes in flight asked for: cases the runner runs and judges ahead (IWB_CASES_AHEAD), on a worker per core. */
  inFlight: z.number().int().positive(),
  cases: z.number().int(),
  slots: z.number().int(),
  requests: z.record(z.string(), z.number().int()),
  /** Requests x delay: what the run waited on models, summed over calls. */
  modelS: z.number(),
  idealS: z.number(),
  wallS: z.number(),
  /** wall / ideal: 1 is latency hidden perfectly. */
  ratio: z.number(),
  /** Episodes from first to last agent call, and judge calls waiting on a reply, over the run's time. */
  episodes: InFlightSchema,
  judgeCalls: InFlightSchema,
  /**
   * Peak of the summed memory of every process of the run (runner, workers, browsers, agents, sites): PSS since
   * 2026-12-07, Chromium's zygotes, GPU process and renderers included; before, RSS without them (the name stays).
   */
  totalPeakRssMb: z.number().nullable(),
  workerPeakRssMb: z.number().nullable(),
  /**
   * CPU seconds of every process of the run (bench/process-sampler.ts; null off Linux, absent in a bench from
   * before it was measured). Divided by the cores it is the run's CPU floor: no concurrency brings the wall under it.
   */
  cpuS: z.number().nullable().optional(),
  /** Of cpuS, the Playwright workers': a new one starts after every failed slot test. */
  workerCpuS: z.number().nullable().optional(),
  /** Playwright worker processes the run started: one after every failed slot test. */
  workerProcesses: z.number().int().nullable().optional(),
  exitCode: z.number().nullable(),
  /** 1-minute load average when the run started: above the core count, other work shared the machine. */
  loadAtStart: z.number(),
});
export type LatencyRun = z.infer<typeof LatencyRunSchema>;

export const LatencyBenchSchema = z.object({
  latencyMs: z.number(),
  createdAt: z.string(),
  dataset: z.string(),
  cpus: z.number().int(),
  memoryGb: z.number(),
  runs: z.array(LatencyRunSchema),
});
export type LatencyBench = z.infer<typeof LatencyBenchSchema>;

/** The target of issue 34: wall at most 1.3x the ideal at 16 episodes in flight, under 8 GB in all. */
export const LATENCY_TARGET = { inFlight: 16, ratio: 1.3, memoryMb: 8192 } as const;

/** The run's CPU floor: its processes' CPU time spread over every core, the least wall any concurrency could give. */
function cpuFloorS(r: LatencyRun, cpus: number): number | null {
  return r.cpuS === null || r.cpuS === undefined ? null : r.cpuS / cpus;
}

/** What bound a run: the model (its ideal) or the machine (its CPU floor), whichever is the larger. */
function boundOf(r: LatencyRun, cpus: number): string {
  const floor = cpuFloorS(r, cpus);
  if (floor === null) return 'unknown (CPU not measured)';
  return floor > r.idealS ? `the cores (CPU floor ${floor.toFixed(0)} s > ideal ${r.idealS.toFixed(0)} s)` : `the model (ideal ${r.idealS.toFixed(0)} s >= CPU floor ${floor.toFixed(0)} s)`;
}

function verdictLine(l: LatencyBench): string {
  const at16 = l.runs.find((r) => r.inFlight === LATENCY_TARGET.inFlight);
  if (!at16) return `No run at ${LATENCY_TARGET.inFlight} in flight.`;
  const met = at16.ratio <= LATENCY_TARGET.ratio && (at16.totalPeakRssMb ?? Infinity) < LATENCY_TARGET.memoryMb;
  const floor = cpuFloorS(at16, l.cpus);
  const cpu = floor === null ? '' : ` Its processes used ${at16.cpuS!.toFixed(0)} CPU-s, ${floor.toFixed(0)} s on ${l.cpus} cores; the wall is ${(at16.wallS / Math.max(floor, at16.idealS)).toFixed(2)}x the larger of ideal and CPU floor, so the bound is ${boundOf(at16, l.cpus)}.`;
  return `At ${LATENCY_TARGET.inFlight} in flight: ${at16.ratio.toFixed(2)}x the ideal (target <= ${LATENCY_TARGET.ratio}x) and ${at16.totalPeakRssMb ?? '–'} MB in all (target < ${LATENCY_TARGET.memoryMb} MB): ${met ? 'met' : 'not met'}.${cpu}`;
}

export function latencyMarkdown(l: LatencyBench): string[] {
  const verdict = verdictLine(l);
  return [
    `## Model latency (${l.latencyMs} ms per reply, every role)`,
    '',
    `\`npm run bench -- --latency ${l.latencyMs}\`, ${l.createdAt}, ${l.cpus} cores, ${l.memoryGb} GB, \`${l.dataset}\`. ` +
      'Episodes in flight = cases the runner runs and judges ahead of their tests (`IWB_CASES_AHEAD`), each judged ' +
      '`IWB_JUDGE_SLOTS_IN_FLIGHT` slots at once, with a Playwright worker per core reading the verdicts. Ideal = model time / episodes in flight ' +
      '(judge sessions overlap within a case, so a ratio under 1 is possible). ' +
      'CPU = every process of the run (runner, workers, browser, sites) as sampled from /proc every 100 ms, in brackets the Playwright workers\' share; CPU floor = CPU / cores, the least wall any concurrency could give. ' +
      'The load column says how busy the machine was when each run started (above the core count, other work shared it).',
    '',
    '| in flight | cases | model calls | model time | ideal | wall | wall / ideal | CPU (of it workers) | CPU floor | worker processes | episodes in flight (mean / max) | judge calls in flight (mean / max) | memory, all processes | load at start |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...l.runs.map((r) => {
      const calls = Object.values(r.requests).reduce((s, n) => s + n, 0);
      const floor = cpuFloorS(r, l.cpus);
      const cpu = `${r.cpuS === null || r.cpuS === undefined ? '–' : `${r.cpuS.toFixed(0)} s (${r.workerCpuS?.toFixed(0) ?? '–'} s)`} | ${floor === null ? '–' : `${floor.toFixed(0)} s`} | ${r.workerProcesses ?? '–'}`;
      return `| ${r.inFlight} | ${r.cases} | ${calls} | ${r.modelS.toFixed(0)} s | ${r.idealS.toFixed(0)} s | ${r.wallS.toFixed(0)} s | ${r.ratio.toFixed(2)}x | ${cpu} | ${r.episodes.mean} / ${r.episodes.max} | ${r.judgeCalls.mean} / ${r.judgeCalls.max} | ${r.totalPeakRssMb ?? '–'} MB | ${r.loadAtStart.toFixed(1)} |`;
    }),
    '',
    'Over time (mean in flight per tenth of the run, first to last):',
    '',
    ...l.runs.map((r) => `- ${r.inFlight} in flight: episodes ${r.episodes.timeline.join(' ')}; judge calls ${r.judgeCalls.timeline.join(' ')}`),
    '',
    verdict,
    '',
  ];
}
