import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ModelClient } from '../llm/client.js';
import type { Role } from '../config/roles.js';
import { checkCommandRoles, commandClients } from '../llm/run-clients.js';
import { UsageMeter } from '../llm/usage.js';
import { runLeakTest, type LeakTestReport } from '../personas/leak-test.js';
import { mutateDataset } from '../personas/mutate.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { degradationCacheDir, readSettings, userKind } from '../config/settings.js';
import { annotateDataset, annotationCounts, ensureDegradation, type AnnotationCounts } from '../personas/degradation/annotate.js';
import { besidePath, cachePath, readDegradationFile, writeDegradationFile } from '../personas/degradation/store.js';
import type { UserTurn } from '../personas/types.js';
import { createUser } from '../personas/user.js';
import type { Dataset } from '../slots/schema.js';
import { loadDataset } from '../slots/load.js';
import { parseGroup, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';
import { maxErroredOf } from './max-errored.js';
import { judgeLoss, percent } from '../stats/lost-input.js';

function seedOf(flags: Map<string, string | true>): number {
  const raw = flags.get('seed');
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (raw === true || !Number.isInteger(n)) throw new UsageError(`--seed needs an integer (got ${JSON.stringify(raw)})`);
  return n;
}

/** The role's client, unless --offline or the role is not configured (then the offline path runs); built as a run builds it. */
async function clientFor(role: Role, offline: boolean, env: NodeJS.ProcessEnv, meter: UsageMeter): Promise<ModelClient | undefined> {
  if (offline) return undefined;
  return (await commandClients(env, { meter }))[role];
}

/** Preflight of the role before any work: null when it can do its part (or is not used), else the message. */
async function cannotRun(role: Role, client: ModelClient | undefined, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!client) return null;
  const problem = await checkCommandRoles(env, { [role]: { structured: true, tools: false, images: false } });
  return problem === null ? null : `the ${role} role cannot do its part, nothing was run:\n${problem}`;
}

