import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { ModelClient } from '../llm/client.js';
import { preflight, runNeeds } from '../llm/preflight.js';
import { foundModes, withModes } from '../llm/recorded-modes.js';
import type { Role, RoleConfigs } from '../config/roles.js';
import { forgetModes } from '../llm/structured-mode.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';

/**
 * The run's preflight learns the structured-output mode of every role that answers in structured replies,
 * the auditing copilot and the operator included, and a worker's clients start in that mode: against a
 * server that refuses json_schema, nothing a worker sends after the preflight is refused.
 */
let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});

const Audit = z.object({ passed: z.boolean(), notes: z.string() });

test('a json_schema-refusing server: after the preflight no worker request of any role is refused', async () => {
  fake.reset();
  fake.quirks({ refuseJsonSchema: true });
  fake.script((req) => {
    const body = JSON.stringify(req.body);
    if (body.includes('health_check')) return reply.json({ ok: true, colour: 'red' });
    return body.includes('audit') ? reply.json({ passed: true, notes: 'ok' }) : reply.text('OK');
  });
  const roles: RoleConfigs = Object.fromEntries(
    (['agent', 'copilot', 'user', 'judge', 'operator'] as Role[]).map((role) => [role, { role, model: `fake-${role}`, baseURL: fake.baseURL, apiKey: 'k' }]),
  );
  const needs = runNeeds(roles, 'openai:paper');
  assert.deepEqual(Object.keys(needs).sort(), ['agent', 'copilot', 'judge', 'operator', 'user']);
  assert.deepEqual([needs.copilot?.structured, needs.operator?.structured], [true, true], 'the auditor and the operator answer in structured replies');
  const report = await preflight(roles, needs, 5000);
  assert.ok(report.ok, JSON.stringify(report.roles.map((r) => r.problems)));
  const found = foundModes(report);
  for (const role of ['copilot', 'user', 'judge', 'operator']) assert.equal(found[`IWB_${role.toUpperCase()}_JSON_MODE`], 'json_object', `${role}: ${JSON.stringify(found)}`);

  // A worker: a fresh process (no mode remembered), its roles configured from what the preflight set.
  forgetModes();
  const before = fake.requests.length;
  const worker = withModes(roles, found);
  for (const role of ['copilot', 'user', 'judge', 'operator'] as Role[]) {
    const client = new ModelClient(worker[role]!, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5000 }, schemaRetries: 0 });
    const r = await client.structured([{ role: 'user', content: 'Audit the page.' }], Audit, 'audit');
    assert.ok(r.ok, `${role}: ${r.ok ? '' : r.error.message}`);
  }
  const sent = fake.requests.slice(before);
  assert.equal(sent.length, 4, 'one request per role');
  assert.equal(sent.filter((r) => r.body.response_format?.type === 'json_schema').length, 0, 'no request after the preflight is refused');
  assert.ok(fake.requests.slice(0, before).some((r) => r.body.response_format?.type === 'json_schema'), 'the preflight itself met the refusal');
});
