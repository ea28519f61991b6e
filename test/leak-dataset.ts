import { promises as fs } from 'node:fs';
import path from 'node:path';
import { mutateDataset } from '../personas/mutate.js';
import { loadBuiltinTasks } from '../slots/builtin-loader.js';
import { buildDataset } from '../slots/load.js';

/**
 * A small dataset for the leak test's model paths: two built-in tasks through every
 * persona, written as `iwb personas mutate --offline` writes a dataset. What those tests claim (a refused
 * json_schema still measures, errored turns are counted apart and weighed against --max-errored) holds per
 * case and per turn; each case costs about half a second of CPU through the fake server, so the 96 built-in
 * cases made these tests the longest of the unit tier (issue #33). The offline battery over every built-in
 * case, whose rates are the claim, stays in personas-cli.test.ts.
 */
export const LEAK_TASKS = ['bakery-menu', 'tip-calculator'];

export async function leakDataset(dir: string): Promise<string> {
  const tasks = (await loadBuiltinTasks()).filter((t) => LEAK_TASKS.includes(t.id));
  if (tasks.length !== LEAK_TASKS.length) throw new Error(`leak dataset: built-in tasks ${LEAK_TASKS.join(', ')} expected, found ${tasks.map((t) => t.id).join(', ')}`);
  const { records } = await mutateDataset(buildDataset('builtin', 'builtin', tasks), { seed: 0 });
  const file = path.join(dir, 'leak-two-tasks.jsonl');
  await fs.writeFile(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}
