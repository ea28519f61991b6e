/**
 * Runs jobs so that the weights of those running never add up to more than the capacity, starting them in the
 * order given: test/run.ts puts the longest files first, so a tier's last minutes are not one long file alone
 * on the machine. A job heavier than the capacity runs alone rather than never. The order is kept strictly (no
 * lighter job overtakes a heavier one waiting for room): a heavy job is not starved by a stream of light ones.
 */
export interface PoolJob {
  weight: number;
  run: () => Promise<void>;
}

export function runPool(jobs: readonly PoolJob[], capacity: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let next = 0;
    let used = 0;
    let running = 0;
    const fill = (): void => {
      while (next < jobs.length) {
        const job = jobs[next]!;
        const weight = Math.min(job.weight, capacity);
        if (running > 0 && used + weight > capacity) return;
        next += 1;
        used += weight;
        running += 1;
        job.run().then(() => {
          used -= weight;
          running -= 1;
          if (next === jobs.length && running === 0) resolve();
          else fill();
        }, reject);
      }
    };
    if (jobs.length === 0) resolve();
    else fill();
  });
}
