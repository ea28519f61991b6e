import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ModelClient } from '../../llm/client.js';
import { describeError, InfraError } from '../../llm/errors.js';
import { PERSONAS, type Dataset, type Persona } from '../../slots/schema.js';
import { annotateWithModel, annotationPrompt } from './llm.js';
import { annotateOffline } from './offline.js';
import {
  attachDegradation,
  besidePath,
  cachePath,
  caseInputHash,
  hashOf,
  readDegradationFile,
  writeDegradationFile,
  type DegradationFile,
  type DegradationRecord,
} from './store.js';

/**
 * Derives a degradation record for every case of a dataset: offline from the two texts, or judged by a model.
 * Records in `previous` whose inputs are unchanged are reused as they are, so a second run makes no call.
 */
/**
 * The offline annotator's own code and word lists, hashed: a record derived by an older version is stale,
 * so improving the comparison re-derives cached records instead of silently reusing old ones.
 */
let offlineVersionHash: string | undefined;
export function offlineVersion(): string {
  offlineVersionHash ??= hashOf(
    ['./offline.ts', '../statements.ts', '../values.ts', '../text.ts', '../lexicon.json'].map((f) => readFileSync(fileURLToPath(new URL(f, import.meta.url)), 'utf8')),
  );
  return offlineVersionHash;
}

export interface AnnotateOptions {
  client?: ModelClient;
  previous?: DegradationFile;
  /** Called after each case, for a progress line. */
  progress?: (done: number, total: number) => void;
}

export interface AnnotateResult {
  file: DegradationFile;
  reused: number;
  calls: number;
  errors: string[];
}

export async function annotateDataset(ds: Dataset, options: AnnotateOptions = {}): Promise<AnnotateResult> {
  const records: Record<string, DegradationRecord> = {};
  const errors: string[] = [];
  let reused = 0;
  let calls = 0;
  for (const [i, c] of ds.cases.entries()) {
    const client = options.client;
    const inputHash = client
      ? caseInputHash(c, 'llm', { model: client.model, prompt: hashOf(annotationPrompt(c.task, c.persona, c.instruction)) })
      : caseInputHash(c, 'offline', { version: offlineVersion() });
    const old = options.previous?.records[c.id];
    if (old && old.inputHash === inputHash) {
      records[c.id] = old;
      reused++;
      options.progress?.(i + 1, ds.cases.length);
      continue;
    }
    const offline = annotateOffline(c.task, c.instruction);
    const offlineRecord = (method: DegradationRecord['method'], error?: string): DegradationRecord => ({
      persona: c.persona,
      omits: offline.omits,
      blurs: offline.blurs,
      contradicts: offline.contradicts,
      method,
      // An offline fallback keeps the judged hash' shape apart, so the next run asks the model again.
      inputHash: method === 'offline' ? inputHash : caseInputHash(c, method),
      findings: offline.findings,
      ...(error ? { error } : {}),
    });
    if (!client) {
      records[c.id] = offlineRecord('offline');
    } else {
      calls++;
      try {
        const r = await annotateWithModel(client, c.task, c.persona, c.instruction);
        if (!r.ok) throw r.error;
        records[c.id] = { persona: c.persona, ...r.value, method: 'llm', model: client.model, inputHash };
      } catch (e) {
        // A dead endpoint would silently turn the whole file offline: stop. One bad reply is recorded.
        if (e instanceof InfraError) throw e;
        const error = describeError(e);
        errors.push(`${c.id}: ${error}`);
        records[c.id] = offlineRecord('offline-after-llm-error', error);
      }
    }
    options.progress?.(i + 1, ds.cases.length);
  }
  return { file: { version: 1, dataset: ds.source, createdAt: new Date().toISOString(), records }, reused, calls, errors };
}

/** Per persona, how many cases have at least one slot of each kind, and how many slots in all. */
export interface AnnotationCounts {
  cases: number;
  withOmits: number;
  withBlurs: number;
  withContradicts: number;
  withAny: number;
  slots: { omits: number; blurs: number; contradicts: number };
}

export function annotationCounts(file: DegradationFile): Partial<Record<Persona, AnnotationCounts>> {
  const out: Partial<Record<Persona, AnnotationCounts>> = {};
  for (const p of PERSONAS) {
    const rs = Object.values(file.records).filter((r) => r.persona === p);
    if (rs.length === 0) continue;
    out[p] = {
      cases: rs.length,
      withOmits: rs.filter((r) => r.omits.length > 0).length,
      withBlurs: rs.filter((r) => r.blurs.length > 0).length,
      withContradicts: rs.filter((r) => r.contradicts.length > 0).length,
      withAny: rs.filter((r) => r.omits.length + r.blurs.length + r.contradicts.length > 0).length,
      slots: {
        omits: rs.reduce((n, r) => n + r.omits.length, 0),
        blurs: rs.reduce((n, r) => n + r.blurs.length, 0),
        contradicts: rs.reduce((n, r) => n + r.contradicts.length, 0),
      },
    };
  }
  return out;
}

export interface DegradationSource {
  /** 'dataset' (the file carries them), a records file's path, 'offline-derived', or 'none' (builtin gaps). */
  source: string;
  attached: number;
}

/**
 * Makes sure every case of a JSONL dataset has a degradation record before the simulated user and CHR-degraded
 * need one: the dataset's own, else a records file (an explicit one, the one beside the dataset, the .iwb
 * cache, in that order), else derived offline now and written to the cache, so the run says what it used.
 */
export async function ensureDegradation(ds: Dataset, opts: { cacheDir: string; file?: string }): Promise<DegradationSource> {
  const missing = () => ds.cases.filter((c) => c.task.personas[c.persona] && !c.task.personas[c.persona]!.degradation);
  if (missing().length === 0 || ds.source === 'builtin') return { source: 'dataset', attached: 0 };
  const cache = cachePath(ds.source, opts.cacheDir);
  const candidates = [opts.file, besidePath(ds.source), cache].filter((f): f is string => f !== undefined);
  for (const f of candidates) {
    const file = await readDegradationFile(f);
    if (!file) {
      if (f === opts.file) throw new Error(`${f}: degradation records file not found (IWB_DEGRADATION); run \`iwb personas annotate\` first`);
      continue;
    }
    if (f === cache) {
      // The cache is ours: an offline record from an older annotator is dropped and derived again below.
      const byId = new Map(ds.cases.map((c) => [c.id, c]));
      for (const [id, r] of Object.entries(file.records)) {
        const c = byId.get(id);
        if (r.method === 'offline' && c && r.inputHash !== caseInputHash(c, 'offline', { version: offlineVersion() })) delete file.records[id];
      }
    }
    const { attached } = attachDegradation(ds, file, f);
    if (missing().length === 0) return { source: f, attached };
  }
  const { file } = await annotateDataset(ds);
  await writeDegradationFile(cache, file);
  const { attached } = attachDegradation(ds, file, cache);
  return { source: `offline-derived:${cache}`, attached };
}
