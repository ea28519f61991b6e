import { UsageError, type CliIo } from './io.js';

export async function buildCommand(_args: string[], _io: CliIo, _env: NodeJS.ProcessEnv): Promise<number> {
  throw new UsageError('iwb dataset build: not available yet');
}
