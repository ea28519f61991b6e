import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { PROFILES } from '../config/profiles.js';
import { lastSeen } from '../judge/last-view.js';
import { runSession } from '../judge/llm-session.js';
import type { SessionResult } from '../judge/session-loop.js';
import { runPaperSession } from '../judge/paper-session.js';
import { capturing, type CapturedJudging } from '../judge/test-hooks.js';
import { ModelClient } from '../llm/client.js';
import { lastUserText, reply, schemaName, start, type FakeHandler, type FakeReply, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import { UNTRUSTED_MARK } from '../vision/neutralise.js';
import { launch, makeCase, siteUnderTest, slot, tempSite, type TempSite } from './judge-support.js';

/**
 * Both judge sessions (the iwb one, judge/llm-session.ts, per slot and per case; the paper one,
 * judge/paper-session.ts) driven against the fake server with scripted replies, and everything the model
 * was sent and everything the session concluded compared with a fixture recorded from the code before the
 * two sessions shared one loop. What varies between runs is set aside: the fence's random nonce, the
 * screenshots' bytes (their count per message stays), durations; a system prompt is kept as its hash.
 * IWB_GOLDEN_WRITE=1 writes the fixture instead of comparing (only ever from code known to be right).
 */

const FIXTURE = fileURLToPath(new URL('./fixtures/judge-sessions.golden.json', import.meta.url));
const WRITE = process.env.IWB_GOLDEN_WRITE === '1';

const SITE = `<!doctype html><html><head><title>Todo</title></head><body>
<h1>My tasks</h1>
<input placeholder="New task" aria-label="New task"> <button id="add">Add</button>
<ul id="list"></ul>
<script>
document.getElementById('add').addEventListener('click', () => {
  const li = document.createElement('li');
  li.textContent = 'Item ' + (document.querySelectorAll('li').length + 1);
  document.getElementById('list').append(li);
});
</script>
<div style="height: 3000px"></div><p>Footer text</p></body></html>`;
const GOLD = 'Build a to-do list page with an Add button.';

let fake: FakeServer;
let browser: Browser;
let site: TempSite;
const recorded: Record<string, unknown> = {};
before(async () => {
  [fake, browser, site] = await Promise.all([start(), launch(), tempSite({ 'index.html': SITE })]);
});
after(async () => {
  if (WRITE) writeFileSync(FIXTURE, JSON.stringify(recorded, null, 2) + '\n');
  await Promise.all([fake?.close(), browser?.close(), site?.dispose()]);
});

const FAST = { retries: 1, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 10_000 };
const client = () => new ModelClient({ role: 'judge', model: 'fake-judge', baseURL: fake.baseURL, apiKey: 'k' }, { retry: FAST, schemaRetries: 1 });
const slots = [slot('a'), slot('b', { assertionType: 'NEGATIVE' }), slot('c')];
const theCase = () => makeCase(slots, GOLD);

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const NONCE = new RegExp(`(${UNTRUSTED_MARK}) [0-9a-f]{12}>>>`, 'g');

/** A request as the model read it, with what varies between runs set aside. */
function shapeOf(r: RecordedRequest) {
  const { messages, response_format: format, ...rest } = r.body;
  return {
    schema: schemaName(r) ?? null,
    format: format ? hash(JSON.stringify(format)) : null,
    rest: { ...rest, model: rest.model ?? null },
    images: messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === 'image_url').length,
    messages: messages.map((m) => {
      const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
      const text = parts.map((p) => (p.type === 'image_url' ? '<image>' : (p.text ?? '').replace(NONCE, '$1 NONCE>>>'))).join('\n--\n');
      return { role: m.role, ...(m.role === 'system' ? { hash: hash(text), head: text.split('\n')[0] } : { text }) };
    }),
  };
}

function resultOf(r: SessionResult, captured: CapturedJudging, seen: boolean) {
  return {
    outcomes: [...r.outcomes].map(([id, o]) => ({ id, ...o })),
    steps: r.steps,
    injection: r.injection,
    blockedRequests: r.blockedRequests,
    tokens: r.tokens,
    stepTitles: captured.steps,
    pngs: captured.pngs.map((p) => p.name),
    lastViewKept: seen,
  };
}

