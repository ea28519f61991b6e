import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { stepUsageOf } from '../agent/step-usage.js';
import type { Trajectory } from '../agent/trajectory.js';
import { compareCommand } from '../cli/compare.js';
import { episodeUsage } from '../fixtures/usage.js';
import { ModelClient } from '../llm/client.js';
import { UsageMeter } from '../llm/usage.js';
import { formatMarkdown } from '../reporters/format.js';
import { renderSummary } from '../reporters/html-summary.js';
import { buildReport } from '../reporters/report.js';
import { capture } from './cli-capture.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import { episodeAnnotation, records } from './report-support.js';

/**
 * Unknown is not zero: a provider that answers without a usage object (Ollama, some llama.cpp builds) leaves
 * the role's tokens and cost unknown, from the model client to report.json, report.md, the summary page and
 * `iwb compare`, even when the model has a price.
 */
let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-usage-'));
});
after(async () => {
  await fake.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const PRICES = { 'fake-agent': { promptPerMTok: 1, completionPerMTok: 2 }, 'fake-judge': { promptPerMTok: 1, completionPerMTok: 2 } };
const client = (role: 'agent' | 'judge', meter?: UsageMeter) =>
  new ModelClient({ role, model: `fake-${role}`, baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5000 }, schemaRetries: 0, ...(meter ? { meter } : {}) });

/** The agent's tokens of one episode as a run records them, from one real call to the fake server. */
async function agentTokens(): Promise<Trajectory['tokens']> {
  fake.reset();
  fake.script(reply.text('<boltAction type="finish"></boltAction>'));
  return stepUsageOf((await client('agent').chat([{ role: 'user', content: 'Build it.' }])).usage);
}

function report(tokens: Trajectory['tokens']) {
  const t = { agent: { name: 'openai:paper', config: { model: 'fake-agent' } }, steps: [], tokens } as unknown as Trajectory;
  const usage = episodeUsage(t, {});
  const recs = records({ id: 't1_P-MIN', agent: 'openai:paper@fake-agent', positives: ['pass'] }).map((r) => ({ ...r, episode: episodeAnnotation({ agent: 'openai:paper@fake-agent', usage }) }));
  return buildReport(recs, { startedAt: 't', durationMs: 1, dataset: 'd', agents: ['openai:paper@fake-agent'], playwrightStatus: 'passed' }, { bootstrap: { resamples: 10, seed: 1, level: 0.95 }, prices: PRICES });
}

test('a provider without a usage object: the client says unknown, the meter prices nothing, structured calls too', async () => {
  fake.quirks({ noUsage: true });
  const meter = new UsageMeter(PRICES);
  fake.reset();
  fake.script(reply.text('hi'), reply.json({ ok: true }));
  const judge = client('judge', meter);
  assert.deepEqual((await judge.chat([{ role: 'user', content: 'hi' }])).usage, { prompt: 0, completion: 0, unknown: true });
  const r = await judge.structured([{ role: 'user', content: 'json' }], z.object({ ok: z.boolean() }), 'ok_check');
  assert.equal(r.usage.unknown, true);
  assert.equal(meter.get('judge').costUsd, undefined, 'priced model, unknown tokens: the cost is unknown');
});

test('no usage: report.json has null tokens and cost, report.md, the summary page and iwb compare say unknown', async () => {
  fake.quirks({ noUsage: true });
  const unknown = report(await agentTokens());
  assert.deepEqual(unknown.overall.usage.agent, { prompt: null, completion: null, costUsd: null });
  assert.equal(unknown.overall.costUsd, null);
  const md = formatMarkdown(unknown);
  assert.match(md, /agent unknown tok; cost unknown \(a provider gave no token usage\)/);
  assert.doesNotMatch(md, /\b0\.0000\b/);
  const html = renderSummary(unknown);
  assert.match(html, /<div class="v">unknown<\/div>/);
  assert.match(html, /unknown tokens/);
  const file = path.join(tmp, 'report.json');
  await fs.writeFile(file, JSON.stringify(unknown));
  const io = capture();
  assert.equal(await compareCommand([file], io), 0, io.errText());
  assert.match(io.outText(), /\bunknown\s*$/m);
  assert.doesNotMatch(io.outText(), /0\.0000/);

  // The same call with a usage object: known tokens and a price give a cost.
  fake.quirks({});
  const known = report(await agentTokens());
  assert.deepEqual(known.overall.usage.agent, { prompt: 10, completion: 5, costUsd: (10 * 1 + 5 * 2) / 1e6 });
  assert.match(formatMarkdown(known), /agent 15 tok; \$0\.0000/);
});
