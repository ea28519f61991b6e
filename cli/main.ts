import { readFileSync } from 'node:fs';
import { checkEnv } from '../config/env-check.js';
import { rawProcessEnv } from '../config/process-env.js';
import { applyConfigFile } from '../config/file.js';
import { exitCodeOf, isUserError } from '../config/start.js';
import { DatasetError } from '../slots/errors.js';
import { CONFIG_USAGE } from './config.js';
import { datasetCommand } from './dataset.js';
import { INIT_USAGE } from './init.js';
import { OPEN_USAGE } from './open.js';
import { PROTOCOL_USAGE } from './protocol.js';
import { PERSONAS_USAGE } from './personas-usage.js';
import { processIo, UsageError, type CliIo } from './io.js';

type Command = (args: string[], io: CliIo) => Promise<number>;

interface CommandEntry {
  run: () => Promise<Command>;
  help: string;
  /** Reads the run's configuration (environment and config file) rather than resolving it itself. */
  usesConfig?: boolean;
}

const COMMANDS: Record<string, CommandEntry> = {
  dataset: { run: async () => datasetCommand, help: 'dataset check <path.jsonl | builtin> [--json] | dataset build --from webgen <test.jsonl> --out <file.jsonl> [--offline] | dataset split <dataset> | dataset schema | dataset fetch <interactweb-bench | webgen-bench> [--url] [--dir]', usesConfig: true },
  doctor: {
    run: async () => (await import('./doctor.js')).doctorCommand,
    help: 'doctor [--json]   check every configured model role (reachable, key, model, tools, images, JSON mode)',
    usesConfig: true,
  },
  som: {
    run: async () => (await import('./som.js')).somCommand,
    help: 'som <url | file.html> [--json] [--out labelled.png] [--viewport WxH]',
    usesConfig: true,
  },
  judge: {
    run: async () => (await import('./judge.js')).judgeCommand,
    help: 'judge calibrate [--json] [--task id,...] [--concurrency N]',
    usesConfig: true,
  },
  report: {
    run: async () => (await import('./report.js')).reportCommand,
    help: 'report <run-dir> [--run <id>] [--profile iwb|paper] [--out <dir>] [--json]   (score a finished run again from its kept slot records: no model, no browser)',
    usesConfig: true,
  },
  compare: {
    run: async () => (await import('./compare.js')).compareCommand,
    help: 'compare <report.json | dir> [<report.json | dir>...] [--json] [--metric tcr|hr|sr] [--mixed] [--html out.html]',
  },
  open: { run: async () => (await import('./open.js')).openCommand, help: OPEN_USAGE.replace(/^usage: iwb /, ''), usesConfig: true },
  docs: {
    run: async () => (await import('./docs.js')).docsCommand,
    help: 'docs metrics|providers [--write]   (the README metric table from reporters/metric-table.ts; the provider quirks of docs/providers.md from llm/quirks.ts)',
  },
  personas: {
    run: async () => (await import('./personas.js')).personasCommand,
    help: PERSONAS_USAGE.replace(/^usage: iwb /, '').replace(/\n {7}iwb /g, '\n       '),
    usesConfig: true,
  },
  cache: {
    run: async () => (await import('./cache.js')).cacheCommand,
    help: 'cache stats [--json] | cache prune --older-than <days>d   (the recorded model calls, IWB_LLM_CACHE_DIR)',
    usesConfig: true,
  },
  config: { run: async () => (await import('./config.js')).configCommand, help: CONFIG_USAGE.replace(/^usage: iwb /, '') },
  protocol: { run: async () => (await import('./protocol.js')).protocolCommand, help: PROTOCOL_USAGE.replace(/^usage: iwb /, '') },
  init: { run: async () => (await import('./init.js')).initCommand, help: INIT_USAGE.replace(/^usage: iwb /, '') },
};

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const usage = () => ['usage: iwb <command> [--help] [--version]', ...Object.values(COMMANDS).map((c) => `  iwb ${c.help.split('\n')[0]}`)].join('\n');

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
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    if (name === undefined || wants([name], '--help', '-h', 'help')) {
      io.out(usage());
      return 0;
    }
    io.err(`iwb: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  if (wants(rest, '--help', '-h')) {
    io.out(`usage: iwb ${command.help}`);
    return 0;
  }
  try {
    if (command.usesConfig) {
      checkEnv(rawProcessEnv());
      await applyConfigFile();
    }
    return await (await command.run())(rest, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof DatasetError || isUserError(e)) {
      io.err(`iwb ${name}: ${e.message}`);
      return exitCodeOf(e);
    }
    throw e;
  }
}
