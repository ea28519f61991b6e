import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { z } from 'zod';
import { VISUAL_CHECKS } from './visual-checks.js';
import { assessVisual, VisualScoreSchema, type VisualAssessment } from './visual-score.js';
import type { ModelClient } from '../llm/client.js';
import { writeAtomic } from '../protocol/atomic-write.js';

/**
 * The visual-bug check of a case's final page, once per episode: the result is kept beside the
 * trajectory, so every slot test of the case (and every rerun) reads the same finding.
 */
export async function getVisual(episodeDir: string, browser: Browser, url: string, opts: { client?: ModelClient; instruction: string }): Promise<VisualAssessment> {
  const file = path.join(episodeDir, 'visual.json');
  const cached = await fs.readFile(file, 'utf8').catch(() => null);
  if (cached !== null) {
    const parsed = StoredSchema.safeParse(safeJson(cached));
    if (parsed.success) return parsed.data;
    // A torn or hand-edited file is not trusted: say where it was, then assess the page again.
    console.warn(`[iwb] ${file}: not a visual assessment (${parsed.error.issues[0]?.path.join('.') || 'JSON'}: ${parsed.error.issues[0]?.message}); checking the page again`);
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const assessment = await assessVisual(await context.newPage(), url, opts);
    await writeAtomic(file, JSON.stringify(assessment, null, 2));
    return assessment;
  } finally {
    await context.close();
  }
}

const StoredSchema = z.object({
  bug: z.boolean(),
  findings: z.array(z.object({ check: z.enum(VISUAL_CHECKS), detail: z.string() })),
  blockedRequests: z.number(),
  scores: VisualScoreSchema.optional(),
  scoreError: z.string().optional(),
  scoreUsage: z.object({ model: z.string(), prompt: z.number(), completion: z.number() }).optional(),
}) satisfies z.ZodType<VisualAssessment>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