export async function personasCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv()): Promise<number> {
  const { sub, positional, flags } = parseGroup(args, 'personas');
  const [source] = positional;
  if (!source) throw new UsageError(usageOf('personas', sub));
  const seed = seedOf(flags);
  const offline = flags.has('offline');
  const meter = new UsageMeter();

  if (sub === 'mutate') {
    const out = flags.get('out');
    if (typeof out !== 'string') throw new UsageError(`mutate needs --out <file.jsonl>\n${usageOf('personas', 'mutate')}`);
    const dataset = await loadDataset(source);
    const operator = await clientFor('operator', offline, env, meter);
    if (!operator && !offline) io.err('IWB_OPERATOR_MODEL is not set: degrading offline (seeded operators)');
    const blocked = await cannotRun('operator', operator, env);
    if (blocked) {
      io.err(`iwb personas mutate: ${blocked}`);
      return 1;
    }
    const { records, errors } = await mutateDataset(dataset, { seed, ...(operator ? { operator } : {}) });
    const file = path.resolve(out);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a half-written dataset must never be mistaken for a finished one.
    const tmp = `${file}.tmp-${process.pid}`;
    await fs.writeFile(tmp, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await fs.rename(tmp, file);
    for (const e of errors) io.err(`warning: ${e} (made offline instead)`);
    const tokens = meter.get('operator');
    io.out(
      `wrote ${records.length} records (${dataset.tasks.length} tasks) to ${file}` +
        (operator ? `; operator ${operator.model}: ${tokens.prompt} prompt + ${tokens.completion} completion tokens` : `; offline, seed ${seed}`),
    );
    if (errors.length) {
      io.err(`iwb personas mutate: ${errors.length} operator call(s) failed; those records were degraded offline instead`);
      return 1;
    }
    return 0;
  }

  if (sub === 'annotate') return annotateCommand(source, flags, io, env, meter);
  if (sub === 'ask') return askCommand(positional.slice(1), source, flags, io, env, meter, seed);

  const dataset = await loadDataset(source);
  await withDegradation(dataset, env, io);
  const client = await clientFor('user', offline, env, meter);
  const blocked = await cannotRun('user', client, env);
  if (blocked) {
    io.err(`iwb personas leak-test: ${blocked}`);
    return 1;
  }
  const tolerance = maxErroredOf(flags, env);
  const report = await runLeakTest(dataset.cases, (c) => createSimulatedUser(c, { seed, ...(client ? { client } : {}) }));
  const answered = Object.values(report.byPersona).reduce((n, s) => n + s.questions, 0);
  const errored = Object.values(report.byPersona).reduce((n, s) => n + s.errored, 0);
  const loss = judgeLoss({ errored, total: answered + errored, unit: 'turns' }, tolerance);
  const maxErrored = tolerance.from ? percent(tolerance.share) : null;
  io.out(
    flags.has('json')
      ? JSON.stringify({ dataset: dataset.name, mode: client ? 'llm' : 'offline', ok: loss.ok, erroredTurns: errored, turns: answered + errored, maxErrored, ...report }, null, 2)
      : describe(report, client ? 'llm' : 'offline', loss.line),
  );
  if (!loss.ok) {
    io.err(`iwb personas leak-test: ${loss.line}`);
    return 1;
  }
  return 0;
}

function describe(r: LeakTestReport, mode: string, lossLine: string | null): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);
  const lines = [
    `leak test over ${r.cases} cases (${mode} simulated user); ${lossLine ?? 'no turn errored'}`,
    'persona  answered  correct  refusal  stance  miss  wrong  correct%  premise-no  extra-no   leak  quotes  words  errored',
  ];
  for (const [p, s] of Object.entries(r.byPersona)) {
    const o = s.outcomes;
    lines.push(
      `${p.padEnd(8)} ${String(s.questions).padStart(8)}  ${String(o.correct).padStart(7)}  ${String(o.refusal).padStart(7)}  ${String(o.stance).padStart(6)}  ${String(o.miss).padStart(4)}  ${String(o.wrong).padStart(5)}` +
        `    ${pct(s.correctRate)}      ${pct(s.premiseRejectedRate)}    ${pct(s.extraDeclinedRate)} ${pct(s.leakRate)}  ${String(s.oracleQuotes).padStart(6)}  ${s.meanAnswerLength.toFixed(1).padStart(5)}  ${String(s.errored).padStart(7)}`,
    );
  }
  for (const l of r.leaks.slice(0, 5)) lines.push(`leak: ${l.caseId} "${l.question}" -> [${l.slotIds.join(', ')}] ${l.answer}`);
  for (const w of r.wrong.slice(0, 5)) lines.push(`not right (${w.kind}): ${w.caseId} "${w.question}" -> ${w.answer}`);
  return lines.join('\n');
}

/** Attaches degradation records as a run would, and says where they came from. */
async function withDegradation(dataset: Dataset, env: NodeJS.ProcessEnv, io: CliIo): Promise<string> {
  const settings = readSettings(env);
  const d = await ensureDegradation(dataset, { cacheDir: degradationCacheDir(settings), ...(settings.degradation ? { file: settings.degradation } : {}) });
  if (d.source !== 'dataset') io.err(`degradation records: ${d.source}`);
  return d.source;
}

async function annotateCommand(source: string, flags: Map<string, string | true>, io: CliIo, env: NodeJS.ProcessEnv, meter: UsageMeter): Promise<number> {
  const dataset = await loadDataset(source);
  const out = flags.get('out');
  if (out === true) throw new UsageError(`--out needs a file\n${usageOf('personas', 'annotate')}`);
  const file = path.resolve(out ?? (flags.has('beside') ? besidePath(dataset.source) : cachePath(dataset.source, degradationCacheDir(readSettings(env)))));
  const offline = flags.has('offline');
  const client = (await clientFor('operator', offline, env, meter)) ?? (await clientFor('user', offline, env, meter));
  if (!client && !offline) io.err('no IWB_OPERATOR_MODEL or IWB_USER_MODEL: annotating offline (text comparison)');
  const previous = await readDegradationFile(file);
  const result = await annotateDataset(dataset, { ...(client ? { client } : {}), ...(previous ? { previous } : {}) });
  await writeDegradationFile(file, result.file);
  for (const e of result.errors) io.err(`warning: ${e} (annotated offline instead)`);
  const counts = annotationCounts(result.file);
  const summary = { dataset: dataset.source, file, method: client ? `llm:${client.model}` : 'offline', cases: dataset.cases.length, reused: result.reused, calls: result.calls, errors: result.errors, counts };
  if (flags.has('json')) io.out(JSON.stringify(summary, null, 2));
  else io.out(describeCounts(counts, summary));
  return 0;
}

