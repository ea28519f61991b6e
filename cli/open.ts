import { existsSync } from 'node:fs';
import path from 'node:path';
import { readSettings } from '../config/settings.js';
import { makeAllureOffline } from '../reporters/allure-offline.js';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';

const OPEN_USAGE = usageOf('open');

/** The pages worth opening in a served report folder, those that exist. */
export function reportEntryPoints(folder: string, allure: boolean): { name: string; path: string }[] {
  const candidates = allure
    ? [{ name: 'Allure report', path: 'index.html' }]
    : [
        { name: 'summary', path: 'summary.html' },
        { name: 'Playwright HTML report', path: 'playwright-report/index.html' },
        { name: 'report.md', path: 'report.md' },
      ];
  return candidates.filter((c) => existsSync(path.join(folder, c.path)));
}

/**
 * Serves a report folder until stopped. Separate from the command so a test can serve, fetch and close.
 * An Allure folder is made offline first (reporters/allure-offline.ts), every time, so a report generated
 * by `allure generate` directly is as quiet as one made by `npm run report:allure`.
 */
export async function serveReports(folder: string, opts: { allure: boolean; port?: number }): Promise<{ served: ServedSite; pages: { name: string; url: string }[] }> {
  if (!existsSync(folder)) throw new UsageError(`${folder} does not exist: run the benchmark (or npm run report:allure) first`);
  if (opts.allure) await makeAllureOffline(folder);
  const served = await serveStatic(folder, { port: opts.port ?? 0 });
  const pages = reportEntryPoints(folder, opts.allure).map((p) => ({ name: p.name, url: `${served.url}/${p.path.replace(/index\.html$/, '')}` }));
  return { served, pages };
}

/** `iwb open`: serves the report folder on 127.0.0.1 until Ctrl-C; never opens a page from file://. */
export async function openCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv(), until: Promise<unknown> = interrupted()): Promise<number> {
  const { positional, flags } = parseCommand(args, 'open');
  if (positional.length > 1) throw new UsageError(OPEN_USAGE);
  const allure = flags.has('allure');
  const settings = readSettings(env);
  const folder = path.resolve(positional[0] ?? (allure ? settings.allureReport : settings.reportDir));
  if (flags.has('no-serve')) {
    if (!allure) throw new UsageError(`--no-serve only applies to --allure\n${OPEN_USAGE}`);
    if (!existsSync(folder)) throw new UsageError(`${folder} does not exist: run allure generate first`);
    const changed = await makeAllureOffline(folder);
    io.out(`iwb open: ${folder} is offline (${changed.length} page(s) changed); serve it with: npx iwb open --allure`);
    return 0;
  }
  const port = flags.get('port');
  if (port !== undefined && !/^\d+$/.test(String(port))) throw new UsageError(`--port must be a number\n${OPEN_USAGE}`);
  const { served, pages } = await serveReports(folder, { allure, ...(port !== undefined ? { port: Number(port) } : {}) });
  io.out([`iwb open: serving ${folder} on ${served.url} (Ctrl-C to stop)`, ...pages.map((p) => `  ${p.name}: ${p.url}`)].join('\n'));
  await until;
  await served.close();
  return 0;
}

function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
