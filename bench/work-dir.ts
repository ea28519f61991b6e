import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { RunFiguresSchema, type RunFigures } from './summary.js';

/**
 * The bench's working folder: the dataset slice, each run's call cache, run folder and report, and each run's
 * figures. A temporary one is removed at the end; one named with `--work <dir>` is kept, so a later invocation
 * can replay a recording (`--replay-only`) and bench.json gathers every run the folder holds. A full-size run
 * takes over an hour, so the runs of one bench may come from separate invocations.
 */
export interface WorkDir {
  dir: string;
  /** The fake server's port: fixed for a kept folder, because recorded call keys include the base URL. */
  port: number | undefined;
  saveFigures(run: RunFigures): Promise<void>;
  /** Every run's figures the folder holds: recordings by worker count, then replays. */
  allFigures(): Promise<RunFigures[]>;
  recordingDir(workers: number): string;
  /**
   * The recording a replay at `workers` reads: the one made at that many workers, else the folder's only one
   * (a replay's requests do not depend on the worker count, so a 1-worker recording can be replayed at 2).
   */
  recordingToReplay(workers: number): Promise<{ dir: string; workers: number }>;
  /**
   * A run's folders, emptied first: a recording starts from an empty call cache and run folder (or it would
   * reuse the episodes and calls of an earlier invocation), a replay from an empty run folder.
   */
  freshRun(kind: RunFigures['kind'], workers: number): Promise<{ runDir: string; reportDir: string; calls: string }>;
  /** Every run a kept folder gathers must be of one dataset slice: the first invocation's is kept, a different one refused. */
  checkDataset(slice: DatasetSlice): Promise<void>;
  close(): Promise<void>;
}

const DatasetSliceSchema = z.object({ file: z.string(), cases: z.number().int(), slots: z.number().int() });
export type DatasetSlice = z.infer<typeof DatasetSliceSchema>;

const PORT_FILE = 'fake-port';
const DATASET_FILE = 'dataset.json';

export async function openWorkDir(named: string | undefined): Promise<WorkDir> {
  const dir = named ? path.resolve(named) : await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-bench-'));
  await fs.mkdir(dir, { recursive: true });
  let port: number | undefined;
  if (named) {
    const text = await fs.readFile(path.join(dir, PORT_FILE), 'utf8').catch(() => undefined);
    port = text === undefined ? undefined : z.coerce.number().int().min(1).max(65535).parse(text.trim());
  }
  const recordingDir = (workers: number) => path.join(dir, `calls-${workers}`);
  const figuresFile = (r: Pick<RunFigures, 'kind' | 'workers'>) => path.join(dir, `figures-${r.kind}-${r.workers}.json`);
  const allFigures = async (): Promise<RunFigures[]> => {
    const names = (await fs.readdir(dir)).filter((n) => /^figures-(record|replay)-\d+\.json$/.test(n));
    const runs = await Promise.all(
      names.map(async (n) => {
        const file = path.join(dir, n);
        const parsed = RunFiguresSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
        if (!parsed.success) throw new Error(`bench: ${file} is not a run's figures: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
        return parsed.data;
      }),
    );
    return runs.sort((a, b) => (a.kind === b.kind ? a.workers - b.workers : a.kind === 'record' ? -1 : 1));
  };
  return {
    dir,
    port,
    async saveFigures(run) {
      await fs.writeFile(figuresFile(run), JSON.stringify(run, null, 2) + '\n');
    },
    allFigures,
    recordingDir,
    async recordingToReplay(workers) {
      const held = (await fs.readdir(dir)).filter((n) => /^calls-\d+$/.test(n)).sort();
      const own = `calls-${workers}`;
      const found = held.includes(own) ? own : held.length === 1 ? held[0]! : undefined;
      if (found) return { dir: path.join(dir, found), workers: Number(found.slice('calls-'.length)) };
      throw new Error(
        held.length === 0
          ? `bench: ${dir} holds no recording to replay (record one first: --no-replay --work ${dir})`
          : `bench: ${dir} holds recordings at ${held.map((n) => n.slice(6)).join(' and ')} workers, none at ${workers}: replay with --workers set to one of them`,
      );
    },
    async freshRun(kind, workers) {
      const runDir = path.join(dir, `runs-${kind}-${workers}`);
      const reportDir = path.join(dir, `report-${kind}-${workers}`);
      const calls = recordingDir(workers);
      for (const d of kind === 'record' ? [runDir, reportDir, calls] : [runDir, reportDir]) await fs.rm(d, { recursive: true, force: true });
      // A new recording outdates the replays of the one it replaces: their figures would be gathered beside it.
      if (kind === 'record') {
        for (const old of await allFigures()) {
          if (old.kind === 'replay' && (old.recordedWith ?? old.workers) === workers) await fs.rm(figuresFile(old), { force: true });
        }
      }
      return { runDir, reportDir, calls };
    },
    async checkDataset(slice) {
      const file = path.join(dir, DATASET_FILE);
      const text = await fs.readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) return fs.writeFile(file, JSON.stringify(slice) + '\n');
      const kept = DatasetSliceSchema.parse(JSON.parse(text));
      if (kept.file !== slice.file || kept.cases !== slice.cases || kept.slots !== slice.slots) {
        throw new Error(`bench: ${dir} holds runs of ${kept.cases} cases of ${kept.file}, not ${slice.cases} of ${slice.file}: use another --work folder, or the same --cases and --dataset`);
      }
    },
    async close() {
      if (!named) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Remember the port a kept folder's recordings were made against. */
export async function keepPort(work: WorkDir, port: number): Promise<void> {
  if (work.port === undefined) await fs.writeFile(path.join(work.dir, PORT_FILE), `${port}\n`);
}

/** The first `n` records of a JSONL dataset (whole tasks first: records of one task are adjacent). */
export async function slice(file: string, n: number | undefined, dir: string): Promise<DatasetSlice> {
  const text = await fs.readFile(file, 'utf8').catch(() => {
    throw new Error(`bench: cannot read the dataset ${file} (pass --dataset <file.jsonl>)`);
  });
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const kept = n === undefined ? lines : lines.slice(0, n);
  const out = path.join(dir, 'bench.jsonl');
  await fs.writeFile(out, kept.join('\n') + '\n');
  const slots = kept.reduce((sum, l) => sum + ((JSON.parse(l) as { oracle_slots?: unknown[] }).oracle_slots?.length ?? 0), 0);
  return { file: out, cases: kept.length, slots };
}
