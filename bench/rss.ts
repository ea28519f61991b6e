import { promises as fs } from 'node:fs';

/**
 * Peak resident memory of a run's processes, read from /proc while it runs: VmHWM (the kernel's own
 * high-water mark) of every Playwright worker (its command line names Playwright's worker entry) and
 * the summed RSS of the Chromium processes. Linux only; elsewhere the figures are null.
 */
export interface RssSampler {
  stop(): Promise<{ workerPeakMb: number | null; browserPeakMb: number | null }>;
}

async function readText(file: string): Promise<string | null> {
  return fs.readFile(file, 'utf8').catch(() => null);
}

const kb = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);

export function sampleRss(marker: string, everyMs = 250): RssSampler {
  let workerPeak = 0;
  let browserPeak = 0;
  let supported = true;
  const tick = async () => {
    const pids = await fs.readdir('/proc').catch(() => null);
    if (!pids) {
      supported = false;
      return;
    }
    let browser = 0;
    for (const pid of pids.filter((p) => /^\d+$/.test(p))) {
      const env = await readText(`/proc/${pid}/environ`);
      if (!env?.includes(marker)) continue;
      const status = await readText(`/proc/${pid}/status`);
      if (!status) continue;
      const cmd = (await readText(`/proc/${pid}/cmdline`)) ?? '';
      if (/chrom/i.test(cmd)) browser += kb(status, 'VmRSS');
      else if (/playwright.*worker/i.test(cmd)) workerPeak = Math.max(workerPeak, kb(status, 'VmHWM'));
    }
    browserPeak = Math.max(browserPeak, browser);
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
      return { workerPeakMb: mb(workerPeak), browserPeakMb: mb(browserPeak) };
    },
  };
}
