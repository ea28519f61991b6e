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
  /** Peak of the summed RSS of every process of the run (runner, workers, browsers, agents, sites). */
  totalPeakRssMb: z.number().nullable(),
  workerPeakRssMb: z.number().nullable(),
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

export function latencyMarkdown(l: LatencyBench): string[] {
  const at16 = l.runs.find((r) => r.inFlight === LATENCY_TARGET.inFlight);
  const verdict = at16
    ? `At ${LATENCY_TARGET.inFlight} in flight: ${at16.ratio.toFixed(2)}x the ideal (target <= ${LATENCY_TARGET.ratio}x) and ${at16.totalPeakRssMb ?? '–'} MB in all (target < ${LATENCY_TARGET.memoryMb} MB): ${at16.ratio <= LATENCY_TARGET.ratio && (at16.totalPeakRssMb ?? Infinity) < LATENCY_TARGET.memoryMb ? 'met' : 'not met'}.`
    : `No run at ${LATENCY_TARGET.inFlight} in flight.`;
  return [
    `## Model latency (${l.latencyMs} ms per reply, every role)`,
    '',
    `\`npm run bench -- --latency ${l.latencyMs}\`, ${l.createdAt}, ${l.cpus} cores, ${l.memoryGb} GB, \`${l.dataset}\`. ` +
      'Episodes in flight = cases the runner runs and judges ahead of their tests (`IWB_CASES_AHEAD`), each judged ' +
      '`IWB_JUDGE_SLOTS_IN_FLIGHT` slots at once, with a Playwright worker per core reading the verdicts. Ideal = model time / episodes in flight ' +
      '(judge sessions overlap within a case, so a ratio under 1 is possible). ' +
      'The machine was shared with other test runs: the load column says how busy it was when each run started; read the ratios, not the seconds.',
    '',
    '| in flight | cases | model calls | model time | ideal | wall | wall / ideal | episodes in flight (mean / max) | judge calls in flight (mean / max) | memory, all processes | load at start |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...l.runs.map((r) => {
      const calls = Object.values(r.requests).reduce((s, n) => s + n, 0);
      return `| ${r.inFlight} | ${r.cases} | ${calls} | ${r.modelS.toFixed(0)} s | ${r.idealS.toFixed(0)} s | ${r.wallS.toFixed(0)} s | ${r.ratio.toFixed(2)}x | ${r.episodes.mean} / ${r.episodes.max} | ${r.judgeCalls.mean} / ${r.judgeCalls.max} | ${r.totalPeakRssMb ?? '–'} MB | ${r.loadAtStart.toFixed(1)} |`;
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
