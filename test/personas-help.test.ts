import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../cli/main.js';
import { PERSONAS_SUBCOMMANDS } from '../cli/personas-usage.js';
import { capture } from './cli-capture.js';

/** `iwb personas --help` lists every subcommand; each subcommand's --help gives its own usage (issue #31). */
test('iwb personas --help lists every subcommand with its flags', async () => {
  const io = capture();
  assert.equal(await main(['personas', '--help'], io), 0);
  const out = io.outText();
  assert.match(out, /^usage: iwb personas /);
  for (const sub of ['mutate', 'leak-test', 'annotate', 'ask']) assert.match(out, new RegExp(`^(?:usage: iwb )?\\s*personas ${sub} `, 'm'), sub);
  assert.match(out, /--max-errored <pct>/);
});

test("each personas subcommand's --help gives that subcommand's usage alone", async () => {
  for (const sub of PERSONAS_SUBCOMMANDS) {
    for (const flag of ['--help', '-h']) {
      const io = capture();
      assert.equal(await main(['personas', sub, flag], io), 0, `${sub} ${flag}`);
      const lines = io.outText().trim().split('\n');
      assert.equal(lines.length, 1, `${sub}: ${io.outText()}`);
      assert.match(lines[0]!, new RegExp(`^usage: iwb personas ${sub} <dataset`), sub);
      for (const other of PERSONAS_SUBCOMMANDS.filter((o) => o !== sub)) assert.ok(!lines[0]!.includes(`personas ${other} `), `${sub} help names ${other}`);
    }
  }
  const leak = capture();
  await main(['personas', 'leak-test', '--help'], leak);
  assert.match(leak.outText(), /\[--max-errored <pct>\]/);
  const ask = capture();
  await main(['personas', 'ask', '--help'], ask);
  assert.match(ask.outText(), /<case-id> "question"/);
});

test('iwb --help names the personas command', async () => {
  const io = capture();
  assert.equal(await main(['--help'], io), 0);
  assert.match(io.outText(), /^ {2}iwb personas mutate /m);
});
