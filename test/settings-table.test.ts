import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaredEnv } from '../config/env-registry.js';
import '../config/env-check.js';
import { FILE_VARIABLES, IwbConfigSchema } from '../config/file-schema.js';
import { settingDocRows, settingsMarkdownRows } from '../cli/settings-docs.js';
import { SettingsSchema, SETTINGS_VARIABLES, readSettings } from '../config/settings.js';
import { FILE_BLOCKS, SCOPES, SETTINGS_TABLE, type SettingRow } from '../config/settings-table.js';
import { readJudgeSettings } from '../config/judge-settings.js';
import { ROLE_FIELDS, ROLES, readRoles } from '../config/roles.js';
import { starterText } from '../cli/starter.js';

const rows = (t: Record<string, SettingRow>) => Object.entries(t);

test('settings table: SettingsSchema, the variable names, the registry and the docs rows are the table, row for row', () => {
  assert.deepEqual(Object.keys(SettingsSchema.shape), Object.keys(SETTINGS_TABLE));
  assert.deepEqual(SETTINGS_VARIABLES, Object.fromEntries(rows(SETTINGS_TABLE).map(([k, r]) => [k, r.env])));
  const docs = new Map(declaredEnv().map((d) => [d.name, d.doc]));
  const docRows = new Map(settingDocRows().map((r) => [r.variable, r]));
  for (const [, r] of [...rows(SETTINGS_TABLE), ...rows(FILE_BLOCKS.judge)]) {
    assert.equal(docs.get(r.env), r.doc, `${r.env} is declared with its row's doc`);
    assert.ok(SCOPES.includes(r.scope), `${r.env}: scope ${r.scope}`);
    assert.equal(docRows.get(r.env)?.default, r.default, `${r.env} has a docs row`);
  }
  const envs = [...rows(SETTINGS_TABLE), ...rows(FILE_BLOCKS.judge)].map(([, r]) => r.env);
  assert.equal(new Set(envs).size, envs.length, 'a variable has one row');
  const md = settingsMarkdownRows();
  assert.ok(md.length >= 2 + settingDocRows().length);
  for (const d of declaredEnv()) assert.ok(md.some((l) => l.startsWith(`| \`${d.name}\``)), `${d.name} has a docs row`);
  for (const suffix of Object.values(ROLE_FIELDS).map((f) => f.suffix)) assert.ok(md.some((l) => l.startsWith(`| \`IWB_<ROLE>_${suffix}\``)), suffix);
});

test("settings table: the config file's keys and FILE_VARIABLES are exactly the rows with a file key", () => {
  const expected: Record<string, string> = {};
  for (const [, r] of rows(SETTINGS_TABLE)) if (r.file) expected[r.file.key] = r.env;
  for (const [block, table] of Object.entries(FILE_BLOCKS)) for (const [, r] of rows(table)) if (r.file) expected[`${block}.${r.file.key}`] = r.env;
  for (const role of ROLES) for (const [field, f] of Object.entries(ROLE_FIELDS)) if ('file' in f) expected[`roles.${role}.${field}`] = `IWB_${role.toUpperCase()}_${f.suffix}`;
  assert.deepEqual(Object.fromEntries(Object.entries(FILE_VARIABLES).sort()), Object.fromEntries(Object.entries(expected).sort()));
  const top = Object.keys(IwbConfigSchema.shape).filter((k) => !(k in FILE_BLOCKS) && k !== 'roles');
  assert.deepEqual(top.sort(), Object.keys(expected).filter((k) => !k.includes('.')).sort());
  // The file's type comes from the row: a string where the row says nothing, its own schema otherwise.
  assert.equal(IwbConfigSchema.safeParse({ workers: 2 }).success, true);
  assert.equal(IwbConfigSchema.safeParse({ workers: '2' }).success, false);
  assert.equal(IwbConfigSchema.safeParse({ chromiumSandbox: 'off' }).success, false, 'a row without a file key is not a file key');
  assert.equal(IwbConfigSchema.safeParse({ judge: { mode: 'case', stepCap: 3 } }).success, true);
  assert.equal(IwbConfigSchema.safeParse({ judge: { mode: 'both' } }).success, false);
});

