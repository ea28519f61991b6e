import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { adapter as command } from '../agent/adapters/command.js';
import { HarnessMessageSchema, parseAgentLine } from '../agent/command/command-protocol.js';
import { resolveAgent } from '../agent/registry.js';
import { startSite } from '../site/site.js';
import { episode, launchBrowser, scriptedUser, removeTempDirs } from './agent-support.js';
import { processesWith } from './sandbox-support.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const deps = (extra: { commandStepTimeoutMs?: number; env?: NodeJS.ProcessEnv } = {}) => ({ clients: {}, cwd: ROOT, env: process.env, ...extra });
/** A one-off agent written inline, run with node. */
const inline = (code: string) => `node -e ${JSON.stringify(code)}`;

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await Promise.all([browser.close(), removeTempDirs()]);
});

describe('the command adapter', () => {
  test('drives examples/echo-agent.mjs end to end', async () => {
    const { agent } = await resolveAgent('command:node examples/echo-agent.mjs', deps());
    assert.equal(agent.name, 'command');
    assert.equal(agent.config.command, 'node examples/echo-agent.mjs');
    const user = scriptedUser('Show our opening hours.');
    const { t, dir } = await episode(agent, browser, { user });
    assert.equal(t.status, 'submitted', t.error);
    assert.deepEqual(t.counts, { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 0 });
    assert.equal(user.questions.length, 1);
    assert.equal(t.steps[3]!.note, 'title Echo agent; png true', 'the agent got the screenshot inline and on disk');
    assert.deepEqual(t.steps[1]!.usage, { promptTokens: 0, completionTokens: 0 });
    assert.equal(t.tokensSelfReported, true, 'the agent counted its own tokens');

    const site = await startSite(path.join(dir, 'workspace'));
    const page = await browser.newPage();
    try {
      await page.goto(site.url);
      assert.equal(await page.title(), 'Echo agent');
      assert.equal(await page.locator('#request').textContent(), 'I want a page for my bakery.');
      assert.equal(await page.locator('#answer').textContent(), 'Show our opening hours.');
    } finally {
      await page.close();
      await site.close();
    }
  });

  test("a crashing agent ends the episode as the agent's failure (its site is judged), with its stderr kept", async () => {
    const agent = command.create(inline("process.stdin.once('data', () => { console.error('kaboom: no model key'); process.exit(7); })"), deps());
    const { t } = await episode(agent, browser);
    assert.equal(t.status, 'agent-failed');
    assert.match(t.error ?? '', /AgentCrash: the agent program exited \(7\) without answering/);
    assert.match(t.error ?? '', /stderr:\nkaboom: no model key/);
  });

  test("a silent agent times out as the agent's failure and is killed", async () => {
    // The agent runs in its own PID namespace and cannot write outside: find it by a word on its command line.
    const mark = `silent-agent-${process.pid}-${Date.now()}`;
    const agent = command.create(`${inline('setInterval(() => {}, 1000);')} ${mark}`, deps({ commandStepTimeoutMs: 1000 }));
    const { t } = await episode(agent, browser);
    assert.equal(t.status, 'agent-failed');
    assert.match(t.error ?? '', /gave no answer within 1000 ms/);
    assert.match(t.error ?? '', /flush after every line/, 'the usual cause is named');
    assert.deepEqual(await processesWith(mark), [], 'the agent was killed');
  });

  test('a line that is not an action costs a step; the agent is told why; IWB_ variables are hidden', async () => {
    const code = [
      "const rl = require('readline').createInterface({ input: process.stdin });",
      'let n = 0;',
      "rl.on('line', (l) => { const m = JSON.parse(l); n++;",
      "  if (n === 1) console.log('thinking out loud');",
      "  else if (n === 2) console.log(JSON.stringify({ type: 'clarify', question: 'Why: ' + m.message.slice(0, 40) + ' / ' + (process.env.IWB_DATASET || 'hidden') }));",
      "  else console.log(JSON.stringify({ type: 'submit' })); });",
    ].join(' ');
    const agent = command.create(inline(code), deps({ env: { ...process.env, IWB_DATASET: 'gold.jsonl' } }));
    const user = scriptedUser('ok');
    const { t } = await episode(agent, browser, { user });
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(t.counts.invalid, 1);
    assert.match(user.questions[0]!, /^Why: the line is not JSON .* \/ hidden$/);
  });

  test('the protocol: observations match the schema, replies are checked', () => {
    assert.ok(HarnessMessageSchema.safeParse({ type: 'start', protocol: 1, instruction: 'x', stepsLeft: 3 }).success);
    assert.deepEqual(parseAgentLine('{"type":"verify"}'), { action: { type: 'verify', path: '/' } });
    assert.deepEqual(parseAgentLine('{"type":"submit","note":"done","usage":{"promptTokens":5,"completionTokens":2}}'), {
      action: { type: 'submit' },
      usage: { promptTokens: 5, completionTokens: 2 },
      note: 'done',
    });
    assert.match((parseAgentLine('{"type":"fly"}') as { invalid: string }).invalid, /not a valid action/);
    assert.match((parseAgentLine('[1]') as { invalid: string }).invalid, /one JSON object/);
    assert.match((parseAgentLine('{"type":"submit","usage":{"promptTokens":-1}}') as { invalid: string }).invalid, /usage/);
    assert.throws(() => command.create('  ', deps()), /no command given/);
  });
});
