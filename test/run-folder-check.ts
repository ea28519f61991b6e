import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { parseTrajectory } from '../agent/trajectory-schema.js';
import { RunRecordSchema } from '../fixtures/run-record.js';
import { VerdictCache, VerdictFileSchema } from '../judge/verdict-cache.js';
import { VisualFileSchema } from '../judge/visual-cache.js';
import { CallCache } from '../llm/call-cache.js';
import { IntentAnnotationSchema } from '../protocol/annotations.js';
import { readCacheFile } from '../protocol/cache-file.js';
import { DegradationFileSchema } from '../personas/degradation/store.js';

/**
 * Every file a run leaves in its run folder and model call cache, read back the way the harness reads it,
 * for tests that kill a run: a file that the harness would refuse (torn JSON, a failed schema or checksum)
 * is a problem; temporary files, staging folders and locks are leftovers, harmless but counted.
 */
export interface FolderCheck {
  /** Files read back clean, by kind. */
  checked: Record<string, number>;
  problems: string[];
  leftovers: string[];
}

async function files(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

export async function checkRunFolder(runDir: string, llmCacheDir: string): Promise<FolderCheck> {
  const out: FolderCheck = { checked: {}, problems: [], leftovers: [] };
  const ok = (kind: string) => (out.checked[kind] = (out.checked[kind] ?? 0) + 1);
  const schema = async (kind: string, file: string, s: z.ZodType) => {
    const r = await readCacheFile(file, s);
    if (r.kind === 'ok') ok(kind);
    else out.problems.push(r.kind === 'corrupt' ? r.error : `${file}: vanished`);
  };
  const verdicts = new VerdictCache(path.join(runDir, 'verdicts'));
  for (const file of await files(runDir)) {
    const rel = path.relative(runDir, file);
    const name = path.basename(file);
    if (name.endsWith('.tmp') || rel.split(path.sep).some((p) => p === '.staging' || p === '.locks')) out.leftovers.push(rel);
    else if (rel === 'run.json') await schema('run record', file, RunRecordSchema);
    else if (rel.startsWith(`degradation${path.sep}`)) await schema('degradation', file, DegradationFileSchema);
    else if (rel.startsWith(`verdicts${path.sep}`)) {
      const r = await readCacheFile(file, VerdictFileSchema);
      if (r.kind !== 'ok') out.problems.push(r.kind === 'corrupt' ? r.error : `${file}: vanished`);
      else if (verdicts.fileFor(r.data.key) !== file || !(await verdicts.get(r.data.key))) out.problems.push(`${file}: not where the verdict cache looks for its key`);
      else ok('verdict');
    } else if (name === 'trajectory.json') {
      const parsed = parseTrajectory(await fs.readFile(file, 'utf8'), file);
      if (parsed.ok) ok('trajectory');
      else out.problems.push(parsed.error);
    } else if (name === 'intent.json') await schema('intent', file, IntentAnnotationSchema);
    else if (name === 'visual.json') await schema('visual', file, VisualFileSchema);
  }
  const calls = new CallCache('replay', llmCacheDir);
  for (const file of await files(llmCacheDir)) {
    const rel = path.relative(llmCacheDir, file);
    if (rel.endsWith('.tmp')) out.leftovers.push(`llm-cache/${rel}`);
    else if (/^[0-9a-f]{2}\/[0-9a-f]{64}\.json$/.test(rel)) {
      if (await calls.get(path.basename(rel, '.json'))) ok('model call');
      else out.problems.push(`${file}: a model call entry the cache refuses`);
    } else if (rel === 'modes.json') {
      JSON.parse(await fs.readFile(file, 'utf8'));
      ok('modes');
    }
  }
  return out;
}