async function record(name: string, script: Array<FakeReply | FakeHandler>, run: (sut: Awaited<ReturnType<typeof siteUnderTest>>) => Promise<SessionResult>): Promise<void> {
  fake.reset();
  // One handler walks the script, so a reply computed from its request keeps its place in the order.
  fake.script((req) => {
    // The server counts requests across tests; this session's own count is what was recorded since reset.
    const i = fake.requests.length - 1;
    const next = script[i];
    if (!next) throw new Error(`the script of ${name} has no reply ${i + 1}`);
    return typeof next === 'function' ? next(req, i) : next;
  });
  const sut = await siteUnderTest(browser, site, theCase());
  try {
    const captured: CapturedJudging = { steps: [], pngs: [] };
    const result = await capturing(captured, () => run(sut));
    const got = { requests: fake.requests.map(shapeOf), result: resultOf(result, captured, lastSeen(sut.page) !== undefined), unused: script.length - fake.requests.length };
    recorded[name] = got;
    assert.equal(got.unused, 0, `the script of ${name} was used up: ${JSON.stringify(got.result.steps)}`);
    if (WRITE) return;
    assert.ok(existsSync(FIXTURE), `no golden fixture at ${FIXTURE}: record it from known-good code with IWB_GOLDEN_WRITE=1`);
    const golden = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>)[name];
    assert.ok(golden, `the fixture has no scenario ${name}`);
    assert.deepEqual(JSON.parse(JSON.stringify(got)), golden);
  } finally {
    await sut.close();
  }
}

/** The number the labeller gave an element, read from the request as the model reads it. */
function numberOf(req: RecordedRequest, pattern: RegExp): number {
  const m = new RegExp(`\\[(\\d+)\\] ${pattern.source}`).exec(lastUserText(req));
  assert.ok(m, `no element matching ${pattern}`);
  return Number(m[1]);
}

const act = (action: object, thought = 'next') => reply.json({ thought, action });
const scroll = act({ kind: 'scroll', direction: 'down' });
const verdict = (status: 'pass' | 'fail', evidence = 'seen') => act({ kind: 'verdict', status, evidence }, 'decided');
type V = { slot: string; status: 'pass' | 'fail' };
const verdicts = (vs: V[]) => act({ kind: 'verdicts', verdicts: vs.map((v) => ({ evidence: `seen ${v.slot}`, ...v })) }, 'decided');
const turn = (vs: V[], action: object = { kind: 'scroll', direction: 'down' }) =>
  reply.json({ thought: 'looking', verdicts: vs.map((v) => ({ evidence: `seen ${v.slot}`, ...v })), action });
const final = (vs: V[]) => reply.json({ thought: 'last turn', verdicts: vs.map((v) => ({ evidence: `seen ${v.slot}`, ...v })) });
const clickAdd: FakeHandler = (req) => act({ kind: 'click', element: numberOf(req, /button "Add"/) });

const iwbSlot = (stepCap: number) => (sut: Awaited<ReturnType<typeof siteUnderTest>>) => runSession({ client: client(), site: sut, slots: [slots[0]!], mode: 'slot', stepCap });
const iwbCase = (stepCap: number) => (sut: Awaited<ReturnType<typeof siteUnderTest>>) => runSession({ client: client(), site: sut, slots, mode: 'case', stepCap });
const paper = (rules: Partial<typeof PROFILES.paper> = {}, instruction = GOLD) => (sut: Awaited<ReturnType<typeof siteUnderTest>>) =>
  runPaperSession({ client: client(), site: sut, slots, instruction, rules: { ...PROFILES.paper, ...rules } });

/** A reply that never matches the turn's schema, however often it is asked again. */
const prose = () => reply.text('It all looks fine to me.');

