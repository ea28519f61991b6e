import type { ModelClient } from '../llm/client.js';
import { describeError, InfraError } from '../llm/errors.js';
import { PERSONAS, type Dataset, type Persona, type Task } from '../slots/schema.js';
import { llmDegrade } from './llm-operator.js';
import { degradeOffline } from './operators.js';
import type { DegradedInstruction } from './types.js';

/**
 * Re-derives every persona instruction of a dataset from its gold instruction and writes records in the
 * public release's JSONL shape (plus `degradation`), so the result loads with `loadDataset` like any other.
 */
export interface MutatedRecord {
  id: string;
  original_id: string;
  persona: Persona;
  instruction: string;
  ground_truth_instruction: string;
  application_type: string;
  Category: { primary_category: string };
  difficulty?: string;
  oracle_slots: Array<Record<string, unknown>>;
  degradation: { omits: string[]; blurs: string[]; contradicts: string[] };
  mutation: { method: 'offline' | 'llm' | 'offline-after-llm-error'; seed: number; error?: string };
}

export interface MutateOptions {
  seed: number;
  /** The `operator` role's client; without it every record is made offline. */
  operator?: ModelClient;
  personas?: readonly Persona[];
}

function record(task: Task, persona: Persona, d: DegradedInstruction, mutation: MutatedRecord['mutation']): MutatedRecord {
  return {
    id: `${task.id}_${persona}`,
    original_id: task.id,
    persona,
    instruction: d.instruction,
    ground_truth_instruction: task.goldInstruction,
    application_type: task.title,
    Category: { primary_category: task.category },
    ...(task.storedDifficulty ? { difficulty: task.storedDifficulty } : {}),
    oracle_slots: task.slots.map((s) => ({
      id: s.id,
      original_task: s.task,
      expected_result: s.expectedResult,
      target_component: s.targetComponent,
      assertion_type: s.assertionType,
      c_tech: s.cTech,
      ...(s.probe ? { probe: s.probe } : {}),
      ...(s.storedWeight !== undefined ? { final_weight: s.storedWeight } : {}),
    })),
    degradation: { omits: d.omits, blurs: d.blurs, contradicts: d.contradicts },
    mutation,
  };
}

export async function mutateDataset(ds: Dataset, options: MutateOptions): Promise<{ records: MutatedRecord[]; errors: string[] }> {
  const records: MutatedRecord[] = [];
  const errors: string[] = [];
  for (const task of ds.tasks) {
    for (const persona of options.personas ?? PERSONAS) {
      if (!options.operator) {
        records.push(record(task, persona, degradeOffline(task, persona, options.seed), { method: 'offline', seed: options.seed }));
        continue;
      }
      try {
        const r = await llmDegrade(options.operator, task, persona);
        if (r.ok) {
          records.push(record(task, persona, r.value, { method: 'llm', seed: options.seed }));
          continue;
        }
        throw r.error;
      } catch (e) {
        // An endpoint that is down would turn the whole dataset offline without anyone noticing: stop instead.
        if (e instanceof InfraError) throw e;
        // One bad reply must not sink a whole dataset: that record is made offline and marked as such.
        const error = describeError(e);
        errors.push(`${task.id} ${persona}: ${error}`);
        records.push(record(task, persona, degradeOffline(task, persona, options.seed), { method: 'offline-after-llm-error', seed: options.seed, error }));
      }
    }
  }
  return { records, errors };
}
