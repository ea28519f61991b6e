import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { protocolJsonSchemaText } from '../agent/command/protocol-json-schema.js';
import { resolveAgent } from '../agent/registry.js';
import { episode, launchBrowser, removeTempDirs, scriptedUser } from './agent-support.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await Promise.all([browser.close(), removeTempDirs()]);
});

test('examples/echo_agent.py: a Python agent runs an episode end to end, named by IWB_AGENT_NAME, its stderr kept', async () => {
  const { agent } = await resolveAgent('command:python3 examples/echo_agent.py', { clients: {}, cwd: ROOT, env: process.env, agentName: 'py-echo' });
  assert.equal(agent.name, 'py-echo');
  const { t, dir } = await episode(agent, browser, { user: scriptedUser('Show our opening hours.') });
  assert.equal(t.status, 'submitted', t.error);
  assert.deepEqual(t.counts, { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 0 });
  assert.equal(t.steps[3]!.note, 'title Echo agent; png true', 'it read the screenshot inline and on disk');
  assert.match(await fs.readFile(path.join(dir, 'agent-stderr.log'), 'utf8'), /\[echo_agent\.py\] saw "Echo agent", screenshot is a PNG/);
  const html = await fs.readFile(path.join(dir, 'workspace', 'index.html'), 'utf8');
  assert.match(html, /<span id="answer">Show our opening hours\.<\/span>/);
});

test('examples/command-protocol.schema.json is the JSON Schema generated from the zod schemas (npx iwb protocol schema --out ...)', async () => {
  const committed = await fs.readFile(path.join(ROOT, 'examples/command-protocol.schema.json'), 'utf8');
  assert.equal(committed, protocolJsonSchemaText(), 'regenerate: npx iwb protocol schema --out examples/command-protocol.schema.json');
  const schema = JSON.parse(committed) as { $defs: { agentLine: { oneOf: { properties: Record<string, unknown> }[] } } };
  const types = schema.$defs.agentLine.oneOf.map((o) => (o.properties.type as { const: string }).const);
  assert.deepEqual(types, ['clarify', 'implement', 'verify', 'submit', 'hello']);
  assert.ok(schema.$defs.agentLine.oneOf.slice(0, 4).every((o) => 'usage' in o.properties && 'note' in o.properties), 'every action may carry usage and note');
});
