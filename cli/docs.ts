import { promises as fs } from 'node:fs';
import { metricsMarkdown } from '../reporters/metric-table.js';
import { parseGroup, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';

const BEGIN = /<!-- metrics:begin[^>]*-->\n/;
const END = '<!-- metrics:end -->';

/** The README with its generated metric table brought up to date (the text between the two markers). */
export function withMetricsTable(readme: string): string {
  const begin = BEGIN.exec(readme);
  const end = readme.indexOf(END);
  if (!begin || end < begin.index) throw new Error('README.md: the markers <!-- metrics:begin --> ... <!-- metrics:end --> are missing');
  return `${readme.slice(0, begin.index + begin[0].length)}${metricsMarkdown()}\n${readme.slice(end)}`;
}

/** `iwb docs metrics [--write]`: print the metric table, or rewrite it into README.md. */
export async function docsCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseGroup(args, 'docs');
  if (positional.length > 0) throw new UsageError(usageOf('docs', 'metrics'));
  if (!flags.has('write')) {
    io.out(metricsMarkdown());
    return 0;
  }
  const readme = await fs.readFile('README.md', 'utf8');
  await fs.writeFile('README.md', withMetricsTable(readme));
  io.out('README.md: metric table rewritten from reporters/metric-table.ts');
  return 0;
}
