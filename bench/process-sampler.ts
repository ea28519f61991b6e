import fs from 'node:fs';
import { processCpuFromStat } from './cpu.js';

/**
 * Memory and CPU of a run's processes, read from /proc while it runs. Linux only; elsewhere the figures are null.
 * - Memory: VmHWM (the kernel's own high-water mark) of every Playwright worker; the summed PSS of the
 *   Chromium processes and of the whole run (PSS, not RSS: renderers forked from one zygote share most of
 *   their pages, and summed RSS counted them once per renderer, 12.9 GB for a run of about 1 GB).
 * - CPU: each process's user + system time as last seen (bench/cpu.ts), summed: the last sampling interval of
 *   each process's life is missed, so sample often (100 ms misses under 5% of a run's CPU, measured against
 *   a sampler at 200 ms intervals of every process on the machine).
 */
export interface ProcessFigures {
  workerPeakMb: number | null;
  browserPeakMb: number | null;
  /** The peak of the summed PSS of every process of the run (runner, workers, browsers, agents, sites). */
  totalPeakMb: number | null;
  /** Playwright workers seen: one lives over a second (its start alone), so a sample every 500 ms sees each. */
  workerProcesses: number | null;
  cpuS: number | null;
  workerCpuS: number | null;
}

export interface ProcessSampler {
  stop(): Promise<ProcessFigures>;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null; // gone between the listing and the read, or not ours to read
  }
}

const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

export type ProcessKind = 'browser' | 'worker' | 'other';

/**
 * Whether a process is the run's: its environment carries the run's marker, or its parent is the run's. Chromium
 * starts its zygotes, GPU and network processes with an environment of its own, and the zygotes fork the
 * renderers: none carries the marker, and a third of a run's CPU (measured) would go uncounted without the parent.
 */
export function ofRun(environ: string | null, parentOfRun: boolean, marker: string): boolean {
  return Boolean(environ?.includes(marker)) || parentOfRun;
}

/**
 * A process of the run is a browser process or a Playwright worker, told apart by its command line
 * (NUL-separated, as /proc gives it). A worker runs Playwright's worker entry; the runner's own command line
 * (`playwright test --workers=2`) must not count as one, as it did when any "playwright ... worker" matched:
 * the runner's memory was reported as a worker's.
 */
export function processKind(cmdline: string): ProcessKind {
  if (/chrom/i.test(cmdline)) return 'browser';
  return /[\\/]playwright[\\/]lib[\\/].*worker[^\0]*Entry/i.test(cmdline) ? 'worker' : 'other';
}

/** Samples this long into a process's life it may still show its parent's command line (forked, not yet exec'd). */
const YOUNG_SAMPLES = 20;

/**
 * Every `everyMs`, with memory every `memoryEvery`-th time (PSS makes the kernel walk a process's pages).
 * Reads are synchronous: /proc files are made on the read, in microseconds, and a promise per file cost the
 * bench's process a quarter of a core at 100 ms, on a machine whose two cores the run under test needs.
 */
export function sampleProcesses(marker: string, everyMs = 100, memoryEvery = 10): ProcessSampler {
  let workerPeak = 0;
  let browserPeak = 0;
  let totalPeak = 0;
  let supported = true;
  let ticks = 0;
  /** Processes of the run by pid: kind, samples seen, and whether the kind is settled. */
  const run = new Map<string, { kind: ProcessKind; seen: number }>();
  /** Pids seen not to be the run's, with the samples they were seen in. */
  const foreign = new Map<string, number>();
  const workers = new Set<string>();
  /** Each process's CPU seconds as last seen, by pid and start time (a pid may be given again). */
  const cpu = new Map<string, { kind: ProcessKind; cpuS: number }>();

  const classify = (pid: string, stat: string): void => {
    const known = run.get(pid);
    // A process just forked shows its parent's command line until it execs: a young one is asked again.
    if (known && (known.kind !== 'other' || known.seen > YOUNG_SAMPLES)) return;
    if (!ofRun(readText(`/proc/${pid}/environ`), run.has(String(processCpuFromStat(stat).parent)), marker)) {
      foreign.set(pid, (foreign.get(pid) ?? 0) + 1);
      return;
    }
    foreign.delete(pid);
    const kind = processKind(readText(`/proc/${pid}/cmdline`) ?? '');
    run.set(pid, { kind, seen: known?.seen ?? 0 });
  };

  const tick = (withMemory = false): void => {
    let listed: string[];
    try {
      listed = fs.readdirSync('/proc');
    } catch {
      supported = false;
      return;
    }
    const pids = new Set(listed.filter((p) => /^\d+$/.test(p)));
    // A pid that is gone may come back as another process.
    for (const pid of run.keys()) if (!pids.has(pid)) run.delete(pid);
    for (const pid of foreign.keys()) if (!pids.has(pid)) foreign.delete(pid);
    const memory = ticks++ % memoryEvery === 0 || withMemory;
    let browser = 0;
    let total = 0;
    // In pid order, so a parent is classified before the children it forked since the last sample.
    for (const pid of [...pids].sort((a, b) => Number(a) - Number(b))) {
      // A process seen between its fork and its exec still has its parent's environment (a process of the run
      // spawned by one that is not, such as the bench's own Playwright runner): a young one is asked again.
      if ((foreign.get(pid) ?? 0) > YOUNG_SAMPLES) continue;
      const stat = readText(`/proc/${pid}/stat`);
      if (!stat) continue;
      classify(pid, stat);
      const p = run.get(pid);
      if (!p) continue;
      p.seen++;
      const c = processCpuFromStat(stat);
      cpu.set(`${pid}@${c.started}`, { kind: p.kind, cpuS: c.cpuS });
      if (p.kind === 'worker') workers.add(`${pid}@${c.started}`);
      if (!memory) continue;
      const pss = kb(readText(`/proc/${pid}/smaps_rollup`) ?? '', 'Pss') || kb(readText(`/proc/${pid}/status`) ?? '', 'VmRSS');
      total += pss;
      if (p.kind === 'browser') browser += pss;
      if (p.kind === 'worker') workerPeak = Math.max(workerPeak, kb(readText(`/proc/${pid}/status`) ?? '', 'VmHWM'));
    }
    browserPeak = Math.max(browserPeak, browser);
    totalPeak = Math.max(totalPeak, total);
  };
  const timer = setInterval(() => tick(), everyMs);
  return {
    stop() {
      clearInterval(timer);
      // The last reading sees memory too: a run shorter than `memoryEvery` samples would otherwise have none.
      tick(true);
      const mb = (k: number) => (supported && k > 0 ? Math.round(k / 1024) : null);
      // No process of the run seen (no /proc, or a run that never carried the marker) is unknown, not zero CPU.
      const seen = supported && cpu.size > 0;
      const seconds = (of: (k: ProcessKind) => boolean) => (seen ? Math.round([...cpu.values()].filter((c) => of(c.kind)).reduce((sum, c) => sum + c.cpuS, 0) * 10) / 10 : null);
      return Promise.resolve({
        workerPeakMb: mb(workerPeak),
        browserPeakMb: mb(browserPeak),
        totalPeakMb: mb(totalPeak),
        workerProcesses: seen ? workers.size : null,
        cpuS: seconds(() => true),
        workerCpuS: seconds((k) => k === 'worker'),
      });
    },
  };
}
