import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ModelClient } from '../../llm/client.js';
import type { Slot } from '../../slots/schema.js';
import type { WebgenRecord, WebgenTest } from '../../slots/webgen.js';

/**
 * The model path of `dataset build`: the `operator` model splits one WebGen-Bench UI test case into 1-3
 * atomic slots (zod-validated structured output, fed back and retried by the client when it does not fit).
 * Replies are cached on disk by model, prompt and test, so a rebuild costs nothing and gives the same file.
 */
const PROMPT_FILE = fileURLToPath(new URL('./prompts/decompose.md', import.meta.url));

export const DecompositionSchema = z.object({
  slots: z
    .array(
      z.object({
        task: z.string().min(1),
        expected_result: z.string().min(1),
        target_component: z.string().min(1).regex(/^[A-Za-z0-9_]+$/, 'Title_Case_With_Underscores'),
        c_tech: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      }),
    )
    .min(1)
    .max(3),
});
type Decomposition = z.infer<typeof DecompositionSchema>;

export async function decomposeTest(client: ModelClient, rec: WebgenRecord, test: WebgenTest, cacheDir: string): Promise<Omit<Slot, 'id'>[]> {
  const system = (await fs.readFile(PROMPT_FILE, 'utf8')).replace('{{instruction}}', rec.instruction);
  const user = `Test case: ${test.task}\nExpected result: ${test.expected_result}\nTest category: ${test.task_category.primary_category}`;
  const key = createHash('sha256').update(JSON.stringify([client.model, system, user])).digest('hex').slice(0, 32);
  const file = path.join(cacheDir, `${key}.json`);
  let value: Decomposition | null = await fs
    .readFile(file, 'utf8')
    .then((t) => DecompositionSchema.parse(JSON.parse(t)))
    .catch(() => null);
  if (!value) {
    const r = await client.structured([{ role: 'system', content: system }, { role: 'user', content: user }], DecompositionSchema, 'slot_decomposition');
    if (!r.ok) throw r.error;
    value = r.value;
    await fs.mkdir(cacheDir, { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    await fs.writeFile(tmp, JSON.stringify(value));
    await fs.rename(tmp, file);
  }
  return value.slots.map((s) => ({
    task: s.task,
    expectedResult: s.expected_result,
    targetComponent: s.target_component,
    assertionType: 'POSITIVE' as const,
    cTech: s.c_tech,
    testCategory: test.task_category.primary_category,
  }));
}
