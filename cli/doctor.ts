import { readSettings } from '../config/settings.js';
import { allNeeds, describePreflight, preflight } from '../llm/preflight.js';
import { readRoles } from '../llm/roles.js';
import { parseArgs, UsageError, type CliIo } from './io.js';

const USAGE = 'usage: iwb doctor [--json]';

/**
 * `iwb doctor`: every configured model role, one small request per capability. Exit 0 only when every
 * configured role can do its part.
 */
export async function doctorCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { positional, flags } = parseArgs(args, { boolean: ['json'] });
  if (positional.length > 0) throw new UsageError(USAGE);
  const roles = readRoles(env);
  const report = await preflight(roles, allNeeds(roles, readSettings(env).agent));
  const { ok } = report;
  io.out(
    flags.has('json')
      ? JSON.stringify({ ok, roles: report.roles.map(({ durationMs: _d, ...r }) => r) }, null, 2)
      : `${describePreflight(report)}\n${ok ? 'every configured role can do its part' : 'some role cannot do its part (see problems above)'}`,
  );
  return ok ? 0 : 1;
}
