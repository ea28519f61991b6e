import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UsageError } from '../cli/io.js';
import { capture } from './cli-capture.js';
import { personasCommand } from '../cli/personas.js';
import { reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';
import { loadDataset } from '../slots/load.js';
import { leakDataset } from './leak-dataset.js';

/** The fake models' scripts change from test to test: recorded model calls must not answer for them. */
const NO_CALL_CACHE = { IWB_LLM_CACHE: 'off' };

let dir: string;
let fake: FakeServer;
/** Two built-in tasks for the model paths (test/leak-dataset.ts); the offline battery runs on every built-in case. */
let small: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'iwb-personas-'));
  fake = await start();
  small = await leakDataset(dir);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
  await fake.close();
});

describe('iwb personas', () => {
  test('mutate --offline writes a dataset that loads again, identical for the same seed', async () => {
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    const io = capture();
    assert.equal(await personasCommand(['mutate', 'builtin', '--offline', '--seed', '4', '--out', a], io, {}), 0);
    assert.equal(await personasCommand(['mutate', 'builtin', '--offline', '--seed', '4', '--out', b], capture(), {}), 0);
    assert.equal(await readFile(a, 'utf8'), await readFile(b, 'utf8'));
    const builtin = await loadDataset('builtin');
    const mutated = await loadDataset(a);
    assert.equal(mutated.cases.length, builtin.tasks.length * 4);
    for (const c of mutated.cases) {
      const d = c.task.personas[c.persona]?.degradation;
      assert.ok(d, c.id);
      if (c.persona === 'P-MIN') assert.equal(d.omits.length, c.slots.length);
      if (c.persona === 'P-CON') assert.equal(d.contradicts.length, 1);
    }
    assert.match(io.outText(), /wrote \d+ records/);
  });

  test('mutate through the operator role uses the model and records its method', async () => {
    fake.reset();
    fake.script((req) => {
      if (!schemaName(req)) return reply.text('OK');
      if (schemaName(req) === 'health_check') return reply.json({ ok: true, colour: 'red' });
      assert.equal(schemaName(req), 'degraded_instruction');
      const ids = [...String(req.body.messages[0]?.content).matchAll(/^- ([\w.-]+):/gm)].map((m) => m[1]!);
      const persona = /Persona: (\w+)/.exec(String(req.body.messages[0]?.content))?.[1];
      const contradicts = persona === 'Contradictory' ? [ids[0]] : [];
      const omits = persona === 'Minimalist' ? ids : [];
      return reply.json({ instruction: `A ${persona} rewrite.`, omits, blurs: [], contradicts });
    });
    const out = path.join(dir, 'llm.jsonl');
    const env = { ...NO_CALL_CACHE, IWB_OPERATOR_MODEL: 'fake-op', IWB_OPERATOR_BASE_URL: fake.baseURL };
    assert.equal(await personasCommand(['mutate', 'builtin', '--out', out], capture(), env), 0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { mutation: { method: string }; instruction: string });
    assert.ok(lines.every((l) => l.mutation.method === 'llm'));
    assert.match(lines[0]!.instruction, /rewrite/);
    assert.equal(fake.requests.at(-1)!.body.model, 'fake-op');
  });

  const userModel = (retrieval: 'good' | 'broken') => () => {
    fake.script((req) => {
      const name = schemaName(req);
      if (name === 'health_check') return reply.json({ ok: true, colour: 'red' });
      if (name === 'retrieve_slots') return retrieval === 'good' ? reply.json({ slot_ids: [], asks_for_everything: false }) : reply.text('I cannot help with that.');
      if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
      return reply.text('OK');
    });
  };

  test('leak-test through a DeepSeek-like user endpoint (json_schema refused) measures, and exits 0', async () => {
    fake.reset();
    fake.quirks({ refuseJsonSchema: true });
    userModel('good')();
    const io = capture();
    const code = await personasCommand(['leak-test', small, '--json'], io, { ...NO_CALL_CACHE, IWB_USER_MODEL: 'deepseek-chat', IWB_USER_BASE_URL: fake.baseURL });
    const report = JSON.parse(io.outText()) as { ok: boolean; erroredTurns: number };
    assert.equal(code, 0, io.errText());
    assert.equal(report.erroredTurns, 0);
    fake.quirks({});
  });

  test('leak-test exits non-zero when over 5% of turns errored: its rates are then not a measurement', async () => {
    fake.reset();
    userModel('broken')();
    const io = capture();
    const code = await personasCommand(['leak-test', small, '--json'], io, { ...NO_CALL_CACHE, IWB_USER_MODEL: 'm', IWB_USER_BASE_URL: fake.baseURL });
    assert.equal(code, 1);
    assert.equal((JSON.parse(io.outText()) as { ok: boolean }).ok, false);
    assert.match(io.errText(), /turns errored/);
  });

  test('leak-test with the user endpoint down stops at the preflight, naming the variable', async () => {
    const io = capture();
    const code = await personasCommand(['leak-test', 'builtin'], io, { ...NO_CALL_CACHE, IWB_USER_MODEL: 'm', IWB_USER_BASE_URL: 'http://127.0.0.1:9/v1' });
    assert.equal(code, 1);
    assert.match(io.errText(), /IWB_USER_BASE_URL/);
    assert.equal(io.outText(), '');
  });

  test('leak-test --json reports every persona', async () => {
    const io = capture();
    assert.equal(await personasCommand(['leak-test', 'builtin', '--json'], io, {}), 0);
    const report = JSON.parse(io.outText()) as { mode: string; byPersona: Record<string, Record<string, number>> };
    assert.equal(report.mode, 'offline');
    assert.deepEqual(Object.keys(report.byPersona).sort(), ['P-CON', 'P-INT', 'P-MIN', 'P-RAM']);
    for (const s of Object.values(report.byPersona)) {
      for (const k of ['leakRate', 'hitRate', 'refusalRate', 'questions', 'meanAnswerLength']) assert.equal(typeof s[k], 'number', k);
      assert.ok(s.leakRate! <= 0.1, `leak rate ${s.leakRate}`);
      assert.ok(s.refusalRate! > 0, 'the adversarial question is refused');
    }
    assert.ok(report.byPersona['P-MIN']!.hitRate! > report.byPersona['P-RAM']!.hitRate!);
  });

  test('bad usage is a UsageError', async () => {
    await assert.rejects(personasCommand(['mutate', 'builtin'], capture(), {}), UsageError);
    await assert.rejects(personasCommand(['frobnicate', 'builtin'], capture(), {}), UsageError);
    await assert.rejects(personasCommand(['mutate', 'builtin', '--seed', 'x', '--out', 'o'], capture(), {}), UsageError);
  });
});
