import { promises as fs } from 'node:fs';
import { after, before, beforeEach } from 'node:test';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { runEpisode } from '../agent/episode.js';
import type { Trajectory } from '../agent/trajectory.js';
import type { Agent } from '../agent/types.js';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { ModelClient } from '../llm/client.js';
import { startFakeServer, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import type { Role } from '../config/roles.js';
import type { SimulatedUser, UserTurn } from '../personas/types.js';
import type { Case } from '../slots/schema.js';

/** Shared by the agent-*.test.ts files: a hand-made case, a scripted user, clients on the fake server. */

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
}

export function makeCase(instruction = 'I want a page for my bakery.'): Case {
  return {
    id: 'bakery_P-MIN',
    taskId: 'bakery',
    persona: 'P-MIN',
    instruction,
    difficulty: 'easy',
    difficultySource: 'stored',
    slots: [],
    task: {
      id: 'bakery',
      title: 'Bakery',
      category: 'business',
      goldInstruction: 'A bakery page titled "Crumb & Co" with a blue heading.',
      slots: [],
      personas: { 'P-MIN': { instruction } },
      source: 'test',
    },
  };
}

/** Answers every question with `answer` and remembers what was asked. */
export function scriptedUser(answer: string): SimulatedUser & { questions: string[] } {
  const questions: string[] = [];
  return {
    questions,
    async answer(question): Promise<UserTurn> {
      questions.push(question);
      return {
        question,
        answer,
        retrievedSlotIds: [],
        leakCheck: { leakedSlotIds: [], method: 'lexical' },
        retries: 0,
        refused: false,
        tokens: { prompt: 0, completion: 0 },
      };
    },
  };
}

export function fakeClient(fake: FakeServer, role: Role = 'agent', retries = 2): ModelClient {
  return new ModelClient(
    { role, model: `fake-${role}`, baseURL: fake.baseURL, apiKey: 'k-test' },
    { retry: { retries, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 5000 } },
  );
}

const made: string[] = [];

export async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `iwb-agent-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Call from each file's after(): episode folders hold workspaces and screenshots. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
}

export async function episode(agent: Agent, browser: Browser, opts: { user?: SimulatedUser; stepCap?: number; c?: Case } = {}): Promise<{ t: Trajectory; dir: string }> {
  const dir = await tempDir('episode');
  const t = await runEpisode({
    case: opts.c ?? makeCase(),
    agent,
    browser,
    user: opts.user ?? scriptedUser('Call it Crumb & Co, with a blue heading.'),
    dir,
    stepCap: opts.stepCap ?? 8,
    caseHash: 'test',
    site: { installTimeoutMs: 30_000, buildTimeoutMs: 30_000, startTimeoutMs: 15_000 },
  });
  return { t, dir };
}

/** The image_url parts a recorded request carried, decoded. */
export function sentImages(req: RecordedRequest): Buffer[] {
  const out: Buffer[] = [];
  for (const m of req.body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content as unknown as Array<{ type: string; image_url?: { url: string } }>) {
      if (part.type !== 'image_url' || !part.image_url) continue;
      const match = /^data:image\/(png|jpeg);base64,(.+)$/.exec(part.image_url.url);
      if (match) out.push(Buffer.from(match[2]!, 'base64'));
    }
  }
  return out;
}

export const SITE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Crumb &amp; Co</title><link rel="stylesheet" href="style.css"></head>
<body><h1>Crumb &amp; Co</h1><p>Fresh bread every morning.</p></body></html>
`;
export const STYLE = 'h1 { color: rgb(0, 0, 255); }\n';

/** A fake model server and a browser for the enclosing suite: started once, the server reset before each test. */
export function agentTestbed(): { fake: FakeServer; browser: Browser } {
  const bed = {} as { fake: FakeServer; browser: Browser };
  before(async () => {
    [bed.fake, bed.browser] = await Promise.all([startFakeServer(), launchBrowser()]);
  });
  after(async () => {
    await Promise.all([bed.fake?.close(), bed.browser?.close(), removeTempDirs()]);
  });
  beforeEach(() => bed.fake.reset());
  return bed;
}
