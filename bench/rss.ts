import { promises as fs } from 'node:fs';

/**
 * Peak resident memory of a run's processes, read from /proc while it runs: VmHWM (the kernel's own
 * high-water mark) of every Playwright worker (its command line names Playwright's worker entry) and
 * the summed RSS of the Chromium processes. Linux only; elsewhere the figures are null.
 */
export interface RssSampler {
  /** totalPeakMb: the peak of the summed RSS of every process of the run (runner, workers, browsers, agents, sites). */
  stop(): Promise<{ workerPeakMb: number | null; browserPeakMb: number | null; totalPeakMb: number | null }>;
}

async function readText(file: string): Promise<string | null> {
  return fs.readFile(file, 'utf8').catch(() => null);
}

const kb = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);

export type ProcessKind = 'browser' | 'worker' | 'other';

/**
 * A process of the run (its environment carries the run's marker) is a browser process or a Playwright
 * worker, told apart by its command line (NUL-separated, as /proc gives it). A worker runs Playwright's
 * worker entry; the runner's own command line (`playwright test --workers=2`) must not count as one, as it
 * did when any "playwright ... worker" matched: the runner's memory was reported as a worker's.
 */
export function processKind(environ: string | null, cmdline: string, marker: string): ProcessKind {
  if (!environ?.includes(marker)) return 'other';
  if (/chrom/i.test(cmdline)) return 'browser';
  return /[\\/]playwright[\\/]lib[\\/].*worker[^\0]*Entry/i.test(cmdline) ? 'worker' : 'other';
}

/**
 * A process's kind is read once (its environment and command line do not change): reading every process's
 * environment four times a second cost the bench's own process a tenth of a core, measured, on a machine
 * whose two cores the run under test needs.
 */
export function sampleRss(marker: string, everyMs = 250): RssSampler {
  let workerPeak = 0;
  let browserPeak = 0;
  let totalPeak = 0;
  /** Every process carrying the marker, whatever its kind: the run's whole memory. */
  const marked = new Set<string>();
  let supported = true;
  const kinds = new Map<string, ProcessKind>();
  const kindOf = async (pid: string): Promise<ProcessKind> => {
    const known = kinds.get(pid);
    if (known) return known;
    const env = await readText(`/proc/${pid}/environ`);
    if (env?.includes(marker)) marked.add(pid);
    const kind = processKind(env, env?.includes(marker) ? ((await readText(`/proc/${pid}/cmdline`)) ?? '') : '', marker);
    // A process just forked shows its parent's command line until it execs, so a process of the run that is
    // not yet a worker or a browser is asked again; the run's processes all descend from one that had the marker.
    if (kind !== 'other' || !env?.includes(marker)) kinds.set(pid, kind);
    return kind;
  };
  const tick = async () => {
    const listed = await fs.readdir('/proc').catch(() => null);
    if (!listed) {
      supported = false;
      return;
    }
    const pids = new Set(listed.filter((p) => /^\d+$/.test(p)));
    // A pid that is gone may come back as another process.
    for (const pid of kinds.keys()) if (!pids.has(pid)) kinds.delete(pid);
    for (const pid of marked) if (!pids.has(pid)) marked.delete(pid);
    let browser = 0;
    let total = 0;
    for (const pid of pids) {
      const kind = await kindOf(pid);
      if (kind === 'other' && !marked.has(pid)) continue;
      const status = await readText(`/proc/${pid}/status`);
      if (!status) continue;
      total += kb(status, 'VmRSS');
      if (kind === 'other') continue;
      if (kind === 'browser') browser += kb(status, 'VmRSS');
      else workerPeak = Math.max(workerPeak, kb(status, 'VmHWM'));
    }
    browserPeak = Math.max(browserPeak, browser);
    totalPeak = Math.max(totalPeak, total);
  };
  let busy = Promise.resolve();
  const timer = setInterval(() => {
    busy = busy.then(tick);
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await busy;
      const mb = (k: number) => (supported && k > 0 ? Math.round(k / 1024) : null);
      return { workerPeakMb: mb(workerPeak), browserPeakMb: mb(browserPeak), totalPeakMb: mb(totalPeak) };
    },
  };
}
