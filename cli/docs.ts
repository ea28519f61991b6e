import { promises as fs } from 'node:fs';
import { quirksMarkdown } from '../llm/quirk-docs.js';
import { metricsMarkdown } from '../reporters/metric-table.js';
import { parseGroup, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';

/**
 * The tables in docs/ that are generated from their source, each between two markers in its page:
 * `<!-- <name>:begin ... -->` and `<!-- <name>:end -->`. test/one-home.test.ts fails when a page's copy drifts.
 */
export const GENERATED_TABLES = {
  metrics: { file: 'docs/metrics.md', source: 'reporters/metric-table.ts', render: async () => metricsMarkdown() },
  settings: {
    file: 'docs/configuration.md',
    source: 'config/settings-table.ts, the role families and the other declareEnv() calls',
    // env-check loads every module that declares a variable, whichever entry point asked.
    render: async () => (await import('../config/env-check.js'), (await import('./settings-docs.js')).settingsMarkdownRows().join('\n')),
  },
  providers: { file: 'docs/providers.md', source: 'llm/quirks.ts', render: async () => quirksMarkdown() },
} as const;
export type GeneratedTable = keyof typeof GENERATED_TABLES;

/** `page` with the named table between its markers replaced by `table`. */
export function withTable(page: string, name: GeneratedTable, table: string): string {
  const begin = new RegExp(`<!-- ${name}:begin[^>]*-->\\n`).exec(page);
  const endMarker = `<!-- ${name}:end -->`;
  const end = page.indexOf(endMarker);
  const { file } = GENERATED_TABLES[name];
  if (!begin || end < begin.index) throw new Error(`${file}: the markers <!-- ${name}:begin --> ... ${endMarker} are missing`);
  return `${page.slice(0, begin.index + begin[0].length)}${table}\n${page.slice(end)}`;
}

/** `iwb docs metrics|settings|providers [--write]`: print a generated table, or rewrite it into its page under docs/. */
export async function docsCommand(args: string[], io: CliIo): Promise<number> {
  const { sub, positional, flags } = parseGroup(args, 'docs');
  if (positional.length > 0 || !(sub in GENERATED_TABLES)) throw new UsageError(usageOf('docs', sub));
  const name = sub as GeneratedTable;
  const { file, source, render } = GENERATED_TABLES[name];
  const table = await render();
  if (!flags.has('write')) {
    io.out(table);
    return 0;
  }
  await fs.writeFile(file, withTable(await fs.readFile(file, 'utf8'), name, table));
  io.out(`${file}: ${name} table rewritten from ${source}`);
  return 0;
}
