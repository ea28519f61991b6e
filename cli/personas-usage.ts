/** `iwb personas` usage, apart from the command so `iwb --help` can print it without loading the personas. */
export const PERSONAS_USAGE =
  'usage: iwb personas mutate <dataset.jsonl | builtin> [--offline] [--seed N] --out <file.jsonl>\n' +
  '       iwb personas leak-test <dataset.jsonl | builtin> [--offline] [--seed N] [--json] [--max-errored <pct>]\n' +
  '       iwb personas annotate <dataset.jsonl> [--offline] [--json] [--out <file> | --beside]\n' +
  '       iwb personas ask <dataset.jsonl | builtin> <case-id> "question" ["question" ...] [--offline] [--seed N] [--json]';
export const PERSONAS_SUBCOMMANDS = ['mutate', 'leak-test', 'annotate', 'ask'] as const;
