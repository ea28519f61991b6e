import { promises as fs } from 'node:fs';
import path from 'node:path';
import { protocolJsonSchemaText } from '../agent/command/protocol-json-schema.js';
import { parseGroup, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';


export async function protocolCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseGroup(args, 'protocol');
  if (positional.length) throw new UsageError(usageOf('protocol', 'schema'));
  const text = protocolJsonSchemaText();
  const out = flags.get('out');
  if (typeof out !== 'string') {
    io.out(text);
    return 0;
  }
  await fs.writeFile(path.resolve(out), text);
  io.out(`wrote ${path.resolve(out)}`);
  return 0;
}
