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
test('env: every IWB_ variable named in the sources, README and CI is declared', async () => {
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
