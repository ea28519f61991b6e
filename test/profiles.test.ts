import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PROFILE_NAMES, PROFILES } from '../config/profiles.js';
import { readSettings, userKind } from '../config/settings.js';
import { formatMarkdown } from '../reporters/format.js';
import { renderSummary } from '../reporters/html-summary.js';
import { reportOf } from './report-support.js';

const ROOT = path.resolve(import.meta.dirname, '..');

test('IWB_PROFILE defaults to iwb, takes paper, and refuses anything else naming the variable', () => {
  assert.equal(readSettings({}).profile, 'iwb');
  assert.equal(readSettings({ IWB_PROFILE: 'paper' }).profile, 'paper');
  assert.throws(() => readSettings({ IWB_PROFILE: 'papers' }), /IWB_PROFILE/);
});

test('the profile picks the default simulated user; IWB_USER still wins', () => {
  assert.equal(userKind(readSettings({})), 'contained');
  assert.equal(userKind(readSettings({ IWB_PROFILE: 'paper' })), 'paper');
  assert.equal(userKind(readSettings({ IWB_PROFILE: 'paper', IWB_USER: 'contained' })), 'contained');
});

test('the two profiles differ in the rules the issue names, and every profile fills every rule', () => {
  const [iwb, paper] = [PROFILES.iwb, PROFILES.paper];
  assert.deepEqual(Object.keys(iwb).sort(), Object.keys(paper).sort());
  assert.equal(PROFILE_NAMES.length, Object.keys(PROFILES).length);
  assert.equal(paper.crashRule && !iwb.crashRule, true);
  assert.equal(paper.unmentioned, 'fail');
  assert.equal(paper.stickyPass, true);
  assert.equal(paper.judgeScreenshotMemory, 3);
  assert.equal(paper.vci, 'pooled');
  assert.equal(paper.judgeInstruction, 'gold-if-submitted');
});

test('report.md and the summary page name the profile at the top', () => {
  const report = reportOf([{ id: 't0_P-MIN', agent: 'a', positives: ['pass'], negatives: ['pass'] }]);
  report.meta.profile = 'paper';
  const md = formatMarkdown(report);
  assert.match(md.split('\n').slice(0, 4).join('\n'), /Profile `paper`/);
  const html = renderSummary(report);
  assert.ok(html.indexOf('Profile <b>paper</b>') > 0 && html.indexOf('Profile <b>paper</b>') < html.indexOf('<h2>'));
  delete report.meta.profile;
  assert.match(formatMarkdown(report), /Profile `iwb`/, 'a report from before profiles reads as iwb');
});

/** The keys the Profile interface declares, read from its source so an optional key is not missed. */
async function profileKeys(): Promise<string[]> {
  const source = await fs.readFile(path.join(ROOT, 'config/profile.ts'), 'utf8');
  const body = /export interface Profile \{([\s\S]*?)\n\}/.exec(source)?.[1];
  assert.ok(body, 'config/profile.ts declares `export interface Profile { ... }`');
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
}

/** The keys each row of docs/profiles.md's rule table names in its first cell. */
async function documentedKeys(): Promise<string[][]> {
  const page = await fs.readFile(path.join(ROOT, 'docs/profiles.md'), 'utf8');
  const section = page.split('\n## The rules\n')[1]?.split('\n## ')[0];
  assert.ok(section, 'docs/profiles.md has a "The rules" section');
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Rule |'));
  return rows.map((r) => [...r.split('|')[1]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
}

test('docs/profiles.md: every rule of the Profile interface has a row in the profile table, and no row names a rule that is gone', async () => {
  const keys = await profileKeys();
  assert.ok(keys.length >= 10, `the interface was read: ${keys.join(', ')}`);
  assert.deepEqual([...keys].sort(), Object.keys(PROFILES.iwb).sort(), 'the interface and the table agree (no optional rule a profile may leave out)');
  const rows = await documentedKeys();
  const named = new Set(rows.flat());
  assert.deepEqual(keys.filter((k) => !named.has(k)), [], 'add a row naming the rule in backticks to docs/profiles.md\'s rule table');
  // A backticked word of a first cell that is no rule is either a variable or a removed rule.
  const stale = rows.flat().filter((k) => !keys.includes(k) && !k.startsWith('IWB_'));
  assert.deepEqual(stale, [], 'a row names a rule config/profiles.ts no longer has');
  assert.ok(rows.every((r) => r.some((k) => keys.includes(k))), 'every row names the rule it documents');
});

test('docs/profiles.md: one row per rule, with the values both profiles hold', async () => {
  const doc = await fs.readFile(path.join(ROOT, 'docs/profiles.md'), 'utf8');
  const section = doc.split('\n## Every rule, one row\n')[1]?.split('\n## ')[0];
  assert.ok(section, 'docs/profiles.md has an "Every rule, one row" section');
  const cell = (c: string) => /^`(.*)`$/.exec(c.trim())?.[1];
  const rows = section.split('\n').filter((l) => l.startsWith('| `')).map((l) => l.split('|').slice(1, 4).map(cell));
  const keys = await profileKeys();
  assert.deepEqual(rows.map((r) => r[0]).sort(), [...keys].sort(), 'a row for every rule and no rule that is gone');
  for (const [rule, iwb, paper] of rows) {
    const key = rule as keyof typeof PROFILES.iwb;
    assert.deepEqual([iwb, paper], [String(PROFILES.iwb[key]), String(PROFILES.paper[key])], `${rule}: the doc's values are the profiles'`);
  }
});
