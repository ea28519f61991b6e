/**
 * At most `size` works at once, first come first served. Model requests per endpoint (llm/limits.ts) and page
 * work per process (site/page-gate.ts) both take turns here.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** The most works that ever ran at once: what tests read. */
  peak = 0;

  constructor(readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await work();
    } finally {
      // The turn passes straight to the next in line: `active` counts it without a gap another caller could take.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
