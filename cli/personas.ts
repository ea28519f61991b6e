import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ModelClient } from '../llm/client.js';
import { describePreflight, preflight } from '../llm/preflight.js';
import { readRoles, type Role } from '../llm/roles.js';
import { UsageMeter } from '../llm/usage.js';
import { runLeakTest, type LeakTestReport } from '../personas/leak-test.js';
import { mutateDataset } from '../personas/mutate.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { loadDataset } from '../slots/load.js';
import { parseArgs, UsageError, type CliIo } from './io.js';

const USAGE =
  'usage: iwb personas mutate <dataset.jsonl | builtin> [--offline] [--seed N] --out <file.jsonl>\n' +
  '       iwb personas leak-test <dataset.jsonl | builtin> [--offline] [--seed N] [--json]';

function seedOf(flags: Map<string, string | true>): number {
  const raw = flags.get('seed');
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (raw === true || !Number.isInteger(n)) throw new UsageError(`--seed needs an integer (got ${JSON.stringify(raw)})`);
  return n;
}

/** The role's client, unless --offline or the role is not configured (then the offline path runs). */
function clientFor(role: Role, offline: boolean, env: NodeJS.ProcessEnv, meter: UsageMeter): ModelClient | undefined {
  if (offline) return undefined;
  const config = readRoles(env)[role];
  return config ? new ModelClient(config, { meter }) : undefined;
}

/** Preflight of the role before any work: null when it can do its part (or is not used), else the message. */
async function cannotRun(role: Role, client: ModelClient | undefined, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!client) return null;
  const roles = readRoles(env);
  const report = await preflight(roles, { [role]: { structured: true, tools: false, images: false } });
  return report.ok ? null : `the ${role} role cannot do its part, nothing was run:\n${describePreflight(report)}`;
}

/** Above this share of errored turns, the leak test's rates describe the errors, not the simulated user. */
export const MAX_ERRORED_TURNS = 0.05;

export async function personasCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { positional, flags } = parseArgs(args, { string: ['seed', 'out'], boolean: ['offline', 'json'] });
  const [sub, source] = positional;
  if (!source || (sub !== 'mutate' && sub !== 'leak-test')) throw new UsageError(USAGE);
  const seed = seedOf(flags);
  const offline = flags.has('offline');
  const meter = new UsageMeter();

  if (sub === 'mutate') {
    const out = flags.get('out');
    if (typeof out !== 'string') throw new UsageError(`mutate needs --out <file.jsonl>\n${USAGE}`);
    const dataset = await loadDataset(source);
    const operator = clientFor('operator', offline, env, meter);
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

  const dataset = await loadDataset(source);
  const client = clientFor('user', offline, env, meter);
  const blocked = await cannotRun('user', client, env);
  if (blocked) {
    io.err(`iwb personas leak-test: ${blocked}`);
    return 1;
  }
  const report = await runLeakTest(dataset.cases, (c) => createSimulatedUser(c, { seed, ...(client ? { client } : {}) }));
  const turns = Object.values(report.byPersona).reduce((n, s) => n + s.questions, 0);
  const errored = Object.values(report.byPersona).reduce((n, s) => n + s.errors, 0);
  const measured = turns === 0 || errored / turns <= MAX_ERRORED_TURNS;
  io.out(
    flags.has('json')
      ? JSON.stringify({ dataset: dataset.name, mode: client ? 'llm' : 'offline', ok: measured, erroredTurns: errored, turns, ...report }, null, 2)
      : describe(report, client ? 'llm' : 'offline'),
  );
  if (!measured) {
    io.err(`iwb personas leak-test: ${errored} of ${turns} turns errored (over ${MAX_ERRORED_TURNS * 100}%): these rates are not a measurement of the simulated user`);
    return 1;
  }
  return 0;
}

function describe(r: LeakTestReport, mode: string): string {
  const lines = [`leak test over ${r.cases} cases (${mode} simulated user)`, 'persona  questions  leak   hit    refusal  words  regenerated  errors'];
  for (const [p, s] of Object.entries(r.byPersona)) {
    lines.push(
      `${p.padEnd(8)} ${String(s.questions).padStart(9)}  ${s.leakRate.toFixed(3)}  ${s.hitRate.toFixed(3)}  ${s.refusalRate.toFixed(3)}    ` +
        `${s.meanAnswerLength.toFixed(1).padStart(5)}  ${String(s.regenerated).padStart(11)}  ${String(s.errors).padStart(6)}`,
    );
  }
  for (const l of r.leaks.slice(0, 10)) lines.push(`leak: ${l.caseId} "${l.question}" -> [${l.slotIds.join(', ')}] ${l.answer}`);
  return lines.join('\n');
}
