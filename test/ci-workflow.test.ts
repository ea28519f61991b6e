import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { readSettings } from '../config/settings.js';
import { ROOT } from './bench-support.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  container?: string;
  strategy?: { matrix: { shard: number[] } };
  steps: Step[];
}

/**
 * The workflow cannot run here, so this checks that it parses and agrees with the repository: the reporter
 * file, the npm scripts and the cache folder it names exist. `yaml` comes with the Allure CLI; the test is
 * skipped rather than adding a YAML parser just for it.
 */
async function loadYaml(): Promise<((text: string) => unknown) | undefined> {
  const name = 'yaml';
  try {
    return ((await import(name)) as { parse: (text: string) => unknown }).parse;
  } catch {
    return undefined;
  }
}

const parse = await loadYaml();

test('.github/workflows/benchmark.yml parses and matches the repository', { skip: parse ? false : 'no YAML parser in node_modules' }, () => {
  const text = readFileSync(path.join(ROOT, '.github/workflows/benchmark.yml'), 'utf8');
  const wf = parse!(text) as { on: Record<string, unknown>; jobs: Record<string, Job> };
  assert.ok('workflow_dispatch' in wf.on);
  const { shard, merge } = wf.jobs as { shard: Job; merge: Job };

  const shards = shard.strategy!.matrix.shard;
  assert.deepEqual(shards, shards.map((_, i) => i + 1), 'shards are numbered 1..n');
  assert.ok(shards.length > 1);
  assert.equal(shard.container, 'debian:bookworm');
  const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');
  assert.match(runs(shard), /apt-get install[^\n]*(\\\n[^\n]*)*\bchromium chromium-headless-shell\b/);
  assert.match(runs(shard), /npx playwright test[\s\S]*--shard \$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\}[\s\S]*--reporter=blob/);
  assert.match(runs(shard), /npm ci/);

  const cachePaths = shard.steps.filter((s) => s.uses?.startsWith('actions/cache/')).map((s) => s.with?.path);
  const runDir = path.relative(ROOT, readSettings({}, ROOT).runDir);
  assert.deepEqual(cachePaths, [runDir, runDir], 'the cache restores and saves the default run folder');

  assert.equal(merge.needs, 'shard');
  const mergeCommand = runs(merge).split('\n').find((l) => l.includes('playwright merge-reports'))!;
  const reporters = /--reporter=(\S+)/.exec(mergeCommand)![1]!.split(',');
  assert.ok(reporters.includes('html'));
  for (const r of reporters.filter((x) => x.startsWith('./'))) assert.ok(existsSync(path.join(ROOT, r)), `${r} exists`);
  assert.ok(reporters.includes('./reporters/iwb-reporter.ts'));
  const uploaded = merge.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact')).map((s) => s.with?.path);
  for (const dir of ['playwright-report/', 'iwb-report/']) assert.ok(uploaded.includes(dir), `merge uploads ${dir}`);

  const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
  for (const [, script] of text.matchAll(/npm run ([\w:-]+)/g)) assert.ok(scripts.includes(script!), `npm run ${script} exists`);
  for (const job of [shard, merge]) for (const s of job.steps) if (s.uses) assert.match(s.uses, /^[\w/-]+@v\d+$/, 'actions are pinned to a major version');
  assert.match(text, /OPENAI_API_KEY: \$\{\{ secrets\.OPENAI_API_KEY \}\}/, 'the key comes from repository secrets');
});
