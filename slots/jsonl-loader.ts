import { z } from 'zod';
import { ProbeSchema } from './probe-schema.js';
import { AssertionTypeSchema, DegradationSchema, DifficultySchema, PersonaSchema, type Persona, type Slot, type Task } from './schema.js';
import { DatasetError, zodToDatasetError } from './errors.js';
import { parseJsonlLine, readJsonlLines } from './jsonl-lines.js';

/**
 * The public InteractWeb-Bench release: one JSON object per case (task x persona). Fields beyond these
 * (ui_instruct, evaluation_checklist, ...) are kept out of the way, not rejected. `id`, `probe` and
 * `degradation` are this project's optional extensions, so a researcher's own JSONL can carry them.
 */
const JsonlSlotSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_.-]+$/).optional(),
  original_task: z.string().min(1),
  expected_result: z.string().min(1),
  target_component: z.string().min(1),
  assertion_type: AssertionTypeSchema,
  c_tech: z.number().refine((n) => n === 1 || n === 2 || n === 3, 'c_tech must be 1, 2 or 3'),
  final_weight: z.number().optional(),
  probe: ProbeSchema.optional(),
  /** This project's extension: the WebGen-Bench test category, where the slot's text is not the test's own. */
  test_category: z.string().optional(),
});

export const JsonlCaseSchema = z.looseObject({
  id: z.string().min(1),
  original_id: z.string().min(1),
  persona: PersonaSchema,
  instruction: z.string().min(1),
  ground_truth_instruction: z.string().min(1),
  application_type: z.string().optional(),
  Category: z.looseObject({ primary_category: z.string() }).optional(),
  difficulty: DifficultySchema.optional(),
  oracle_slots: z.array(JsonlSlotSchema).min(1),
  degradation: DegradationSchema.optional(),
  ui_instruct: z.array(z.looseObject({ task: z.string(), task_category: z.looseObject({ primary_category: z.string() }).optional() })).optional(),
});
type JsonlCase = z.infer<typeof JsonlCaseSchema>;

export async function loadJsonlTasks(file: string): Promise<Task[]> {
  const tasks = new Map<string, { task: Task; firstLine: number; fingerprint: string }>();
  const seenCases = new Map<string, number>();
  for (const line of await readJsonlLines(file)) {
    const { lineNo } = line;
    const raw = parseJsonlLine(file, line);
    const recordId = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined;
    const parsed = JsonlCaseSchema.safeParse(raw);
    if (!parsed.success) throw zodToDatasetError(parsed.error, file, lineNo, recordId);
    const rec = parsed.data;
    const earlier = seenCases.get(rec.id);
    if (earlier !== undefined) throw new DatasetError(file, lineNo, rec.id, 'id', `duplicate case id (first on line ${earlier})`);
    seenCases.set(rec.id, lineNo);

    const slots = toSlots(rec, file, lineNo);
    const fingerprint = JSON.stringify([rec.ground_truth_instruction, slots, rec.difficulty ?? null]);
    let entry = tasks.get(rec.original_id);
    if (!entry) {
      entry = {
        firstLine: lineNo,
        fingerprint,
        task: {
          id: rec.original_id,
          title: rec.application_type ?? rec.original_id,
          category: rec.Category?.primary_category ?? 'Uncategorised',
          goldInstruction: rec.ground_truth_instruction,
          slots,
          storedDifficulty: rec.difficulty,
          personas: {},
          source: `${file}:${lineNo}`,
        },
      };
      tasks.set(rec.original_id, entry);
    } else if (entry.fingerprint !== fingerprint) {
      throw new DatasetError(file, lineNo, rec.id, 'ground_truth_instruction / oracle_slots / difficulty',
        `differs from the same task's record on line ${entry.firstLine}; every persona of a task must share its gold instruction, slots and difficulty`);
    }
    if (entry.task.personas[rec.persona as Persona]) {
      throw new DatasetError(file, lineNo, rec.id, 'persona', `task ${rec.original_id} already has a ${rec.persona} case`);
    }
    entry.task.personas[rec.persona as Persona] = { instruction: rec.instruction, degradation: rec.degradation };
  }
  if (tasks.size === 0) throw new DatasetError(file, undefined, undefined, undefined, 'the dataset has no records');
  return [...tasks.values()].map((e) => e.task);
}

function toSlots(rec: JsonlCase, file: string, lineNo: number): Slot[] {
  const ids = new Set<string>();
  // A slot decomposes one WebGen-Bench UI test; its test category is joined on the test's text.
  const testCategory = new Map((rec.ui_instruct ?? []).flatMap((u) => (u.task_category ? [[u.task, u.task_category.primary_category] as const] : [])));
  return rec.oracle_slots.map((s, i) => {
    const id = s.id ?? `s${i + 1}`;
    if (ids.has(id)) throw new DatasetError(file, lineNo, rec.id, `oracle_slots[${i}].id`, `duplicate slot id ${id}`);
    ids.add(id);
    return {
      id,
      task: s.original_task,
      expectedResult: s.expected_result,
      targetComponent: s.target_component,
      assertionType: s.assertion_type,
      cTech: s.c_tech as 1 | 2 | 3,
      ...(s.probe ? { probe: s.probe } : {}),
      ...(s.final_weight !== undefined ? { storedWeight: s.final_weight } : {}),
      ...(s.test_category ? { testCategory: s.test_category } : testCategory.has(s.original_task) ? { testCategory: testCategory.get(s.original_task)! } : {}),
    };
  });
}
