import { createHash } from 'node:crypto';
import { writeAtomicSync } from '../protocol/atomic-write.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { difficultyPartition, type Partition } from './difficulty.js';
import { DIFFICULTIES } from './schema.js';

export type Partitioner = (values: readonly number[]) => Partition;

const MemoSchema = z.object({
  values: z.array(z.number()),
  partition: z.object({ labels: z.array(z.enum(DIFFICULTIES)), centroids: z.array(z.number()), sse: z.number() }),
});

/**
 * The difficulty partition, remembered on disk by the weights it was computed from. Every Playwright
 * worker loads the dataset, and a worker restarts after every failed slot; clustering again (with
 * ml-kmeans and its 260 modules to load) cost about 0.5 s of each restart, measured. The partition is a
 * pure function of the values, so a file named by their hash holding the values themselves is safe to
 * reuse; a file that does not parse or does not match is computed again and rewritten. It lives in the
 * system's temporary folder, not the run folder, whose top level belongs to agents' episodes.
 */
export function memoisedPartition(dir = path.join(os.tmpdir(), 'iwb-memo')): Partitioner {
  return (values) => {
    const file = path.join(dir, `difficulty-${createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 24)}.json`);
    try {
      const memo = MemoSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (memo.success && memo.data.partition.labels.length === values.length && memo.data.values.every((v, i) => v === values[i])) return memo.data.partition;
    } catch {
      // missing or torn: compute it
    }
    const partition = difficultyPartition(values);
    try {
      fs.mkdirSync(dir, { recursive: true });
      writeAtomicSync(file, JSON.stringify({ values, partition }));
    } catch {
      // a read-only folder only costs the next worker the clustering
    }
    return partition;
  };
}
