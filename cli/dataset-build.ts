import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readSettings } from '../config/settings.js';
import { commandClients } from '../llm/run-clients.js';
import { UsageMeter } from '../llm/usage.js';
import { buildFromWebgen } from './build/build-dataset.js';
import { parseCommand, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';
import { maxErroredOf } from './max-errored.js';
import { judgeLoss } from '../stats/lost-input.js';

const USAGE = usageOf('dataset', 'build');

/** `iwb dataset build --from webgen`: see cli/build/build-dataset.ts. With IWB_OPERATOR_MODEL set (and no --offline) the model decomposes the tests. */
export async function buildCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const { positional, flags } = parseCommand(args, 'dataset', 'build');
  const [input] = positional;
  const out = flags.get('out');
  if (flags.get('from') !== 'webgen' || !input || typeof out !== 'string') throw new UsageError(USAGE);
  const seed = flags.has('seed') ? Number(flags.get('seed')) : 0;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed needs an integer\n${USAGE}`);
  const meter = new UsageMeter();
  const operator = flags.has('offline') ? undefined : (await commandClients(env, { meter })).operator;
  if (!operator) io.err(flags.has('offline') ? 'offline build' : 'IWB_OPERATOR_MODEL is not set: building offline');
  const cacheDir = path.join(path.dirname(readSettings(env).runDir), 'cache', 'decompose');
  const r = await buildFromWebgen(path.resolve(input), { seed, cacheDir, ...(operator ? { operator } : {}) });
  const file = path.resolve(out);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await fs.writeFile(tmp, r.records.map((x) => JSON.stringify(x)).join('\n') + '\n');
  await fs.rename(tmp, file);
  for (const e of r.errors) io.err(`warning: ${e} (made offline instead)`);
  // A build asked of a model that quietly came back partly offline is input lost: the same rule as a figure's.
  const loss = judgeLoss({ errored: r.errors.length, total: r.modelParts, unit: 'model-made parts' }, maxErroredOf(flags, env), {
    fate: 'made offline instead (each record says so in build.slots and mutation.method)',
    lost: 'so the dataset is not the model\'s',
  });
  const tokens = meter.get('operator');
  io.out(
    [
      `wrote ${r.records.length} records (${r.tasks} tasks) to ${file}`,
      operator
        ? `slots and persona instructions by ${operator.model} (${tokens.prompt} prompt + ${tokens.completion} completion tokens); ${r.errors.length} part(s) made offline after model errors (field build / mutation of each record)`
        : `made without a model: one slot per UI test case with c_tech from its test category, and seeded persona operators (seed ${seed}); each record says so in build.slots and mutation.method`,
      'weights, difficulty (K-means over this build) and the generic NEGATIVE slot are computed, never taken from a model',
    ].join('\n'),
  );
  if (loss.line) io.err(loss.line);
  return loss.ok ? 0 : 1;
}
