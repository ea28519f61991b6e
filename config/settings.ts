import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the harness reads, read once into a typed object. Nothing deeper than the
 * entry points (playwright.config.ts, the CLI, fixtures) reads process.env, so a test can build a
 * Settings by hand and a typo in a variable's value fails at start with the variable's name.
 */
/**
 * Debian's headless shell (the old headless mode, which Playwright itself uses for headless runs) costs
 * about a third of the CPU of full Chromium per page, which decides a run's length on a small machine;
 * full Chromium is the fallback.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
function defaultChromium(): string {
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? CHROMIUM_CANDIDATES[CHROMIUM_CANDIDATES.length - 1]!;
}

/** "90m", "1h", "600s", "250ms" or bare milliseconds. */
const Duration = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(ms|s|m|h)?$/, 'must be a duration such as 60m, 90s, 1h or milliseconds')
  .transform((v) => {
    const [, n, unit] = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(v)!;
    return Math.round(Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(unit ?? 'ms') as 'ms' | 's' | 'm' | 'h']);
  });

const SettingsSchema = z.object({
  dataset: z.string().default('builtin'),
  agent: z.string().default(''),
  runDir: z.string().default('.iwb/runs'),
  reportDir: z.string().default('iwb-report'),
  chromium: z.string().default(defaultChromium),
  stepCapOverride: z.coerce.number().int().positive().optional(),
  prices: z.string().optional(),
  agentStepTimeoutMs: z.coerce.number().int().positive().optional(),
  /** An episode's own budget, apart from Playwright's per-test timeout. */
  episodeTimeoutMs: Duration.default(60 * 60_000),
});
export type Settings = z.infer<typeof SettingsSchema>;

const VARIABLES: Record<keyof Settings, string> = {
  dataset: 'IWB_DATASET',
  agent: 'IWB_AGENT',
  runDir: 'IWB_RUN_DIR',
  reportDir: 'IWB_REPORT_DIR',
  chromium: 'IWB_CHROMIUM',
  stepCapOverride: 'IWB_STEP_CAP',
  prices: 'IWB_PRICES',
  agentStepTimeoutMs: 'IWB_AGENT_STEP_TIMEOUT_MS',
  episodeTimeoutMs: 'IWB_EPISODE_TIMEOUT',
};

export function readSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const raw: Record<string, string> = {};
  for (const [key, variable] of Object.entries(VARIABLES)) {
    const value = env[variable];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = VARIABLES[issue.path[0] as keyof Settings];
    throw new Error(`environment variable ${variable}: ${issue.message} (got ${JSON.stringify(raw[issue.path[0] as string])})`);
  }
  const s = parsed.data;
  return {
    ...s,
    runDir: path.resolve(cwd, s.runDir),
    reportDir: path.resolve(cwd, s.reportDir),
  };
}

/** Chromium flags this machine needs: no sandbox as root, and no calls home on a closed network. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu', '--no-first-run', '--disable-sync'];
