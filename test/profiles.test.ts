import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROFILE_NAMES, PROFILES } from '../config/profiles.js';
import { readSettings, userKind } from '../config/settings.js';
import { formatMarkdown } from '../reporters/format.js';
import { renderSummary } from '../reporters/html-summary.js';
import { reportOf } from './report-support.js';

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
