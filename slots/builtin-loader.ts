import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BuiltinTaskFileSchema } from './builtin-schema.js';
import { DatasetError, zodToDatasetError } from './errors.js';
import { PERSONAS, type Task } from './schema.js';

export const BUILTIN_TASKS_DIR = fileURLToPath(new URL('../tasks/', import.meta.url));

/** Loads every `<dir>/<id>/task.json`; the folder name must equal the task's id. */
export async function loadBuiltinTasks(dir = BUILTIN_TASKS_DIR): Promise<Task[]> {
  const entries = (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const tasks: Task[] = [];
  for (const name of entries) {
    const file = path.join(dir, name, 'task.json');
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.readFile(file, 'utf8'));
    } catch (e) {
      throw new DatasetError(file, undefined, name, undefined, `cannot read task file (${(e as Error).message})`);
    }
    const parsed = BuiltinTaskFileSchema.safeParse(raw);
    if (!parsed.success) throw zodToDatasetError(parsed.error, file, undefined, name);
    const t = parsed.data;
    if (t.id !== name) throw new DatasetError(file, undefined, name, 'id', `id "${t.id}" differs from its folder name "${name}"`);
    const site = path.join(dir, name, 'site');
    const hasSite = await fs.stat(path.join(site, 'index.html')).then(() => true, () => false);
    tasks.push({
      id: t.id,
      title: t.title,
      category: t.category,
      goldInstruction: t.gold_instruction,
      storedDifficulty: t.difficulty,
      ...(hasSite ? { referenceSite: site } : {}),
      source: file,
      slots: t.slots.map((s) => ({
        id: s.id,
        task: s.task,
        expectedResult: s.expected_result,
        targetComponent: s.target_component,
        assertionType: s.assertion_type,
        cTech: s.c_tech,
        probe: s.probe,
      })),
      personas: Object.fromEntries(
        PERSONAS.map((p) => {
          const { instruction, ...degradation } = t.personas[p];
          return [p, { instruction, degradation }];
        }),
      ),
    });
  }
  if (tasks.length === 0) throw new DatasetError(dir, undefined, undefined, undefined, 'no task folders found');
  return tasks;
}