describe('judge sessions, request for request, against the recorded fixture', () => {
  test('iwb per slot: pass at the first turn', () => record('iwb-slot-first', [verdict('pass', 'the page is there')], iwbSlot(10)));
  test('iwb per slot: actions, then a pass', () => record('iwb-slot-actions', [clickAdd, scroll, verdict('pass', 'Item 1 appeared')], iwbSlot(10)));
  test('iwb per slot: the step cap forces a verdict', () => record('iwb-slot-cap', [scroll, scroll, verdict('fail', 'never found')], iwbSlot(2)));
  test('iwb per slot: a malformed reply is retried, then accepted', () => record('iwb-slot-retry', [act({ kind: 'jump', element: 1 }), verdict('fail', 'nothing')], iwbSlot(10)));
  test('iwb per slot: a reply that never matches errors the slot', () => record('iwb-slot-invalid', [scroll, prose(), prose()], iwbSlot(10)));
  test('iwb per slot: five screenshots, one per request', () => record('iwb-slot-memory', [scroll, scroll, scroll, scroll, verdict('pass')], iwbSlot(4)));
  test('iwb per case: every slot at the first turn, a duplicate and a stranger ignored', () =>
    record('iwb-case-first', [verdicts([{ slot: 'a', status: 'pass' }, { slot: 'b', status: 'fail' }, { slot: 'a', status: 'fail' }, { slot: 'zz', status: 'pass' }, { slot: 'c', status: 'pass' }])], iwbCase(10)));
  test('iwb per case: the forced turn leaves a slot unmentioned', () =>
    record('iwb-case-cap', [clickAdd, verdicts([{ slot: 'a', status: 'pass' }, { slot: 'c', status: 'fail' }])], iwbCase(1)));
  test('iwb per case: a reply that never matches errors every slot', () => record('iwb-case-invalid', [prose(), prose()], iwbCase(3)));

  test('paper: every slot and done at the first turn', () =>
    record('paper-first', [turn([{ slot: 'a', status: 'pass' }, { slot: 'b', status: 'pass' }, { slot: 'c', status: 'fail' }], { kind: 'done' })], paper()));
  test('paper: actions, verdicts on the way, then done', () =>
    record('paper-actions', [
      (req) => turn([], { kind: 'click', element: numberOf(req, /button "Add"/) }),
      turn([{ slot: 'a', status: 'pass' }]),
      turn([{ slot: 'b', status: 'fail' }], { kind: 'done' }),
    ], paper()));
  test('paper: the turn budget runs out; sticky pass, a stranger, a forced last turn, an unmentioned slot', () =>
    record('paper-budget', [
      turn([{ slot: 'a', status: 'pass' }]),
      turn([{ slot: 'a', status: 'fail' }, { slot: 'b', status: 'fail' }, { slot: 'zz', status: 'pass' }], { kind: 'scroll', direction: 'up' }),
      turn([{ slot: 'b', status: 'pass' }], { kind: 'wait' }),
      final([{ slot: 'c', status: 'fail' }]),
    ], paper({ judgeTurns: 4 })));
  test('paper: not sticky, unmentioned errored, the degraded instruction', () =>
    record('paper-loose', [
      turn([{ slot: 'a', status: 'pass' }]),
      turn([{ slot: 'a', status: 'fail' }, { slot: 'a', status: 'pass' }, { slot: 'a', status: 'fail' }]),
      final([{ slot: 'b', status: 'pass' }]),
    ], paper({ judgeTurns: 3, stickyPass: false, unmentioned: 'errored' }, 'some list thing')));
  test('paper: everything settled before the last turn skips it', () =>
    record('paper-settled', [turn([{ slot: 'a', status: 'pass' }, { slot: 'b', status: 'pass' }, { slot: 'c', status: 'pass' }]), turn([])], paper({ judgeTurns: 3 })));
  test('paper: a malformed reply is retried, then accepted', () =>
    record('paper-retry', [turn([{ slot: 'a', status: 'pass' }], { kind: 'jump' }), turn([{ slot: 'b', status: 'pass' }, { slot: 'c', status: 'pass' }], { kind: 'done' })], paper()));
  test('paper: a reply that never matches errors the open slots and keeps the given', () =>
    record('paper-invalid', [turn([{ slot: 'a', status: 'pass' }]), prose(), prose()], paper()));
  test('paper: the final reply never matches', () => record('paper-final-invalid', [turn([]), prose(), prose()], paper({ judgeTurns: 2 })));
  test('paper: screenshot memory beyond its limit', () =>
    record('paper-memory', [turn([]), turn([{ slot: 'a', status: 'pass' }]), turn([]), turn([]), turn([]), final([])], paper({ judgeTurns: 6, judgeScreenshotMemory: 2 })));
  test('paper: unlimited screenshot memory', () => record('paper-memory-all', [turn([]), turn([]), turn([]), final([])], paper({ judgeTurns: 4, judgeScreenshotMemory: null })));
});
