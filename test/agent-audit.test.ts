import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { adapter as openai } from '../agent/adapters/openai.js';
import { parseArtifactReply } from '../agent/builtin/artifact-parser.js';
import { checkTrajectory } from '../agent/trajectory-schema.js';
import { HarnessMessageSchema, parseAgentLine, toHarnessMessage } from '../agent/command/command-protocol.js';
import { reply, schemaName, type FakeReply } from '../testkit/fake-server.js';
import { caseResults } from '../reporters/metrics.js';
import { EpisodeAnnotationSchema } from '../protocol/annotations.js';
import { buildReport } from '../reporters/report.js';
import { ReportSchema } from '../reporters/report-schema.js';
import { resolveAgent } from '../agent/registry.js';
import { getEpisode } from '../fixtures/episode-cache.js';
import { agentTestbed, episode, fakeClient, makeCase, PNG_SIGNATURE, scriptedUser, sentImages, SITE, tempDir } from './agent-support.js';
import { episodeAnnotation, records } from './report-support.js';

const bed = agentTestbed();

const tool = (name: string, args: unknown): FakeReply => reply.tools([{ name, arguments: args, id: `call_${name}` }]);

describe('verify audits in the other protocols', () => {
  test('tools: a verify with criteria is audited by the agent model when no copilot is set; one without is a screenshot', async () => {
    const builder = [
      tool('implement', { files: [{ path: 'index.html', content: SITE }] }),
      tool('verify', { path: '/', criteria: '1. The heading is green.' }),
      tool('verify', { path: '/', criteria: null }),
      tool('submit', {}),
    ];
    bed.fake.script((req) =>
      schemaName(req) === 'verify_audit_step'
        ? reply.json({ thought: 'The heading is blue.', action: { kind: 'verdict', status: 'fail', report: 'Criterion 1 fails: the heading is blue.' } }, { usage: { prompt_tokens: 70, completion_tokens: 7 } })
        : builder.shift()!,
    );
    const agent = openai.create(undefined, { clients: { agent: fakeClient(bed.fake) } });
    const { t } = await episode(agent, bed.browser);
    assert.equal(t.status, 'submitted', t.error);
    assert.equal(t.steps[1]!.audit?.passed, false);
    assert.equal(t.steps[1]!.audit?.model, 'fake-agent');
    assert.deepEqual(t.steps[1]!.args, { path: '/', criteria: '1. The heading is green.' });
    assert.match(t.steps[1]!.observation, /audit of \/ failed \(1\/6 failed in a row\)/);
    assert.equal(t.steps[2]!.audit, undefined, 'no criteria: a plain screenshot');
    assert.deepEqual(t.copilotTokens, { promptTokens: 70, completionTokens: 7 });
    // Read back from disk, the audit record is checked; a broken one is named by file, step and field.
    checkTrajectory(JSON.parse(JSON.stringify(t)), 'trajectory.json');
    const broken = JSON.parse(JSON.stringify(t));
    broken.steps[1].audit.passed = 'yes';
    assert.throws(() => checkTrajectory(broken, 'run/x/trajectory.json'), /run\/x\/trajectory\.json: step 1: field audit\.passed/);

    const agentReqs = bed.fake.requests.filter((r) => !schemaName(r));
    const verifyTool = agentReqs[0]!.body.tools?.find((x) => x.function.name === 'verify') as unknown as { function: { parameters: { properties: Record<string, unknown> } } };
    assert.ok('criteria' in verifyTool.function.parameters.properties);
    const answer = agentReqs[2]!.body.messages.find((m) => m.tool_call_id === 'call_verify');
    assert.match(String(answer?.content), /Visual audit of \/: FAILED[\s\S]*heading is blue[\s\S]*Failed audits in a row: 1 of 6/);
    assert.ok(sentImages(agentReqs[2]!)[0]!.subarray(0, 8).equals(PNG_SIGNATURE), 'the last frame goes back as a PNG outside the paper protocol');
  });

  test('artifact protocol: a <TestCriteria> block makes the verify an audit', () => {
    const r = parseArtifactReply('<TestCriteria>\n1. The list shows three books.\n</TestCriteria>\n<screenshot_validated path="/list.html"/>');
    assert.deepEqual('action' in r && r.action, { type: 'verify', path: '/list.html', criteria: '1. The list shows three books.' });
  });

  test('command protocol: verify takes criteria, the verified message carries the audit', () => {
    const line = parseAgentLine('{"type":"verify","path":"/","criteria":"1. A list is shown."}');
    assert.deepEqual('action' in line && line.action, { type: 'verify', path: '/', criteria: '1. A list is shown.' });
    assert.match(JSON.stringify(parseAgentLine('{"type":"verify","criteria":""}')), /not a valid action/);
    const message = toHarnessMessage({
      type: 'verified', path: '/', title: 'T', screenshotPng: Buffer.from('x'), screenshotFile: 'shots/a.png', screenshotPath: '/tmp/a.png',
      consoleErrors: [], siteErrors: [], stepsLeft: 3, audit: { passed: false, report: 'Visual audit of /: FAILED', failedInARow: 2, failureLimit: 8 },
    });
    assert.deepEqual(HarnessMessageSchema.parse(JSON.parse(JSON.stringify(message))).type === 'verified' && message.type === 'verified' && message.audit?.failedInARow, 2);
  });

  test('a verification deadlock reaches report.json apart from step-cap and submitted', () => {
    const deadlocked = EpisodeAnnotationSchema.parse(JSON.parse(JSON.stringify(episodeAnnotation({ agent: 'a1', status: 'verification-deadlock' }))));
    const slots = [
      ...records({ id: 'a_P-MIN', agent: 'a1', positives: ['fail', 'pass'] }).map((r) => ({ ...r, episode: deadlocked })),
      ...records({ id: 'b_P-MIN', agent: 'a1', positives: ['pass'] }),
      ...records({ id: 'c_P-MIN', agent: 'a1', positives: ['fail'] }).map((r) => ({ ...r, episode: episodeAnnotation({ status: 'step-cap' }) })),
    ];
    const report = ReportSchema.parse(JSON.parse(JSON.stringify(buildReport(slots, { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'passed' }))));
    assert.deepEqual(report.episodes.byStatus, { 'verification-deadlock': 1, submitted: 1, 'step-cap': 1 });
    assert.equal(report.cases.find((c) => c.id === 'a_P-MIN')!.episodeStatus, 'verification-deadlock');
    assert.equal(caseResults(slots)[0]!.submitted, false);
    assert.equal(report.overall.submitRate, 1 / 3);
  });

  test('a cached trajectory is checked when read back: a bad status is named with its file, and the episode runs again', async () => {
    const req = { case: makeCase(), agent: (await resolveAgent('null')).agent, browser: bed.browser, user: scriptedUser('x'), runDir: await tempDir('cache'), stepCap: 5 };
    const first = await getEpisode(req);
    assert.equal((await getEpisode(req)).cached, true);
    const file = path.join(first.dir, 'trajectory.json');
    await fs.writeFile(file, JSON.stringify({ ...first.trajectory, status: 'gave-up' }));
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (m: string) => warned.push(m);
    try {
      const again = await getEpisode(req);
      assert.equal(again.cached, false, 'a corrupt record is not trusted');
      assert.equal(again.trajectory.status, first.trajectory.status);
    } finally {
      console.warn = warn;
    }
    assert.match(warned.join('\n'), new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: field status`));
  });
});
