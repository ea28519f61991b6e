import { createHash } from 'node:crypto';

/**
 * A unit of this machine's CPU as it is at the moment: the time of a fixed piece of work (hashing and JSON,
 * the kind of work the harness does between model calls), sampled in the bench's own process while a run
 * goes on. On a shared machine every timing of the run stretches with the load; the same timing divided by
 * this unit stretches far less, which is what lets a committed baseline be compared at all.
 */
const BLOCK = Buffer.alloc(1 << 20, 7);
const DOC = { slots: Array.from({ length: 400 }, (_, i) => ({ id: `s${i}`, task: 'Click the button and read the total'.repeat(3), weight: i % 7 })) };

export function calibrationWork(): number {
  const t0 = performance.now();
  let h = createHash('sha256');
  for (let i = 0; i < 8; i++) h = h.update(BLOCK);
  h.digest();
  for (let i = 0; i < 20; i++) JSON.parse(JSON.stringify(DOC));
  return performance.now() - t0;
}

export interface CalibrationSampler {
  /** The median of the samples taken (at least one, taken now, if the run was too short for any). */
  stop(): number;
}

export function sampleCalibration(everyMs = 2000): CalibrationSampler {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(calibrationWork()), everyMs);
  return {
    stop() {
      clearInterval(timer);
      if (samples.length === 0) samples.push(calibrationWork());
      const sorted = samples.sort((a, b) => a - b);
      return Math.round(sorted[Math.floor(sorted.length / 2)]! * 100) / 100;
    },
  };
}
