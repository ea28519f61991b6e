import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { adapter as openai } from '../agent/adapters/openai.js';
import { parsePaperReply } from '../agent/builtin/paper-protocol.js';
import { LlmSession } from '../agent/builtin/llm-session.js';
import { loadPrompts } from '../agent/builtin/prompts.js';
import { AuditRecordSchema } from '../agent/trajectory.js';
import { AUDIT_FAILURE_LIMITS } from '../agent/verify-step.js';
import { reply, schemaName, type FakeReply, type RecordedRequest } from '../testkit/fake-server.js';
import { STEP_CAPS } from '../slots/difficulty.js';
import { loadDataset } from '../slots/load.js';
import { agentTestbed, episode, fakeClient, makeCase, scriptedUser, sentImages, SITE } from './agent-support.js';

/** Replies written the way the paper's builder writes them (its system prompt's format). */
const ASK = `<think>
1. Analyze Input: the client wants a tip calculator but says nothing about tip rates.
2. Evaluate Completeness: unclear. I could write <boltAction type="finish"> later.
3. Select Strategy: Path A (Ask).
</think>
I need one detail first.

<boltAction type="ask_user">Which tip percentages should the buttons offer?</boltAction>`;

const VERIFY_WITH_FIX = `<think>Fix the title, then check the calculator.</think>
<boltArtifact id="fix-title" title="Fix title">
  <boltAction type="file" filePath="notes.txt">checked</boltAction>
</boltArtifact>
<TestCriteria>
1. The heading reads "Split the Bill".
2. Type 100 into the bill amount and click the 20% button.
3. Verify the total per person shows $120.00.
</TestCriteria>
<boltAction type="screenshot_validated">/</boltAction>`;

describe('the paper protocol parser', () => {
  test('think blocks are kept and not searched; ask_user wins and writes nothing', () => {
    const r = parsePaperReply(`${ASK}\n<boltArtifact id="x" title="x"><boltAction type="file" filePath="a.html">x</boltAction></boltArtifact>`);
    assert.deepEqual(r.decision, { action: { type: 'clarify', question: 'Which tip percentages should the buttons offer?' } });
    assert.match(r.reasoning, /Path A \(Ask\)/);
    assert.deepEqual(r.writes, []);
  });

  test('an artifact with file and shell actions is an implement; shell is recorded; escaped markup is unescaped', () => {
    const r = parsePaperReply(`Certainly!\n<boltArtifact id="snake" title="Snake">
  <boltAction type="file" filePath="package.json">{ "scripts": { "dev": "vite" } }</boltAction>
  <boltAction type="file" filePath="./index.html">&lt;!DOCTYPE html&gt;
&lt;title&gt;A &amp;amp; B&lt;/title&gt;</boltAction>
  <boltAction type="file" filePath="app.js">if (a < b && c) document.title = 'x &amp; y';</boltAction>
  <boltAction type="shell">npm install</boltAction>
</boltArtifact>`);
    assert.ok('action' in r.decision && r.decision.action.type === 'implement');
    const files = r.decision.action.type === 'implement' ? r.decision.action.files : [];
    assert.deepEqual(files.map((f) => f.path), ['package.json', 'index.html', 'app.js']);
    assert.equal(files[1]!.content, '<!DOCTYPE html>\n<title>A &amp; B</title>\n');
    assert.equal(files[2]!.content, "if (a < b && c) document.title = 'x &amp; y';\n", 'a file with real markup is written as it is');
    assert.deepEqual(r.shell, ['npm install']);
  });

  test('an artifact and a verify in one reply: the files are written, the verify carries its criteria and path', () => {
    const r = parsePaperReply(VERIFY_WITH_FIX.replace('">/</boltAction>', '">/dashboard</boltAction>'));
    assert.ok('action' in r.decision);
    assert.equal(r.decision.action.type, 'verify');
    assert.equal(r.decision.action.type === 'verify' && r.decision.action.path, '/dashboard');
    assert.match(r.decision.action.type === 'verify' ? (r.decision.action.criteria ?? '') : '', /^1\. The heading[\s\S]*\$120\.00\.$/);
    assert.deepEqual(r.writes, [{ path: 'notes.txt', content: 'checked\n' }]);
  });

  test('an unclosed finish still finishes, with its files; finish wins over a verify', () => {
    const r = parsePaperReply('<boltArtifact id="a" title="a"><boltAction type="file" filePath="index.html">hi</boltAction></boltArtifact>\n<boltAction type="screenshot_validated">/</boltAction>\n<boltAction type="finish">');
    assert.deepEqual(r.decision, { action: { type: 'submit' } });
    assert.deepEqual(r.writes.map((f) => f.path), ['index.html']);
  });

  test('action tags inside a file do not act; a reply with no path is invalid; an unclosed file writes nothing', () => {
    const inFile = parsePaperReply('<boltArtifact id="a" title="a"><boltAction type="file" filePath="help.md">Reply with <boltAction type="finish"> when done.</boltAction></boltArtifact>');
    assert.ok('action' in inFile.decision && inFile.decision.action.type === 'implement');
    assert.match(JSON.stringify(parsePaperReply('I will now build the site.').decision), /none of the four paths/);
    assert.match(JSON.stringify(parsePaperReply('<boltArtifact id="a" title="a"><boltAction type="file" filePath="index.html"><html>', true).decision), /not closed[\s\S]*cut off/);
    const orphan = parsePaperReply('the server stripped my opening tag</think><boltAction type="ask_user">Blue or green?</boltAction>');
    assert.equal(orphan.reasoning, 'the server stripped my opening tag');
    assert.deepEqual(parsePaperReply('<boltAction type="ask_user">Blue or green?').decision, { action: { type: 'clarify', question: 'Blue or green?' } }, 'an unclosed question runs to the end');
    assert.deepEqual(parsePaperReply('<boltAction type="screenshot_validated"/>').decision, { action: { type: 'verify', path: '/' } }, 'no criteria: the session supplies the request as criteria');
  });
});

