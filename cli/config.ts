import os from 'node:os';
import { DEFAULT_AGENT } from '../agent/registry.js';
import { describeChromium } from '../config/chromium.js';
import { declaredEnv } from '../config/env-registry.js';
import { checkEnv } from '../config/env-check.js';
import { resolveConfig, type ResolvedConfig, type Source } from '../config/file.js';
import { readSettings, SETTINGS_VARIABLES } from '../config/settings.js';
import { readJudgeSettings } from '../config/judge-settings.js';
import { readRoles, roleVariable, ROLES } from '../config/roles.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';


export interface ConfigRow {
  key: string;
  value: string | number | boolean | null;
  source: string;
}

/** A key shows its length and last four characters: enough to tell two keys apart, too little to use. */
export const mask = (key: string): string => (key.length <= 8 ? '****' : `****${key.slice(-4)} (${key.length} chars)`);

function sourceText(variable: string, resolved: ResolvedConfig, fallback = 'default'): string {
  const s: Source | undefined = resolved.sources.get(variable);
  if (!s) return fallback;
  if (s.from === 'env') return `env ${variable}`;
  if (s.from === 'file') return `file ${s.key}`;
  return `env ${s.variable} (named by file ${s.key})`;
}

/** Every value a run would use, read by the same readers the run uses, so what is printed is what runs. */
export function configRows(resolved: ResolvedConfig, cwd = process.cwd()): ConfigRow[] {
  const env = resolved.env;
  const settings = readSettings(env, cwd);
  const rows: ConfigRow[] = [];
  for (const [key, variable] of Object.entries(SETTINGS_VARIABLES)) {
    if (key === 'chromium') {
      rows.push({ key, value: settings.chromium ? describeChromium({ path: settings.chromium, source: settings.chromiumSource! }) : null, source: sourceText(variable, resolved, 'found on this machine') });
      continue;
    }
    const shown: Partial<Record<string, string>> = { agent: settings.agent || `${DEFAULT_AGENT} (the default)`, workers: settings.workers === undefined ? `one per core (${os.cpus().length})` : undefined };
    const value = shown[key] ?? settings[key as keyof typeof settings];
    rows.push({ key, value: value === undefined ? null : (value as string | number | boolean), source: sourceText(variable, resolved) });
  }
  const judge = readJudgeSettings(env);
  rows.push({ key: 'judge.mode', value: judge.mode, source: sourceText('IWB_JUDGE_MODE', resolved) });
  rows.push({ key: 'judge.stepCap', value: judge.stepCap ?? null, source: sourceText('IWB_JUDGE_STEP_CAP', resolved) });
  rows.push({ key: 'judge.slotsInFlight', value: judge.slotsInFlight, source: sourceText('IWB_JUDGE_SLOTS_IN_FLIGHT', resolved) });
  const roles = readRoles(env);
  for (const role of ROLES) {
    const r = roles[role];
    if (!r) {
      rows.push({ key: `roles.${role}`, value: null, source: `not configured (offline; set ${roleVariable(role, 'model')})` });
      continue;
    }
    const shared = (field: 'baseURL' | 'apiKey', fallback: string) =>
      resolved.sources.has(roleVariable(role, field)) ? sourceText(roleVariable(role, field), resolved) : env[fallback] ? `env ${fallback} (shared)` : 'default';
    rows.push({ key: `roles.${role}.model`, value: r.model, source: sourceText(roleVariable(role, 'model'), resolved) });
    rows.push({ key: `roles.${role}.baseURL`, value: r.baseURL ?? 'https://api.openai.com/v1 (the SDK default)', source: shared('baseURL', 'OPENAI_BASE_URL') });
    rows.push({ key: `roles.${role}.apiKey`, value: r.apiKey === 'not-needed' ? 'none (a local endpoint)' : mask(r.apiKey), source: shared('apiKey', 'OPENAI_API_KEY') });
    if (r.temperature !== undefined) rows.push({ key: `roles.${role}.temperature`, value: r.temperature, source: sourceText(roleVariable(role, 'temperature'), resolved) });
    if (r.seed !== undefined) rows.push({ key: `roles.${role}.seed`, value: r.seed, source: sourceText(roleVariable(role, 'seed'), resolved) });
  }
  // Variables other modules read (merged in later, or not shown above) still show with their source.
  const shown = new Set([...Object.values(SETTINGS_VARIABLES), 'IWB_JUDGE_MODE', 'IWB_JUDGE_STEP_CAP']);
  for (const [variable] of resolved.sources) {
    if (shown.has(variable) || ROLES.some((role) => variable.startsWith(`IWB_${role.toUpperCase()}_`) && /_(MODEL|BASE_URL|API_KEY|TEMPERATURE|SEED)$/.test(variable))) continue;
    const value = env[variable] ?? '';
    rows.push({ key: variable, value: /KEY|TOKEN|SECRET/.test(variable) ? mask(value) : value, source: sourceText(variable, resolved) });
  }
  return rows;
}

export async function configCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv(), cwd = process.cwd()): Promise<number> {
  const { positional, flags } = parseCommand(args, 'config');
  if (positional.length) throw new UsageError(`unexpected argument ${positional[0]}\n${usageOf('config')}`);
  if (flags.has('vars')) {
    const vars = declaredEnv();
    io.out(flags.has('json') ? JSON.stringify(vars, null, 2) : vars.map((v) => `${v.name.padEnd(28)} ${v.doc}`).join('\n'));
    return 0;
  }
  checkEnv(env);
  const resolved = await resolveConfig(env, cwd);
  const rows = configRows(resolved, cwd);
  if (flags.has('json')) {
    io.out(JSON.stringify({ file: resolved.file ?? null, unread: resolved.unread, values: rows }, null, 2));
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.key.length));
  const valueText = (v: ConfigRow['value']) => (v === null ? '—' : String(v));
  const valueWidth = Math.min(60, Math.max(...rows.map((r) => valueText(r.value).length)));
  io.out(`config file: ${resolved.file ?? 'none (npx iwb init writes a starter iwb.config.ts)'}`);
  for (const r of rows) io.out(`  ${r.key.padEnd(width)}  ${valueText(r.value).padEnd(valueWidth)}  ${r.source}`);
  if (resolved.unread.length) io.out(`not read by this build (ignored): ${resolved.unread.join(', ')}`);
  return 0;
}
