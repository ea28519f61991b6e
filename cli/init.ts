import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { parseCommand, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';
import { starterText } from './starter.js';

const INIT_USAGE = usageOf('init');

export async function initCommand(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const { positional, flags } = parseCommand(args, 'init');
  if (positional.length) throw new UsageError(`unexpected argument ${positional[0]}\n${INIT_USAGE}`);
  const json = flags.has('json');
  const file = path.join(cwd, json ? 'iwb.config.json' : 'iwb.config.ts');
  const other = path.join(cwd, json ? 'iwb.config.ts' : 'iwb.config.json');
  if (existsSync(file) && !flags.has('force')) throw new UsageError(`${file} exists; pass --force to overwrite it`);
  if (existsSync(other)) throw new UsageError(`${other} exists; a run reads one config file, so remove it first`);
  // JSON has no comments: the plain file holds the defaults only, and docs/configuration.md says what else it takes.
  const text = json ? JSON.stringify({ dataset: 'builtin', agent: 'reference', judge: { mode: 'slot' }, roles: {} }, null, 2) + '\n' : await starterText();
  await fs.writeFile(file, text);
  io.out(`wrote ${file}; \`npx iwb config\` shows what a run will use`);
  return 0;
}
