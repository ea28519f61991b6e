import { checkDataset, type DatasetCheck } from '../slots/check.js';
import { loadDataset } from '../slots/load.js';
import { parseArgs, UsageError, type CliIo } from './io.js';

export async function datasetCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(args, { boolean: ['json'] });
  const [sub, source] = positional;
  if (sub !== 'check' || !source) throw new UsageError('usage: iwb dataset check <path.jsonl | builtin> [--json]');
  const report = checkDataset(await loadDataset(source));
  io.out(flags.has('json') ? JSON.stringify(report, null, 2) : describe(report));
  return report.weightMismatches.length === 0 ? 0 : 1;
}

function describe(r: DatasetCheck): string {
  const a = r.difficultyAgreement;
  const lines = [
    `dataset   ${r.dataset}`,
    `tasks     ${r.tasks}   cases ${r.cases}   slots ${r.slots} (${r.positiveSlots} positive, ${r.negativeSlots} negative, ${r.slotsWithProbe} with a probe)`,
    `weights   ${r.weightsStored === 0 ? 'none stored' : `${r.weightsStored - r.weightMismatches.length}/${r.weightsStored} stored weights agree with the computed ones`}`,
    ...r.weightMismatches.slice(0, 20).map((m) => `          task ${m.task} slot ${m.slot}: stored ${m.stored}, computed ${m.computed}`),
    `k-means   centroids ${r.centroids.join(' / ')}; SSE ${r.sse.computed} (exact 1-D optimum ${r.sse.optimum})`,
    `computed  easy ${r.difficultyCounts.computed.easy}, middle ${r.difficultyCounts.computed.middle}, hard ${r.difficultyCounts.computed.hard}`,
  ];
  if (r.difficultyCounts.stored) {
    const s = r.difficultyCounts.stored;
    lines.push(`stored    easy ${s.easy}, middle ${s.middle}, hard ${s.hard}; SSE of the stored partition ${r.sse.stored}`);
  }
  if (a.of > 0) {
    lines.push(`agreement ${a.agree}/${a.of} tasks (stored->computed: ${Object.entries(a.confusion).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    lines.push('          stored labels are authoritative for step caps and tables');
  }
  return lines.join('\n');
}
