import path from 'node:path';
import { loadBuiltinTasks } from './builtin-loader.js';
import { difficultyPartition } from './difficulty.js';
import type { Partitioner } from './difficulty-memo.js';
import { DatasetError } from './errors.js';
import { loadJsonlTasks } from './jsonl-loader.js';
import { PERSONAS, type Case, type Dataset, type Task } from './schema.js';
import { slotWeights, totalWeight } from './weights.js';

/** Builds cases from tasks: weights computed, difficulty stored or clustered, every persona a case. */
export function buildDataset(name: string, source: string, tasks: Task[], partitioner: Partitioner = difficultyPartition): Dataset {
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.id)) throw new DatasetError(t.source, undefined, t.id, 'id', 'duplicate task id');
    seen.add(t.id);
    checkSlots(t);
  }
  const partition = tasks.every((t) => t.storedDifficulty) ? undefined : partitioner(tasks.map((t) => totalWeight(t.slots)));
  const cases: Case[] = [];
  tasks.forEach((task, i) => {
    const weights = slotWeights(task.slots);
    const slots = task.slots.map((s, j) => ({ ...s, weight: weights[j]! }));
    for (const persona of PERSONAS) {
      const view = task.personas[persona];
      if (!view) continue;
      cases.push({
        id: `${task.id}_${persona}`,
        taskId: task.id,
        persona,
        instruction: view.instruction,
        difficulty: task.storedDifficulty ?? partition!.labels[i]!,
        difficultySource: task.storedDifficulty ? 'stored' : 'computed',
        slots,
        task,
      });
    }
  });
  return { name, source, tasks, cases };
}

function checkSlots(t: Task): void {
  const ids = new Set<string>();
  for (const s of t.slots) {
    if (ids.has(s.id)) throw new DatasetError(t.source, undefined, t.id, `slots.${s.id}`, 'duplicate slot id');
    ids.add(s.id);
  }
  for (const [persona, view] of Object.entries(t.personas)) {
    for (const kind of ['omits', 'blurs', 'contradicts'] as const) {
      for (const id of view?.degradation?.[kind] ?? []) {
        if (!ids.has(id)) throw new DatasetError(t.source, undefined, t.id, `personas.${persona}.${kind}`, `names unknown slot "${id}"`);
      }
    }
  }
}

/** `builtin` or a path to a JSONL file in the public release's format. */
export async function loadDataset(source: string, cwd = process.cwd(), partitioner?: Partitioner): Promise<Dataset> {
  if (source === 'builtin') return buildDataset('builtin', 'builtin', await loadBuiltinTasks(), partitioner);
  const file = path.resolve(cwd, source);
  if (!file.endsWith('.jsonl')) {
    throw new DatasetError(file, undefined, undefined, undefined, 'expected "builtin" or a .jsonl file (IWB_DATASET)');
  }
  return buildDataset(path.basename(file, '.jsonl'), file, await loadJsonlTasks(file), partitioner);
}
