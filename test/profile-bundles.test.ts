import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { PROFILE_NAMES, PROFILES, type Profile } from '../config/profiles.js';

const DIR = path.resolve(import.meta.dirname, '../config/profiles');

/**
 * A profile is one module in config/profiles/, found by listing the folder: a module there that the table
 * does not carry, or a profile without its module, is a profile in two places or in none.
 */
test('profile bundles: config/profiles/ holds one module per profile name, and the table is those modules', async () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts')).sort();
  assert.deepEqual(files, [...PROFILE_NAMES].map((n) => `${n}.ts`).sort(), 'one module per profile, named as IWB_PROFILE names it');
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(DIR, file)).href)) as { profile?: Profile };
    const name = file.replace(/\.ts$/, '') as keyof typeof PROFILES;
    assert.ok(mod.profile, `${file} exports its bundle as \`profile\``);
    assert.equal(PROFILES[name], mod.profile, `PROFILES.${name} is the bundle of ${file}, not a copy`);
  }
});

test('profile bundles: every bundle names every rule, in the same order (a re-scored report lists differing rules in it)', () => {
  const [first, ...rest] = PROFILE_NAMES.map((n) => Object.keys(PROFILES[n]));
  for (const keys of rest) assert.deepEqual(keys, first);
});
