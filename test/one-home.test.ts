import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { GENERATED_TABLES, withTable, type GeneratedTable } from '../cli/docs.js';
import { CASE_VALUE } from '../reporters/aggregate.js';
import { fmt } from '../reporters/format.js';
import { METRIC_KEYS, METRIC_ROWS } from '../reporters/metric-table.js';
import { AggregateSchema } from '../reporters/report-schema.js';
import { PERSONAS } from '../slots/schema.js';
import { personaSpecFile } from '../specs/cases.js';

const ROOT = path.resolve(import.meta.dirname, '..');

for (const [name, { file, source, render }] of Object.entries(GENERATED_TABLES) as [GeneratedTable, (typeof GENERATED_TABLES)[GeneratedTable]][]) {
  test(`generated docs: ${file} carries the ${name} table from ${source} unchanged (run \`npx iwb docs ${name} --write\`)`, async () => {
    const page = await fs.readFile(path.join(ROOT, file), 'utf8');
    const table = await render();
    assert.ok(table.split('\n').length > 10, `the ${name} table has rows`);
    assert.equal(withTable(page, name, table), page);
  });
}

test('generated docs: a drifted table is caught, and a page without markers is an error naming the file', () => {
  const page = '# t\n\n<!-- metrics:begin x -->\n| old |\n<!-- metrics:end -->\n';
  assert.notEqual(withTable(page, 'metrics', '| new |'), page);
  assert.equal(withTable(withTable(page, 'metrics', '| new |'), 'metrics', '| new |'), withTable(page, 'metrics', '| new |'));
  assert.throws(() => withTable('# t\n', 'settings', '| x |'), /docs\/configuration\.md: the markers/);
});

test('metric table: every row reaches the report schema, the per-case values and the formatter', () => {
  const shape = AggregateSchema.shape;
  for (const k of METRIC_KEYS) {
    assert.ok(k in shape, `${k} is a field of an aggregate`);
    assert.ok(k in shape.ci.shape, `${k} has an interval`);
    assert.equal(typeof CASE_VALUE[k], 'function', `${k} has a per-case value`);
  }
  // A share prints in percent, whatever row it is: the mistake a hand-kept PERCENT list let through.
  const a = AggregateSchema.parse({
    ...Object.fromEntries(METRIC_KEYS.map((k) => [k, 0.5])),
    ci: Object.fromEntries(METRIC_KEYS.map((k) => [k, null])),
    n: Object.fromEntries(METRIC_KEYS.map((k) => [k, 1])),
    cases: 1, blindCases: 0, judgedSlots: 1, unjudgedSlots: 0, erroredSlots: 0, erroredCases: 0, usage: {}, costUsd: null,
  });
  for (const m of METRIC_ROWS) assert.equal(fmt(a, m.key), m.unit === 'percent' ? '50.0' : (0.5).toFixed(m.digits), m.key);
});

/** Import specifiers of every .ts file under a folder. */
async function importsOf(dir: string): Promise<{ file: string; spec: string }[]> {
  const out: { file: string; spec: string }[] = [];
  for (const name of await fs.readdir(path.join(ROOT, dir), { recursive: true })) {
    if (!name.endsWith('.ts')) continue;
    const text = await fs.readFile(path.join(ROOT, dir, name), 'utf8');
    for (const m of text.matchAll(/from '([^']+)'/g)) out.push({ file: `${dir}/${name}`, spec: m[1]! });
  }
  return out;
}

test('layering: protocol/ imports nothing of the pipeline, and judge/ does not import reporters/', async () => {
  const protocol = (await importsOf('protocol')).filter((i) => i.spec.startsWith('..'));
  assert.deepEqual(protocol, [], 'protocol/ is the bottom of the house');
  const stats = (await importsOf('stats')).filter((i) => i.spec.startsWith('..'));
  assert.deepEqual(stats, [], 'stats/ (the shared bootstrap) sits below judge/ and reporters/');
  const judge = (await importsOf('judge')).filter((i) => i.spec.includes('/reporters/'));
  assert.deepEqual(judge, []);
});

test('layering: no production folder imports a module from test/, and only config/ reads process.env', async () => {
  const folders = ['agent', 'cli', 'config', 'fixtures', 'judge', 'llm', 'personas', 'protocol', 'reporters', 'sandbox', 'site', 'slots', 'specs', 'stats'];
  const present = (await fs.readdir(ROOT, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const imports = (await Promise.all(folders.filter((f) => present.includes(f)).map(importsOf))).flat();
  assert.deepEqual(imports.filter((i) => i.spec.startsWith('.') && /(^|\/)test\//.test(i.spec)), [], 'test-only modules (the fake server, the example task) stay under test/');
  const readers: string[] = [];
  for (const dir of folders.filter((f) => f !== 'config' && present.includes(f))) {
    for (const name of await fs.readdir(path.join(ROOT, dir), { recursive: true })) {
      if (name.endsWith('.ts') && (await fs.readFile(path.join(ROOT, dir, name), 'utf8')).includes('process.env')) readers.push(`${dir}/${name}`);
    }
  }
  assert.deepEqual(readers, [], 'read the environment through config/env.ts');
});

test("layering: the openai SDK is loaded on first use only (llm/openai-sdk.ts), never by a module's top-level import", async () => {
  const folders = ['agent', 'bench', 'cli', 'config', 'fixtures', 'judge', 'llm', 'personas', 'protocol', 'reporters', 'sandbox', 'site', 'slots', 'specs', 'stats'];
  const present = (await fs.readdir(ROOT, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const eager: string[] = [];
  for (const dir of folders.filter((f) => present.includes(f))) {
    for (const name of await fs.readdir(path.join(ROOT, dir), { recursive: true })) {
      if (!name.endsWith('.ts')) continue;
      const text = await fs.readFile(path.join(ROOT, dir, name), 'utf8');
      if (/^import (?!type )[^;]*from 'openai';/m.test(text)) eager.push(`${dir}/${name}`);
    }
  }
  assert.deepEqual(eager, [], 'a worker restarted after a failed slot would load some 190 modules it may never use');
});

test('specs: each persona has exactly one spec file, declaring that persona and no other (the projects run them by testMatch)', async () => {
  const specs = (await fs.readdir(path.join(ROOT, 'specs'))).filter((f) => f.endsWith('.spec.ts')).sort();
  assert.deepEqual(specs, PERSONAS.map(personaSpecFile).sort());
  for (const persona of PERSONAS) {
    const text = await fs.readFile(path.join(ROOT, 'specs', personaSpecFile(persona)), 'utf8');
    assert.deepEqual([...text.matchAll(/declareSlotTests\('([^']+)'\)/g)].map((m) => m[1]), [persona], personaSpecFile(persona));
  }
});
