import path from 'node:path';
import { BUILTIN_TASKS_DIR } from '../slots/builtin-loader.js';
import { checkDataset, type DatasetCheck } from '../slots/check.js';
import { loadDataset } from '../slots/load.js';
import { rawCheckBuiltin, rawCheckJsonl, type RawFinding } from '../slots/raw-check.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';
import { EXIT_CODES } from '../launch/start.js';

export async function datasetCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv()): Promise<number> {
  const sub = args[0];
  if (sub === 'build') return (await import('./dataset-build.js')).buildCommand(args.slice(1), io, env);
  if (sub === 'schema') return (await import('./dataset-schema.js')).schemaCommand(args.slice(1), io);
  if (sub === 'fetch') return (await import('./dataset-fetch.js')).fetchCommand(args.slice(1), io, env);
  if (sub === 'split') return (await import('./dataset-split.js')).splitCommand(args.slice(1), io);
  if (sub !== 'check') throw new UsageError(usageOf('dataset'));
  const { positional, flags } = parseCommand(args.slice(1), 'dataset', 'check');
  const [source] = positional;
  if (!source || positional.length > 1) throw new UsageError(usageOf('dataset', 'check'));
  // Duplicates and slots without a target component are listed in full first: the strict loader stops at the first.
  const raw = source === 'builtin' ? await rawCheckBuiltin(BUILTIN_TASKS_DIR) : await rawCheckJsonl(path.resolve(source)).catch(() => []);
  if (raw.length) {
    io.out(flags.has('json') ? JSON.stringify({ dataset: source, errors: raw }, null, 2) : describeRaw(raw));
    // The loader refuses the same file (a run exits with this code too); the raw check only lists every problem at once.
    return EXIT_CODES.dataset;
  }
  const report = checkDataset(await loadDataset(source));
  io.out(flags.has('json') ? JSON.stringify({ ...report, errors: [] }, null, 2) : describe(report));
  return report.weightMismatches.length === 0 ? 0 : EXIT_CODES.failed;
}

function describeRaw(raw: RawFinding[]): string {
  return [`${raw.length} problem(s) to fix before the dataset can load:`, ...raw.slice(0, 50).map((f) => `  ${f.where}${f.record ? ` record ${f.record}` : ''} field ${f.field}: ${f.kind}: ${f.message}`)].join('\n');
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
  const l = r.lint;
  lines.push(
    `duplicates none; every slot has a target component`,
    `negative  ${l.tasksWithoutNegative.length ? `${l.tasksWithoutNegative.length} task(s) without a NEGATIVE slot: ${l.tasksWithoutNegative.slice(0, 10).join(', ')}` : 'every task has a NEGATIVE slot'}`,
    `personas  ${l.personaEqualsGold.length ? `${l.personaEqualsGold.length} persona instruction(s) identical to the gold one: ${l.personaEqualsGold.slice(0, 10).map((p) => `${p.task} ${p.persona}`).join(', ')}` : 'no persona instruction equals the gold one'}`,
    `facts     ${l.goldFacts.tested}/${l.goldFacts.found} gold facts (colours, numbers, quoted labels) tested by some slot`,
    ...l.untestedGoldFacts.slice(0, 15).map((u) => `          ${u.task}: untested ${u.facts.map((f) => `${f.kind} ${JSON.stringify(f.text)}`).join(', ')}`),
  );
  if (l.untestedGoldFacts.length > 15) lines.push(`          ... and ${l.untestedGoldFacts.length - 15} more tasks (--json lists all)`);
  return lines.join('\n');
}