test('settings table: the starter file has one entry per top-level file key, with its row\'s example', async () => {
  const text = await starterText();
  for (const [, r] of rows(SETTINGS_TABLE)) {
    if (!r.file) continue;
    assert.match(text, new RegExp(`// ${r.env}: .*\\n {2}(// )?${r.file.key}: `), r.env);
  }
});

test('env reader: one loop for settings, judge and roles: trimmed, blank is unset, errors name the variable (the fallback when that was set)', () => {
  assert.equal(readSettings({ IWB_SPLIT: '  dev ' }, '/w').split, 'dev');
  assert.equal(readSettings({ IWB_SPLIT: '  ' }, '/w').split, 'all');
  assert.deepEqual(readJudgeSettings({ IWB_JUDGE_MODE: ' case ' }), { mode: 'case', slotsInFlight: 4 });
  assert.deepEqual(readJudgeSettings({ IWB_JUDGE_STEP_CAP: '7' }), { mode: 'slot', stepCap: 7, slotsInFlight: 4 });
  assert.deepEqual(readJudgeSettings({ IWB_JUDGE_SLOTS_IN_FLIGHT: '1' }), { mode: 'slot', slotsInFlight: 1 });
  assert.throws(() => readJudgeSettings({ IWB_JUDGE_SLOTS_IN_FLIGHT: '0' }), /^Error: environment variable IWB_JUDGE_SLOTS_IN_FLIGHT: /);
  assert.throws(() => readJudgeSettings({ IWB_JUDGE_STEP_CAP: '99' }), /^Error: environment variable IWB_JUDGE_STEP_CAP: .*\(got "99"\)$/);
  assert.throws(() => readRoles({ IWB_USER_MODEL: 'm', OPENAI_BASE_URL: 'ftp://x' }), /environment variable OPENAI_BASE_URL: must be an http\(s\) URL/);
  assert.throws(() => readRoles({ IWB_USER_MODEL: 'm', IWB_USER_BASE_URL: 'ftp://x', OPENAI_BASE_URL: 'http://ok' }), /IWB_USER_BASE_URL/);
  assert.throws(() => readRoles({ IWB_USER_MODEL: 'm', IWB_USER_BASE_URL: 'http://h', IWB_USER_TEMPERATURE: 'hot' }), /IWB_USER_TEMPERATURE.*\(got "hot"\)/);
  const roles = readRoles({ IWB_JUDGE_MODEL: 'j', OPENAI_API_KEY: 'sk-1', IWB_AGENT_API_KEY: 'x' });
  assert.deepEqual(Object.keys(roles), ['judge'], 'a role without its own model is not configured');
  assert.equal(roles.judge?.apiKey, 'sk-1');
});

test('judge session: the profile sets the default, IWB_JUDGE_MODE overrides only where the profile allows, and the docs table says so', () => {
  assert.deepEqual(readJudgeSettings({}), { mode: 'slot', slotsInFlight: 4 });
  assert.deepEqual(readJudgeSettings({ IWB_PROFILE: 'paper' }), { mode: 'case', slotsInFlight: 4 }, "the paper profile's own session");
  assert.deepEqual(readJudgeSettings({ IWB_JUDGE_MODE: 'case' }), { mode: 'case', slotsInFlight: 4 }, 'iwb allows a case-wide session');
  assert.deepEqual(readJudgeSettings({ IWB_PROFILE: 'paper', IWB_JUDGE_MODE: 'case' }), { mode: 'case', slotsInFlight: 4 });
  assert.throws(() => readJudgeSettings({ IWB_PROFILE: 'paper', IWB_JUDGE_MODE: 'slot' }), /^Error: environment variable IWB_JUDGE_MODE: slot is not a judge session IWB_PROFILE=paper allows \(case, by default case\)/);
  const row = settingsMarkdownRows().find((r) => r.startsWith('| `IWB_JUDGE_MODE` |'));
  assert.match(row ?? '', /iwb: slot or case, paper: case/);
  assert.match(row ?? '', /iwb: `slot`, paper: `case`/);
});
