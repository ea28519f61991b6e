import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkEnv, EnvError } from '../config/env-check.js';
import { closestKnown, declareEnv, isKnownEnv, unknownEnv } from '../config/env-registry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('env: a typo is an error naming the closest known variable; role families are patterns', () => {
  assert.throws(() => checkEnv({ IWB_AGNET: 'openai' }), (e: Error) => e instanceof EnvError && /IWB_AGNET: did you mean IWB_AGENT\?/.test(e.message));
  assert.equal(closestKnown('IWB_JUDG_MODEL'), 'IWB_JUDGE_MODEL');
  assert.equal(closestKnown('IWB_RUNDIR'), 'IWB_RUN_DIR');
  assert.doesNotThrow(() => checkEnv({ IWB_AGENT: 'null', IWB_USER_MODEL: 'm', IWB_COPILOT_SEED: '1', PATH: '/bin', OPENAI_API_KEY: 'k' }));
  assert.equal(isKnownEnv('IWB_ROBOT_MODEL'), false, 'a family only covers its placeholder values');
  assert.deepEqual(unknownEnv({ IWB_ROBOT_MODEL: 'x', IWB_AGENT: 'y' }).map((u) => u.name), ['IWB_ROBOT_MODEL']);
});

test('env: another module declares its variable with one line, and the check accepts it', () => {
  assert.throws(() => checkEnv({ IWB_SOMETHING_NEW: '1' }), EnvError);
  declareEnv('IWB_SOMETHING_NEW', 'a test variable');
  assert.doesNotThrow(() => checkEnv({ IWB_SOMETHING_NEW: '1' }));
});

/**
 * Every IWB_ name the sources mention is declared once the entry point's imports have run: a variable
 * added (or merged in) without a declaration would otherwise stop every run that sets it.
 */
test('env: every IWB_ variable named in the sources, README, docs and CI is declared', async () => {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      if (['node_modules', '.git', 'test', '.iwb', 'playwright-report', 'iwb-report', 'test-results'].includes(e.name)) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      // file-schema.ts maps file keys to variables other modules read (and that a merge may bring);
      // resolveConfig reports a key whose variable nothing declares instead of applying it.
      else if (/\.(ts|mjs|md|yml)$/.test(e.name) && e.name !== 'file-schema.ts') files.push(p);
    }
  };
  await walk(ROOT);
  const missing = new Set<string>();
  for (const f of files) {
    const text = await fs.readFile(f, 'utf8');
    for (const m of text.matchAll(/\bIWB_[A-Z][A-Z0-9_]*[A-Z0-9]\b/g)) {
      // README and comments write families as IWB_<ROLE>_MODEL; the concrete names are checked here.
      if (!isKnownEnv(m[0])) missing.add(`${m[0]} (${path.relative(ROOT, f)})`);
    }
  }
  assert.deepEqual([...missing], [], 'declare each with declareEnv() where it is read and import that module in config/env-check.ts');
});

/**
 * The other direction: every variable the code declares (and so reads) has a row in docs/configuration.md's
 * table (generated, so this also fails when the page was not regenerated; test/one-home.test.ts checks it whole).
 */
test('env: every declared IWB_ variable is documented in docs/configuration.md', async () => {
  const { declaredEnv } = await import('../config/env-registry.js');
  await import('../config/env.js');
  const page = await fs.readFile(path.join(ROOT, 'docs/configuration.md'), 'utf8');
  const documented = new Set([...page.matchAll(/`(IWB_[A-Z0-9_<>]+)`/g)].map((m) => m[1]!));
  // Set by the run for its workers (fixtures/global-setup.ts), never by a user; and the test's own above.
  const internal = new Set(['IWB_RUN_ID', 'IWB_BROWSER_WS', 'IWB_CASES_SNAPSHOT', 'IWB_RUN_CONFIG', 'IWB_SOMETHING_NEW']);
  const undocumented = declaredEnv().map((d) => d.name).filter((n) => !internal.has(n) && !documented.has(n));
  assert.deepEqual(undocumented, [], 'run `npx iwb docs settings --write` to add its row to docs/configuration.md');
});

test('env: readEnv reads settings, judge settings and roles into one object, and refuses unknown names', async () => {
  const { readEnv } = await import('../config/env.js');
  const e = readEnv({ IWB_JUDGE_MODE: 'case', IWB_USER_MODEL: 'm', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', IWB_RUN_DIR: 'r' }, '/w');
  assert.equal(e.judge.mode, 'case');
  assert.equal(e.roles.user?.model, 'm');
  assert.equal(e.settings.runDir, '/w/r');
  assert.throws(() => readEnv({ IWB_JUGDE_MODE: 'case' }), EnvError);
  assert.throws(() => readEnv({ IWB_JUDGE_STEP_CAP: 'many' }), /IWB_JUDGE_STEP_CAP/);
});
