import { promises as fs } from 'node:fs';
import path from 'node:path';
import { protocolJsonSchemaText } from '../agent/command/protocol-json-schema.js';
import { parseArgs, UsageError, type CliIo } from './io.js';

export const PROTOCOL_USAGE = 'usage: iwb protocol schema [--out file.json]\n  the command-agent protocol as JSON Schema, generated from the zod schemas the harness enforces';

export async function protocolCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(args, { string: ['out'] });
  if (positional.length !== 1 || positional[0] !== 'schema') throw new UsageError(PROTOCOL_USAGE);
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
