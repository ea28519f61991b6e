import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, sourceFiles } from './import-graph.js';

/**
 * Who may call rawProcessEnv() (config/process-env.ts): the entry points of a process and the one module that
 * builds a child's environment. Everything else takes an env or a config argument, so a worker cannot read a
 * setting its runner did not check, and a test passes a plain record. A new caller fails here: pass the
 * environment down from an entry point instead.
 */
const ALLOWED: readonly { file: RegExp; why: string }[] = [
  { file: /^playwright\.config\.ts$/, why: "a run's entry, in the runner and in every worker: installs the run context (config/run-context.ts)" },
  { file: /^bin\//, why: 'the iwb executable' },
  { file: /^cli\/io\.ts$/, why: "the CLI's entry binding (cliEnv), beside its streams" },
  { file: /^sandbox\/env\.ts$/, why: "a child's environment is built from the parent's, filtered" },
  { file: /^reporters\/iwb-reporter\.ts$/, why: 'Playwright loads the reporter as an entry under merge-reports without a config: its own folder, prices and tolerance' },
];

/** Calls, not imports or mentions in comments: `rawProcessEnv(` outside a comment line. */
export function callers(files: readonly { file: string; text: string }[]): string[] {
  return files
    .filter(({ file }) => file !== 'config/process-env.ts' && !file.startsWith('test/'))
    .filter(({ text }) => text.split('\n').some((line) => /\brawProcessEnv\(/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)))
    .map(({ file }) => file);
}

test('rawProcessEnv() is called only by the entry points and the child-environment builder', () => {
  const files = sourceFiles().map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
  const found = callers(files);
  assert.ok(found.includes('playwright.config.ts') && found.includes('cli/io.ts'), `the grep sees the known callers: ${found.join(', ')}`);
  const unexpected = found.filter((f) => !ALLOWED.some((a) => a.file.test(f)));
  assert.deepEqual(unexpected, [], `new callers of rawProcessEnv(): take an env or config argument instead (test/process-env-callers.test.ts lists the allowed ones)`);
});

test('the caller check sees a planted call and ignores comments, imports and tests', () => {
  const planted = [
    { file: 'fixtures/runtime.ts', text: "import { rawProcessEnv } from '../config/process-env.js';\nconst env = rawProcessEnv();" },
    { file: 'llm/x.ts', text: '// rawProcessEnv() is not called here\n * nor rawProcessEnv() here' },
    { file: 'test/x.test.ts', text: 'rawProcessEnv();' },
  ];
  assert.deepEqual(callers(planted), ['fixtures/runtime.ts']);
});