const bed = agentTestbed();

function jpegSize(b: Buffer): { width: number; height: number } {
  for (let i = 2; i < b.length - 9; i++) {
    if (b[i] === 0xff && (b[i + 1] === 0xc0 || b[i + 1] === 0xc2)) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
  }
  throw new Error('no JPEG frame header');
}

/** The number the copilot's element list gives the element whose line matches `pattern`. */
function elementNumber(req: RecordedRequest, pattern: RegExp): number {
  const line = textOf(req).split('\n').find((l) => /^\[\d+\]/.test(l) && pattern.test(l));
  assert.ok(line, `no labelled element matches ${pattern}`);
  return Number(/^\[(\d+)\]/.exec(line)![1]);
}

const textOf = (req: RecordedRequest) =>
  req.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.map((p) => p.text ?? '') : [String(m.content ?? '')])).join('\n');

const usage = (p: number, c: number) => ({ usage: { prompt_tokens: p, completion_tokens: c } });

describe('openai:paper, end to end against the fake server', () => {
  test('a verify without criteria is audited against the request, as the paper does; the reply is read without a step count', async () => {
    bed.fake.script(reply.text('<think>Check it.</think><boltAction type="screenshot_validated">/</boltAction>'));
    const session = new LlmSession({ client: fakeClient(bed.fake), protocol: 'paper', prompts: loadPrompts('paper') });
    const d = await session.next({ type: 'start', instruction: 'A blue page.', stepsLeft: 5 });
    assert.deepEqual('action' in d && d.action, { type: 'verify', path: '/', criteria: 'Check that the page does what the client asked for:\nA blue page.' });
    assert.equal(d.reasoning, 'Check it.');
    assert.equal(bed.fake.requests[0]!.body.messages[1]!.content, 'A blue page.');
  });

  test('a built-in task: one question, code, an audited verify that drives the page, finish', async () => {
    const dataset = await loadDataset('builtin');
    const c = dataset.cases.find((x) => x.id === 'tip-calculator_P-MIN')!;
    const siteDir = path.join('tasks', 'tip-calculator', 'site');
    const files = await Promise.all((await fs.readdir(siteDir)).sort().map(async (f) => ({ f, body: await fs.readFile(path.join(siteDir, f), 'utf8') })));
    const artifact = `<boltArtifact id="tip-calculator" title="Tip calculator">\n${files.map(({ f, body }) => `<boltAction type="file" filePath="${f}">${body}</boltAction>`).join('\n')}\n<boltAction type="shell">npm install && npm run dev</boltAction>\n</boltArtifact>`;
    const builder: FakeReply[] = [
      reply.text(ASK, usage(300, 40)),
      reply.text(`<think>Path B.</think>\n${artifact}`, usage(400, 900)),
      reply.text(VERIFY_WITH_FIX, usage(500, 80)),
      reply.text('<think>The audit passed.</think>\nAll done.\n<boltAction type="finish">', usage(600, 10)),
    ];
    const copilotRequests: RecordedRequest[] = [];
    bed.fake.script((req) => {
      if (req.body.model !== 'fake-copilot') return builder.shift() ?? reply.status(400, 'builder script used up');
      copilotRequests.push(req);
      const turn = copilotRequests.length;
      assert.match(schemaName(req) ?? '', /^verify_audit_/);
      if (turn === 1) return reply.json({ thought: 'Type the bill.', action: { kind: 'type', element: elementNumber(req, /Bill amount/), text: '100' } }, usage(1000, 30));
      if (turn === 2) return reply.json({ thought: 'Pick 20%.', action: { kind: 'click', element: elementNumber(req, /"20%"/) } }, usage(1000, 30));
      return reply.json({ thought: 'Total shows $120.00.', action: { kind: 'verdict', status: 'pass', report: 'Heading is "Split the Bill"; after 100 and 20% the total per person is $120.00.' } }, usage(1000, 40));
    });
    const agent = openai.create('paper', { clients: { agent: fakeClient(bed.fake), copilot: fakeClient(bed.fake, 'copilot') } });
    assert.equal(agent.name, 'openai:paper');
    assert.equal(agent.config.auditor, 'fake-copilot');
    const user = scriptedUser('10, 15 and 20 percent.');
    const { t, dir } = await episode(agent, bed.browser, { user, c, stepCap: STEP_CAPS[c.difficulty] });

    assert.equal(t.status, 'submitted', t.error);
    assert.deepEqual(t.counts, { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 0 });
    assert.deepEqual(user.questions, ['Which tip percentages should the buttons offer?']);
    assert.equal(t.questionBeforeCode, true);
    assert.match(t.steps[0]!.reasoning ?? '', /Path A/);
    assert.deepEqual(t.steps[1]!.shell, ['npm install && npm run dev']);
    assert.deepEqual(t.steps[2]!.written, ['notes.txt']);
    assert.deepEqual(t.files, ['app.js', 'index.html', 'notes.txt', 'style.css']);

    // The audit: the copilot really drove the page (its third view shows the computed total), every turn is kept.
    const audit = AuditRecordSchema.parse(t.steps[2]!.audit);
    assert.equal(audit.passed, true);
    assert.equal(audit.model, 'fake-copilot');
    assert.match(audit.criteria, /^1\. The heading/);
    assert.deepEqual(audit.turns.map((x) => x.action), ['type [' + elementNumber(copilotRequests[0]!, /Bill amount/) + '] "100"', `click [${elementNumber(copilotRequests[1]!, /"20%"/)}]`, 'verdict: pass']);
    assert.deepEqual(audit.turns.map((x) => x.outcome.split(';')[0]).slice(0, 2), ['typed', 'clicked']);
    assert.match(textOf(copilotRequests[0]!), /Total per person\n\$0\.00/);
    assert.match(textOf(copilotRequests[2]!), /Total per person\n\$120\.00/);
    for (const turn of audit.turns) assert.ok(existsSync(path.join(dir, turn.frame!)), `frame ${turn.frame} is on disk`);
    assert.ok(existsSync(path.join(dir, t.steps[2]!.screenshot!)));
    assert.deepEqual(audit.usage, { promptTokens: 3000, completionTokens: 100 });
    assert.deepEqual(t.copilotTokens, { promptTokens: 3000, completionTokens: 100 });
    assert.deepEqual(t.tokens, { promptTokens: 1800, completionTokens: 1030 });

    // What the builder was sent: the paper's rules without a step count, the audit and its last frame as a small low-detail JPEG.
    const agentReqs = bed.fake.requests.filter((r) => r.body.model === 'fake-agent');
    assert.equal(agentReqs.length, 4);
    assert.equal(agentReqs[0]!.body.max_tokens, 16000); // a local endpoint is sent max_tokens (llm/client.ts)
    const system = String(agentReqs[0]!.body.messages[0]!.content);
    assert.match(system, /type="ask_user"/);
    assert.match(system, /<TestCriteria>/);
    assert.match(system, /data-testid/);
    assert.doesNotMatch(JSON.stringify(agentReqs.map((r) => r.body.messages)), /Steps left|steps left/);
    const last = agentReqs[3]!.body.messages.at(-1)!;
    assert.match(JSON.stringify(last.content), /Visual audit of \/: PASSED[\s\S]*\$120\.00/);
    const parts = last.content as unknown as Array<{ type: string; image_url?: { url: string; detail?: string } }>;
    const picture = parts.find((p) => p.type === 'image_url')!;
    assert.equal(picture.image_url!.detail, 'low');
    assert.match(picture.image_url!.url, /^data:image\/jpeg;base64,/);
    const size = jpegSize(sentImages(agentReqs[3]!)[0]!);
    assert.ok(size.width <= 800 && size.height <= 800 && Math.max(size.width, size.height) === 800, JSON.stringify(size));
  });

  test('failed audits in a row end the episode as a verification deadlock at the limit for its difficulty; a pass resets the count', async () => {
    const c = makeCase();
    const limit = AUDIT_FAILURE_LIMITS[c.difficulty];
    assert.equal(limit, 6);
    const verify = '<TestCriteria>\n1. The heading is green.\n</TestCriteria>\n<boltAction type="screenshot_validated">/</boltAction>';
    const builder: FakeReply[] = [
      reply.text(`<boltArtifact id="b" title="b"><boltAction type="file" filePath="index.html">${SITE}</boltAction></boltArtifact>`),
      ...Array.from({ length: 12 }, () => reply.text(verify)),
    ];
    const verdicts = ['fail', 'pass', ...Array(limit).fill('fail')];
    let audits = 0;
    bed.fake.script((req) => {
      if (!schemaName(req)) return builder.shift()!;
      if (schemaName(req) === 'deadlock_analysis') {
        return reply.json({ summary: 'The heading never turned green.', rootCause: 'Every audit found a blue heading; the code was never changed.', category: 'visual-stagnation' });
      }
      const status = verdicts[audits++] ?? 'fail';
      return reply.json({ thought: 'Look at the heading.', action: { kind: 'verdict', status, report: status === 'pass' ? 'The heading is green.' : 'The heading is blue, not green.' } });
    });
    // No copilot configured: the agent's own model audits, as the paper's shipped config does.
    const agent = openai.create('paper', { clients: { agent: fakeClient(bed.fake) } });
    assert.equal(agent.config.auditor, 'fake-agent');
    const { t } = await episode(agent, bed.browser, { c, stepCap: STEP_CAPS[c.difficulty] });

    assert.equal(t.status, 'verification-deadlock', t.error);
    assert.equal(t.steps.length, 1 + 2 + limit);
    assert.equal(t.counts.verify, 2 + limit);
    assert.deepEqual(t.steps.slice(1).map((s) => s.audit!.failedInARow), [1, 0, 1, 2, 3, 4, 5, 6]);
    // The paper's post-mortem: the audit model reads the failed audits and the last frame; the builder never sees it.
    assert.deepEqual(t.deadlock, {
      failedInARow: 6,
      lastReport: 'The heading is blue, not green.',
      analysis: { summary: 'The heading never turned green.', rootCause: 'Every audit found a blue heading; the code was never changed.', category: 'visual-stagnation' },
    });
    const postMortem = bed.fake.requests.find((r) => schemaName(r) === 'deadlock_analysis')!;
    assert.match(JSON.stringify(postMortem.body.messages), /The heading is green[\s\S]*blue, not green/);
    assert.equal(sentImages(postMortem).length, 1);
    assert.equal(audits, 2 + limit);
    assert.equal(bed.fake.requests.filter((r) => !schemaName(r)).length, 1 + 2 + limit, 'the builder is not asked again after the deadlock');
    assert.deepEqual(t.copilotTokens, { promptTokens: 10 * (3 + limit), completionTokens: 5 * (3 + limit) });
    // The builder read each failure with its findings.
    const builderReqs = bed.fake.requests.filter((r) => !schemaName(r));
    assert.match(JSON.stringify(builderReqs.at(-1)!.body.messages.at(-1)), /FAILED[\s\S]*blue, not green/);
  });
});
