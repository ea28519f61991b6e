import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { adapter as openai } from '../agent/adapters/openai.js';
import { listAdapters, resolveAgent } from '../agent/registry.js';
import { startSite } from '../site/site.js';
import { runProbe } from '../judge/probe-runner.js';
import { reply, type FakeReply } from '../testkit/fake-server.js';
import { ProbeSchema } from '../slots/probe-schema.js';
import { agentTestbed, episode, fakeClient, PNG_SIGNATURE, scriptedUser, sentImages, SITE, STYLE } from './agent-support.js';

const bed = agentTestbed();

const tool = (name: string, args: unknown, usage = { prompt_tokens: 100, completion_tokens: 20 }): FakeReply => ({
  ...reply.tools([{ name, arguments: args, id: `call_${name}` }]),
  usage,
});
const agentOf = (copilot = false) =>
  openai.create(undefined, { clients: { agent: fakeClient(bed.fake), ...(copilot ? { copilot: fakeClient(bed.fake, 'copilot') } : {}) } });

describe('the openai agent, tool calling', () => {
  test('asks, implements, verifies with a real PNG, submits; the built site passes a probe', async () => {
    bed.fake.script(
      tool('clarify', { question: 'What is the bakery called?' }),
      tool('implement', { files: [{ path: 'index.html', content: SITE }, { path: 'style.css', content: STYLE }] }),
      tool('verify', { path: '/' }),
      tool('submit', {}, { prompt_tokens: 7, completion_tokens: 1 }),
    );
    const user = scriptedUser('Crumb & Co, and the heading in blue.');
    const { t, dir } = await episode(agentOf(), bed.browser, { user });

    assert.equal(t.status, 'submitted', t.error);
    assert.deepEqual(t.counts, { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 0 });
    assert.equal(t.questionBeforeCode, true);
    assert.deepEqual(user.questions, ['What is the bakery called?']);
    assert.deepEqual(t.tokens, { promptTokens: 307, completionTokens: 61 });
    assert.deepEqual(t.steps[0]!.usage, { promptTokens: 100, completionTokens: 20 });
    assert.deepEqual(t.files, ['index.html', 'style.css']);

    const reqs = bed.fake.requests;
    assert.equal(reqs.length, 4);
    assert.deepEqual(reqs[0]!.body.tools?.map((x) => x.function.name), ['clarify', 'implement', 'verify', 'submit']);
    assert.equal(reqs[0]!.body.messages[0]!.role, 'system');
    assert.match(String(reqs[0]!.body.messages[0]!.content), /one tool call per reply/);
    assert.match(String(reqs[0]!.body.messages[1]!.content), /I want a page for my bakery/);
    // Each tool call is answered by a tool message carrying its id.
    const answered = reqs[1]!.body.messages.at(-1)!;
    assert.equal(answered.role, 'tool');
    assert.equal(answered.tool_call_id, 'call_clarify');
    assert.match(String(answered.content), /Crumb & Co, and the heading in blue/);
    assert.match(String(reqs[2]!.body.messages.at(-1)!.content), /Written: index\.html, style\.css[\s\S]*loaded without errors/);

    const images = sentImages(reqs[3]!);
    assert.equal(images.length, 1, 'the verify observation carries one screenshot');
    assert.ok(images[0]!.subarray(0, 8).equals(PNG_SIGNATURE), 'the image_url part is a PNG');
    assert.ok(images[0]!.length > 1000);
    const toolAnswer = reqs[3]!.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_verify');
    assert.match(String(toolAnswer?.content), /Opened \/; page title: "Crumb & Co"/);

    const shot = t.steps[2]!.screenshot!;
    assert.ok((await fs.readFile(path.join(dir, shot))).subarray(0, 8).equals(PNG_SIGNATURE));

    const site = await startSite(path.join(dir, 'workspace'));
    const context = await bed.browser.newContext();
    try {
      const probe = ProbeSchema.parse({
        steps: [
          { expect: 'title', contains: 'Crumb' },
          { expect: 'text', target: { role: 'heading' }, contains: 'Crumb & Co' },
          { expect: 'css', target: { css: 'h1' }, property: 'color', equals: 'rgb(0, 0, 255)' },
        ],
      });
      const r = await runProbe(await context.newPage(), site.url, probe);
      assert.ok(r.passed, r.evidence);
    } finally {
      await context.close();
      await site.close();
    }
  });

  test('only the latest screenshot stays in the conversation', async () => {
    bed.fake.script(
      tool('implement', { files: [{ path: 'index.html', content: SITE }] }),
      tool('verify', {}),
      tool('verify', { path: '/' }),
      tool('submit', {}),
    );
    const { t } = await episode(agentOf(), bed.browser);
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(sentImages(bed.fake.requests[3]!).length, 1);
    assert.match(JSON.stringify(bed.fake.requests[3]!.body.messages), /earlier screenshot, removed/);
  });

  test('a model that never submits hits the step cap', async () => {
    bed.fake.script(() => tool('clarify', { question: 'And what else?' }));
    const { t } = await episode(agentOf(), bed.browser, { stepCap: 3 });
    assert.equal(t.status, 'step-cap');
    assert.equal(t.steps.length, 3);
    assert.equal(bed.fake.requests.length, 3);
    assert.match(String(bed.fake.requests[2]!.body.messages.at(-1)!.content), /Steps left: 1 \(this is your last action/);
  });

  test('malformed, schema-breaking, multiple and missing tool calls each cost a step', async () => {
    bed.fake.script(
      reply.tools([{ name: 'implement', arguments: '{"files": [', id: 'bad_json' }]),
      reply.tools([{ name: 'implement', arguments: { files: [{ path: 3 }] }, id: 'bad_schema' }]),
      reply.tools([
        { name: 'clarify', arguments: { question: 'a?' }, id: 'two_a' },
        { name: 'verify', arguments: {}, id: 'two_b' },
      ]),
      reply.text('I think I will build it now.'),
      reply.tools([{ name: 'deploy', arguments: {}, id: 'unknown' }]),
      tool('submit', {}),
    );
    const { t } = await episode(agentOf(), bed.browser);
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(t.counts.invalid, 5);
    assert.equal(t.counts.clarify, 0);
    const last = (i: number) => bed.fake.requests[i]!.body.messages;
    assert.match(String(last(1).at(-1)!.content), /not valid JSON/);
    assert.equal(last(1).at(-1)!.tool_call_id, 'bad_json');
    assert.match(String(last(2).at(-1)!.content), /do not match its schema/);
    const answers = last(3).filter((m) => m.role === 'tool' && String(m.tool_call_id).startsWith('two_'));
    assert.equal(answers.length, 2, 'both calls of a multi-call reply get an answer');
    assert.match(String(answers[0]!.content), /called 2 tools/);
    assert.equal(last(4).at(-1)!.role, 'user');
    assert.match(String(last(4).at(-1)!.content), /called no tool/);
    assert.match(String(last(5).at(-1)!.content), /no tool named "deploy"/);
    assert.match(t.steps[0]!.observation, /error: .*not valid JSON/);
  });

  test('a 500 that never ends is retried, then the episode is errored', async () => {
    bed.fake.script(() => reply.status(500, 'upstream broke'));
    const { t } = await episode(agentOf(), bed.browser);
    assert.equal(t.status, 'errored');
    assert.match(t.error ?? '', /InfraError.*gave up after 3 attempt/);
    assert.equal(bed.fake.requests.length, 3);
    assert.equal(t.steps.length, 0);
  });

  test('a write to ../outside is refused and reported; nothing lands outside the workspace', async () => {
    bed.fake.script(
      tool('implement', { files: [{ path: '../outside.txt', content: 'x' }, { path: '/tmp/abs.txt', content: 'x' }, { path: 'index.html', content: SITE }] }),
      tool('submit', {}),
    );
    const { t, dir } = await episode(agentOf(), bed.browser);
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(existsSync(path.join(dir, 'outside.txt')), false);
    assert.deepEqual(t.files, ['index.html']);
    const told = String(bed.fake.requests[1]!.body.messages.at(-1)!.content);
    assert.match(told, /Refused:[\s\S]*\.\.\/outside\.txt: "\.\." is refused[\s\S]*absolute paths are refused/);
    assert.match(t.steps[0]!.observation, /errors: write \.\.\/outside\.txt/);
  });

  test('with a copilot, the agent reads a description instead of the image', async () => {
    bed.fake.script(async (req) => {
      if (req.body.model === 'fake-copilot') return { ...reply.text('A white page with a blue heading "Crumb & Co".'), usage: { prompt_tokens: 900, completion_tokens: 30 } };
      const n = bed.fake.requests.filter((r) => r.body.model === 'fake-agent').length;
      if (n === 1) return tool('implement', { files: [{ path: 'index.html', content: SITE }, { path: 'style.css', content: STYLE }] });
      if (n === 2) return tool('verify', { path: '/' });
      return tool('submit', {});
    });
    const { t } = await episode(agentOf(true), bed.browser);
    assert.equal(t.status, 'submitted', t.error);
    const agentReqs = bed.fake.requests.filter((r) => r.body.model === 'fake-agent');
    const copilotReqs = bed.fake.requests.filter((r) => r.body.model === 'fake-copilot');
    assert.equal(copilotReqs.length, 1);
    assert.ok(sentImages(copilotReqs[0]!)[0]!.subarray(0, 8).equals(PNG_SIGNATURE));
    assert.match(String(copilotReqs[0]!.body.messages[0]!.content), /eyes of a web developer/);
    assert.equal(agentReqs.flatMap(sentImages).length, 0, 'the text-only agent is sent no image');
    assert.match(JSON.stringify(agentReqs[2]!.body.messages.at(-1)), /described by a vision model[\s\S]*blue heading/);
    assert.deepEqual(t.steps[2]!.copilotUsage, { promptTokens: 900, completionTokens: 30 });
    assert.deepEqual(t.copilotTokens, { promptTokens: 900, completionTokens: 30 });
    assert.deepEqual(t.tokens, { promptTokens: 300, completionTokens: 60 });
  });

  test('selection: openai needs an agent model; the protocol and models key the cache', async () => {
    const names = (await listAdapters()).map((a) => a.name);
    for (const n of ['command', 'null', 'openai', 'reference']) assert.ok(names.includes(n), n);
    await assert.rejects(resolveAgent('openai', { clients: {} }), /needs an agent model: set IWB_AGENT_MODEL/);
    await assert.rejects(resolveAgent('openai:fax', { clients: { agent: fakeClient(bed.fake) } }), /unknown protocol "fax"/);
    const tools = (await resolveAgent('openai', { clients: { agent: fakeClient(bed.fake) } })).agent;
    const text = (await resolveAgent('openai:artifact', { clients: { agent: fakeClient(bed.fake) } })).agent;
    assert.equal(tools.config.protocol, 'tools');
    assert.equal(text.config.protocol, 'artifact');
    assert.equal(text.name, 'openai:artifact');
    assert.equal(tools.config.model, 'fake-agent');
    assert.equal(tools.config.copilot, null);
    assert.match(String(tools.config.prompts), /^[0-9a-f]{12}$/);
  });
});
