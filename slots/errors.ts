import type { z } from 'zod';

/** A dataset problem a user can fix: it names the file, the line, the record and the field. */
export class DatasetError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly record: string | undefined,
    readonly field: string | undefined,
    problem: string,
  ) {
    const where = [file + (line !== undefined ? `:${line}` : ''), record && `record ${record}`, field && `field ${field}`]
      .filter(Boolean)
      .join(', ');
    super(`${where}: ${problem}`);
    this.name = 'DatasetError';
  }
}

/** Turns the first zod issue into a DatasetError with a dotted field path. */
export function zodToDatasetError(error: z.ZodError, file: string, line: number | undefined, record: string | undefined): DatasetError {
  const issue = error.issues[0]!;
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  return new DatasetError(file, line, record, field || undefined, issue.message + more);
}
