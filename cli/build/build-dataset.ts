import type { ModelClient } from '../../llm/client.js';
import { describeError, InfraError } from '../../llm/errors.js';
import { mutateDataset, type MutatedRecord } from '../../personas/mutate.js';
import { decomposeTest } from './decompose.js';
import { difficultyPartition } from '../../slots/difficulty.js';
import { DatasetError, zodToDatasetError } from '../../slots/errors.js';
import { parseJsonlLine, readJsonlLines } from '../../slots/jsonl-lines.js';
import type { Slot, Task } from '../../slots/schema.js';
import { offlineSlots, webgenTask, WebgenRecordSchema, type WebgenRecord } from '../../slots/webgen.js';
import { slotWeights, totalWeight } from '../../slots/weights.js';

/**
 * `iwb dataset build --from webgen`: WebGen-Bench records in, a dataset in the public InteractWeb-Bench
 * format out. Slots per UI test case (the operator model, or one per test offline), the generic NEGATIVE
 * slot, weights and difficulty computed here, persona instructions and degradation records by the persona
 * operators. Every record says which parts a model made (`build`), so an offline build is never mistaken
 * for the published one.
 */
export interface BuildOptions {
  seed: number;
  operator?: ModelClient;
  /** Where model decompositions are cached. */
  cacheDir: string;
}

export interface BuiltRecord extends MutatedRecord {
  ui_instruct: WebgenRecord['ui_instruct'];
  build: { source: string; slots: 'offline' | 'model' | 'model-and-offline'; operator: string | null };
}

export interface BuildResult {
  records: BuiltRecord[];
  /** Tests whose decomposition failed with the model and were made offline instead. */
  errors: string[];
  /** Parts the model was asked for (each test's decomposition, each record's persona instruction); 0 offline. */
  modelParts: number;
  tasks: number;
}

export async function readWebgen(file: string): Promise<WebgenRecord[]> {
  const out: WebgenRecord[] = [];
  for (const line of await readJsonlLines(file)) {
    const raw = parseJsonlLine(file, line);
    const parsed = WebgenRecordSchema.safeParse(raw);
    if (!parsed.success) throw zodToDatasetError(parsed.error, file, line.lineNo, typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined);
    out.push(parsed.data);
  }
  if (out.length === 0) throw new DatasetError(file, undefined, undefined, undefined, 'no records');
  return out;
}

export async function buildFromWebgen(file: string, opts: BuildOptions): Promise<BuildResult> {
  const recs = await readWebgen(file);
  const errors: string[] = [];
  const made = new Map<string, Set<'offline' | 'model'>>();
  const tasks: Task[] = [];
  for (const [i, rec] of recs.entries()) {
    const how = new Set<'offline' | 'model'>();
    const perTest: Omit<Slot, 'id'>[][] = [];
    for (const test of rec.ui_instruct) {
      if (!opts.operator) {
        perTest.push(offlineSlots(test));
        how.add('offline');
        continue;
      }
      try {
        perTest.push(await decomposeTest(opts.operator, rec, test, opts.cacheDir));
        how.add('model');
      } catch (e) {
        // A dead endpoint must stop the build, not quietly turn it offline.
        if (e instanceof InfraError) throw e;
        errors.push(`${rec.id} "${test.task.slice(0, 60)}": ${describeError(e)}`);
        perTest.push(offlineSlots(test));
        how.add('offline');
      }
    }
    tasks.push(webgenTask(rec, perTest, `${file}:${i + 1}`));
    made.set(rec.id, how);
  }
  // Weights and difficulty are computed and stored, as the public release stores them.
  const partition = difficultyPartition(tasks.map((t) => totalWeight(t.slots)));
  tasks.forEach((t, i) => {
    const w = slotWeights(t.slots);
    t.slots = t.slots.map((s, j) => ({ ...s, storedWeight: Math.round(w[j]! * 1e4) / 1e4 }));
    t.storedDifficulty = partition.labels[i]!;
  });
  const { records, errors: personaErrors } = await mutateDataset({ name: 'webgen', source: file, tasks, cases: [] }, { seed: opts.seed, ...(opts.operator ? { operator: opts.operator } : {}) });
  const byId = new Map(recs.map((r) => [r.id, r]));
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  return {
    tasks: tasks.length,
    errors: [...errors, ...personaErrors],
    modelParts: opts.operator ? recs.reduce((n, r) => n + r.ui_instruct.length, 0) + records.length : 0,
    records: records.map((r) => {
      const how = made.get(r.original_id)!;
      const slots = taskById.get(r.original_id)!.slots;
      return {
        ...r,
        application_type: byId.get(r.original_id)!.application_type ?? r.application_type,
        oracle_slots: r.oracle_slots.map((s, j) => ({ ...s, ...(slots[j]!.testCategory ? { test_category: slots[j]!.testCategory } : {}) })),
        ui_instruct: byId.get(r.original_id)!.ui_instruct,
        build: { source: `webgen:${r.original_id}`, slots: how.size === 2 ? 'model-and-offline' : how.has('model') ? 'model' : 'offline', operator: opts.operator?.model ?? null },
      };
    }),
  };
}
