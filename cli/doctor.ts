import { describeChromium } from '../config/chromium.js';
import { readSettings } from '../config/settings.js';
import { allNeeds, describePreflight, preflight } from '../llm/preflight.js';
import { readRoles } from '../config/roles.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';

const USAGE = usageOf('doctor');

/**
 * `iwb doctor`: every configured model role, one small request per capability. Exit 0 only when every
 * configured role can do its part.
 */
export async function doctorCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv()): Promise<number> {
  const { positional, flags } = parseCommand(args, 'doctor');
  if (positional.length > 0) throw new UsageError(USAGE);
  const roles = readRoles(env);
  const settings = readSettings(env);
  const report = await preflight(roles, allNeeds(roles, settings.agent));
  // The offline part: which browser a run would use (config/chromium.ts); without one nothing can run.
  const browser = settings.chromium && settings.chromiumSource ? { path: settings.chromium, source: settings.chromiumSource } : null;
  const ok = report.ok && browser !== null;
  const browserLine = browser
    ? `browser  ${describeChromium(browser)}`
    : 'browser  none found: run `npx playwright install chromium`, or `apt-get install -y chromium chromium-headless-shell`';
  io.out(
    flags.has('json')
      ? JSON.stringify({ ok, browser, roles: report.roles.map(({ durationMs: _d, ...r }) => r) }, null, 2)
      : `${browserLine}\n${describePreflight(report)}\n${ok ? 'the browser and every configured role can do their part' : 'something cannot do its part (see above)'}`,
  );
  return ok ? 0 : 1;
}
