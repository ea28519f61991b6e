import { promises as fs } from 'node:fs';
import { quirksMarkdown, withQuirksTable } from '../llm/quirk-docs.js';
import { metricsMarkdown } from '../reporters/metric-table.js';
import { parseArgs, UsageError, type CliIo } from './io.js';

const BEGIN = /<!-- metrics:begin[^>]*-->\n/;
const END = '<!-- metrics:end -->';

/** The README with its generated metric table brought up to date (the text between the two markers). */
export function withMetricsTable(readme: string): string {
  const begin = BEGIN.exec(readme);
  const end = readme.indexOf(END);
  if (!begin || end < begin.index) throw new Error('README.md: the markers <!-- metrics:begin --> ... <!-- metrics:end --> are missing');
  return `${readme.slice(0, begin.index + begin[0].length)}${metricsMarkdown()}\n${readme.slice(end)}`;
}

/** What each generated table is made from and where it goes. */
const TABLES = {
  metrics: { file: 'README.md', source: 'reporters/metric-table.ts', markdown: metricsMarkdown, rewrite: withMetricsTable },
  providers: { file: 'docs/providers.md', source: 'llm/quirks.ts', markdown: quirksMarkdown, rewrite: withQuirksTable },
} as const;

const USAGE = 'usage: iwb docs metrics|providers [--write]';

/** `iwb docs metrics|providers [--write]`: print a generated table, or rewrite it into its page. */
export async function docsCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(args, { boolean: ['write'] });
  const name = positional[0];
  if (positional.length !== 1 || (name !== 'metrics' && name !== 'providers')) throw new UsageError(USAGE);
  const table = TABLES[name];
  if (!flags.has('write')) {
    io.out(table.markdown());
    return 0;
  }
  const page = await fs.readFile(table.file, 'utf8');
  await fs.writeFile(table.file, table.rewrite(page));
  io.out(`${table.file}: ${name} table rewritten from ${table.source}`);
  return 0;
}
