import { promises as fs } from 'node:fs';
import path from 'node:path';
import { datasetJsonSchemas, schemaText, SCHEMA_DIR } from '../slots/json-schema.js';
import { parseCommand, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';

/** `iwb dataset schema [--out dir]`: writes the JSON Schemas of the dataset formats (default: schemas/). */
export async function schemaCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseCommand(args, 'dataset', 'schema');
  if (positional.length) throw new UsageError(usageOf('dataset', 'schema'));
  const dir = path.resolve(String(flags.get('out') ?? SCHEMA_DIR));
  await fs.mkdir(dir, { recursive: true });
  for (const [file, schema] of Object.entries(datasetJsonSchemas())) {
    await fs.writeFile(path.join(dir, file), schemaText(schema));
    io.out(`wrote ${path.join(dir, file)}`);
  }
  return 0;
}
