import { readFileSync } from 'node:fs';
import { checkEnv } from '../config/env-check.js';
import { applyConfigFile } from '../config/file.js';
import { exitCodeOf, isUserError } from '../launch/start.js';
import { DatasetError } from '../slots/errors.js';
import { helpOf, isCommandName, overview, type CommandName } from './commands.js';
import { datasetCommand } from './dataset.js';
import { cliEnv, processIo, UsageError, type CliIo } from './io.js';

type Command = (args: string[], io: CliIo) => Promise<number>;

/** How a command runs; what it takes and its help are declared once, in cli/commands.ts. */
interface CommandEntry {
  run: () => Promise<Command>;
  /** Reads the run's configuration (environment and config file) rather than resolving it itself. */
  usesConfig?: boolean;
}

const COMMANDS: Record<CommandName, CommandEntry> = {
  dataset: { run: async () => datasetCommand, usesConfig: true },
  doctor: { run: async () => (await import('./doctor.js')).doctorCommand, usesConfig: true },
  som: { run: async () => (await import('./som.js')).somCommand, usesConfig: true },
  judge: { run: async () => (await import('./judge.js')).judgeCommand, usesConfig: true },
  report: { run: async () => (await import('./report.js')).reportCommand, usesConfig: true },
  compare: { run: async () => (await import('./compare.js')).compareCommand },
  open: { run: async () => (await import('./open.js')).openCommand, usesConfig: true },
  docs: { run: async () => (await import('./docs.js')).docsCommand },
  personas: { run: async () => (await import('./personas.js')).personasCommand, usesConfig: true },
  cache: { run: async () => (await import('./cache.js')).cacheCommand, usesConfig: true },
  config: { run: async () => (await import('./config.js')).configCommand },
  protocol: { run: async () => (await import('./protocol.js')).protocolCommand },
  init: { run: async () => (await import('./init.js')).initCommand },
};

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const usage = () => ['usage: iwb <command> [--help] [--version]', ...overview().map((s) => `  ${s}`), '', 'iwb <command> [<subcommand>] --help describes every flag'].join('\n');

/** Flags that mean the same at every level, before a `--` that ends the flags. */
function wants(args: readonly string[], ...names: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => names.includes(a));
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (wants(argv, '--version', '-V')) {
    io.out(`iwb ${version()}`);
    return 0;
  }
  if (!isCommandName(name)) {
    if (name === undefined || wants([name], '--help', '-h', 'help')) {
      io.out(usage());
      return 0;
    }
    io.err(`iwb: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  if (wants(rest, '--help', '-h')) {
    io.out(helpOf(name, rest));
    return 0;
  }
  try {
    if (COMMANDS[name].usesConfig) {
      checkEnv(cliEnv());
      await applyConfigFile(cliEnv());
    }
    return await (await COMMANDS[name].run())(rest, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof DatasetError || isUserError(e)) {
      io.err(`iwb ${name}: ${e.message}`);
      return exitCodeOf(e);
    }
    throw e;
  }
}
