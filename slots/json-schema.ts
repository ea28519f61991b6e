import { z } from 'zod';
import { VariantsFileSchema } from './variants.js';
import { BuiltinTaskFileSchema } from './builtin-schema.js';
import { JsonlCaseSchema } from './jsonl-loader.js';

/**
 * JSON Schemas of the dataset formats for editors, generated from the zod schemas the loaders use (the
 * zod schemas stay the one definition). Refinements zod cannot express in JSON Schema (a probe needs an
 * expectation, a target needs a locator) are still checked by the loaders. `test/json-schema.test.ts`
 * fails when the committed files in schemas/ drift from these.
 */
export const SCHEMA_DIR = 'schemas';

const describe = (schema: z.ZodType, file: string, title: string, description: string) => ({
  $id: `https://interactweb-bench.local/${SCHEMA_DIR}/${file}`,
  title,
  description,
  ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
});

export function datasetJsonSchemas(): Record<string, unknown> {
  return {
    'task.schema.json': describe(BuiltinTaskFileSchema, 'task.schema.json', 'Built-in task', 'tasks/<id>/task.json: a task with its gold instruction, persona instructions and slots with probes.'),
    'record.schema.json': describe(JsonlCaseSchema, 'record.schema.json', 'Dataset record', 'One line of a JSONL dataset in the public InteractWeb-Bench format: one case (task x persona).'),
    'variants.schema.json': describe(VariantsFileSchema, 'variants.schema.json', 'Broken variants', 'tasks/<id>/variants.json: edits that break the reference site and the slots they break.'),
  };
}

export const schemaText = (schema: unknown): string => JSON.stringify(schema, null, 2) + '\n';