function describeCounts(counts: Partial<Record<string, AnnotationCounts>>, s: { file: string; method: string; cases: number; reused: number; calls: number }): string {
  const lines = [
    `${s.cases} cases annotated (${s.method}; ${s.reused} reused from the file, ${s.calls} model calls) -> ${s.file}`,
    'persona  cases  with omits  with blurs  with contradicts  slots omitted/blurred/contradicted',
  ];
  for (const [p, c] of Object.entries(counts)) {
    if (!c) continue;
    lines.push(`${p.padEnd(8)} ${String(c.cases).padStart(5)}  ${String(c.withOmits).padStart(10)}  ${String(c.withBlurs).padStart(10)}  ${String(c.withContradicts).padStart(16)}  ${c.slots.omits}/${c.slots.blurs}/${c.slots.contradicts}`);
  }
  return lines.join('\n');
}

async function askCommand(
  args: string[],
  source: string,
  flags: Map<string, string | true>,
  io: CliIo,
  env: NodeJS.ProcessEnv,
  meter: UsageMeter,
  seed: number,
): Promise<number> {
  const [caseId, ...questions] = args;
  if (!caseId || questions.length === 0) throw new UsageError(`ask needs a case id and at least one question\n${usageOf('personas', 'ask')}`);
  const dataset = await loadDataset(source);
  const c = dataset.cases.find((x) => x.id === caseId);
  if (!c) throw new UsageError(`${dataset.source}: no case ${caseId} (ids look like ${dataset.cases[0]?.id ?? 'none'})`);
  const degradation = await withDegradation(dataset, env, io);
  const kind = userKind(readSettings(env));
  const client = await clientFor('user', flags.has('offline'), env, meter);
  const user = createUser(kind, c, { seed, ...(client ? { client } : {}) });
  const turns: UserTurn[] = [];
  for (const q of questions) turns.push(await user.answer(q));
  const d = c.task.personas[c.persona]?.degradation;
  if (flags.has('json')) {
    io.out(JSON.stringify({ case: c.id, persona: c.persona, user: kind, mode: client ? 'llm' : 'offline', degradation: d ?? null, degradationSource: degradation, instruction: c.instruction, turns }, null, 2));
    return 0;
  }
  const lines = [`${c.id} (${c.persona}, ${kind} user, ${client ? `model ${client.model}` : 'offline'})`, `instruction: ${c.instruction}`];
  if (d) lines.push(`degraded: omits [${d.omits.join(', ')}] blurs [${d.blurs.join(', ')}] contradicts [${d.contradicts.join(', ')}]`);
  for (const [i, t] of turns.entries()) {
    lines.push('', `Q${i + 1}: ${t.question}`, `A${i + 1}: ${t.answer}`);
    const stances = (t.stances ?? []).map((s) => `${s.slotId} ${s.stance}`).join(', ');
    lines.push(
      `    retrieved [${t.retrievedSlotIds.join(', ')}]` +
        (stances ? `; stances ${stances}` : '') +
        `; leak check (${t.leakCheck.method}) [${t.leakCheck.leakedSlotIds.join(', ')}]` +
        (t.refused ? '; gives nothing' : '') +
        (t.retries ? `; regenerated ${t.retries}x` : '') +
        (t.error ? `; error: ${t.error}` : ''),
    );
  }
  io.out(lines.join('\n'));
  return 0;
}
