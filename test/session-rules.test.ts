import assert from 'node:assert/strict';
import { test } from 'node:test';
import { profileOf } from '../config/profiles.js';
import { sessionRulesOf } from '../judge/session-rules.js';
import { DEFAULT_STEP_CAP } from '../judge/llm-judge.js';

test("a profile's judge session rules come from one place: the iwb session's step cap and forced verdict, the paper's bundle", () => {
  assert.deepEqual(sessionRulesOf(profileOf('iwb'), 4), { turns: 5, screenshotMemory: null, stickyPass: false, unmentioned: 'errored' });
  assert.equal(sessionRulesOf(profileOf('iwb'), undefined).turns, DEFAULT_STEP_CAP + 1);
  const paper = profileOf('paper');
  // The paper's session ignores IWB_JUDGE_STEP_CAP: its turn budget is the profile's.
  assert.deepEqual(sessionRulesOf(paper, 4), { turns: paper.judgeTurns, screenshotMemory: paper.judgeScreenshotMemory, stickyPass: true, unmentioned: 'fail' });
});
