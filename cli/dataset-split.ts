import { compareGroupKeys } from '../reporters/group-order.js';
import { loadDataset } from '../slots/load.js';
import { datasetSplits } from '../slots/split.js';
import { parseCommand, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';

/** `iwb dataset split <dataset> [--json]`: which tasks are dev and which hold-out, with the strata counts. */
export async function splitCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseCommand(args, 'dataset', 'split');
  const source = positional[0];
  if (!source) throw new UsageError(usageOf('dataset', 'split'));
  const d = await loadDataset(source);
  const splits = datasetSplits(d);
  const difficulty = new Map(d.cases.map((c) => [c.taskId, c.difficulty]));
  const rows = d.tasks.map((t) => ({ task: t.id, split: splits.get(t.id)!, difficulty: difficulty.get(t.id)!, category: t.category }));
  if (flags.has('json')) {
    io.out(JSON.stringify({ dataset: d.source, tasks: rows }, null, 2));
    return 0;
  }
  const strata = new Map<string, { dev: number; holdout: number }>();
  for (const r of rows) {
    const k = `${r.difficulty}/${r.category}`;
    const s = strata.get(k) ?? { dev: 0, holdout: 0 };
    s[r.split]++;
    strata.set(k, s);
  }
  const holdout = rows.filter((r) => r.split === 'holdout');
  io.out(
    [
      `dataset ${d.source}: ${rows.length - holdout.length} dev, ${holdout.length} hold-out tasks (IWB_SPLIT=dev|holdout|all)`,
      ...[...strata.entries()].sort(([a], [b]) => compareGroupKeys(a, b)).map(([k, s]) => `  ${k.replace('/', ' / ').padEnd(36)} dev ${s.dev}  hold-out ${s.holdout}`),
      `hold-out: ${holdout.map((r) => r.task).join(', ')}`,
    ].join('\n'),
  );
  return 0;
}
