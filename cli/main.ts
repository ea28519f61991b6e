import { DatasetError } from '../slots/errors.js';
import { datasetCommand } from './dataset.js';
import { processIo, UsageError, type CliIo } from './io.js';

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, { run: () => Promise<Command>; help: string }> = {
  dataset: { run: async () => datasetCommand, help: 'dataset check <path.jsonl | builtin> [--json]' },
  doctor: {
    run: async () => (await import('./doctor.js')).doctorCommand,
    help: 'doctor [--json]   check every configured model role (reachable, key, model, tools, images, JSON mode)',
  },
  som: {
    run: async () => (await import('./som.js')).somCommand,
    help: 'som <url | file.html> [--json] [--out labelled.png] [--viewport WxH]',
  },
  judge: {
    run: async () => (await import('./judge.js')).judgeCommand,
    help: 'judge calibrate [--json] [--task id,...]',
  },
  compare: {
    run: async () => (await import('./compare.js')).compareCommand,
    help: 'compare <report.json | dir> [<report.json | dir>...] [--json] [--metric tcr|hr|sr]',
  },
  personas: {
    run: async () => (await import('./personas.js')).personasCommand,
    help: 'personas mutate <dataset> [--offline --seed N] --out <file> | personas leak-test <dataset> [--json]',
  },
};

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(['usage: iwb <command>', ...Object.values(COMMANDS).map((c) => `  iwb ${c.help}`)].join('\n'));
    return name ? 2 : 0;
  }
  try {
    return await (await command.run())(rest, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof DatasetError) {
      io.err(`iwb ${name}: ${e.message}`);
      return 2;
    }
    throw e;
  }
}
