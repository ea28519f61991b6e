import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { reply, start, type RecordedRequest } from '../testkit/fake-server.js';
import { inFlight, type Span } from './in-flight.js';
import { LatencyBenchSchema, type LatencyBench, type LatencyRun } from './latency.js';
import { playwright } from './playwright-run.js';
import { sampleProcesses } from './process-sampler.js';
import { BENCH_MODELS, benchModel, benchRoles, requestToken } from './script.js';
import { slice } from './work-dir.js';

export interface LatencyOptions {
  latencyMs: number;
  inFlight: number[];
  dataset: string;
  /** Cases of a run: the dataset's first `cases`, or `perEpisode` x in flight when smaller. */
  cases: number;
  perEpisode: number | undefined;
  work: string;
  out: string;
  /** Called after each level with the bench so far: a long table is kept level by level, not lost to a late failure. */
  onLevel?: (sofar: LatencyBench) => Promise<void>;
}

const ROLE_OF: Record<string, string> = Object.fromEntries(Object.entries(BENCH_MODELS).map(([role, model]) => [model, role]));

/**
 * One run per level of episodes in flight, each against a fake server that holds every reply `latencyMs`.
 * A reply's span is known from the request's arrival (the delay is the server's own); an episode's span runs
 * from its first agent call to the end of its last.
 */
export async function latencyBench(opts: LatencyOptions): Promise<LatencyBench> {
  const runs: LatencyRun[] = [];
  const sofar = (): LatencyBench =>
    LatencyBenchSchema.parse({ latencyMs: opts.latencyMs, createdAt: new Date().toISOString(), dataset: path.basename(opts.dataset), cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), runs });
  for (const n of opts.inFlight) {
    const fake = await start();
    let t0 = 0;
    const calls: Array<{ role: string; start: number; episode?: string }> = [];
    fake.script((req: RecordedRequest) => {
      const probe = preflightAnswer(req.body);
      if (probe) return probe;
      const role = ROLE_OF[req.body.model ?? ''] ?? 'judge';
      calls.push({ role, start: performance.now() - t0, ...(role === 'agent' ? { episode: requestToken(req) } : {}) });
      return reply.delay(opts.latencyMs, benchModel(req));
    });
    // Recorded requests carry screenshots: keep none.
    const drain = setInterval(() => fake.requests.splice(0), 1000);
    try {
      const cases = opts.perEpisode === undefined ? opts.cases : Math.min(opts.cases, opts.perEpisode * n);
      const dir = path.join(opts.work, `latency-${n}`);
      await fs.rm(dir, { recursive: true, force: true });
      await fs.mkdir(dir, { recursive: true });
      const data = await slice(opts.dataset, cases, dir);
      const marker = randomUUID();
      const loadAtStart = os.loadavg()[0]!;
      process.stderr.write(`[bench] latency ${opts.latencyMs} ms, ${n} in flight, ${data.cases} cases\n`);
      const processes = sampleProcesses(marker);
      t0 = performance.now();
      // n cases in flight: the runner runs and judges them ahead (fixtures/cases-ahead.ts), each case with
      // IWB_JUDGE_SLOTS_IN_FLIGHT judge sessions at once; a worker per core reads and reports the verdicts.
      const r = await playwright([`--workers=${Math.min(n, os.cpus().length)}`, '--reporter=./reporters/iwb-reporter.ts,./fixtures/cases-ahead.ts'], {
        IWB_CASES_AHEAD: String(n),
        ...benchRoles(fake.baseURL),
        IWB_DATASET: data.file,
        IWB_AGENT: 'openai',
        IWB_RUN_DIR: path.join(dir, 'runs'),
        IWB_LLM_CACHE: 'off',
        IWB_REPORT_DIR: path.join(dir, 'report'),
        BENCH_RUN_MARKER: marker,
      });
      const wallMs = performance.now() - t0;
      const mem = await processes.stop();
      if (r.code !== 0 && r.code !== 1) throw new Error(`bench: the latency run at ${n} in flight exited ${r.code}:\n${r.tail}`);
      const spans = (role: string): Span[] => calls.filter((c) => c.role === role).map((c) => ({ start: c.start, end: c.start + opts.latencyMs }));
      const byEpisode = new Map<string, Span>();
      for (const c of calls) {
        if (!c.episode) continue;
        const s = byEpisode.get(c.episode);
        byEpisode.set(c.episode, { start: Math.min(s?.start ?? Infinity, c.start), end: Math.max(s?.end ?? 0, c.start + opts.latencyMs) });
      }
      const requests: Record<string, number> = {};
      for (const c of calls) requests[c.role] = (requests[c.role] ?? 0) + 1;
      const modelS = (calls.length * opts.latencyMs) / 1000;
      const idealS = modelS / n;
      runs.push({
        inFlight: n,
        cases: data.cases,
        slots: data.slots,
        requests,
        modelS,
        idealS: Math.round(idealS * 10) / 10,
        wallS: Math.round(wallMs / 100) / 10,
        ratio: idealS > 0 ? Math.round((wallMs / 1000 / idealS) * 100) / 100 : 0,
        episodes: inFlight([...byEpisode.values()], wallMs),
        judgeCalls: inFlight(spans('judge'), wallMs),
        cpuS: mem.cpuS,
        workerCpuS: mem.workerCpuS,
        workerProcesses: mem.workerProcesses,
        totalPeakRssMb: mem.totalPeakMb,
        workerPeakRssMb: mem.workerPeakMb,
        exitCode: r.code,
        loadAtStart,
      });
    } finally {
      clearInterval(drain);
      await fake.close();
    }
    await opts.onLevel?.(sofar());
  }
  return sofar();
}
