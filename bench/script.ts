import { createHash } from 'node:crypto';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { lastUserText, reply, schemaName, stableLastUserText, type FakeReply, type RecordedRequest } from '../testkit/fake-server.js';

/** Model names the bench gives its roles: one fake server answers them all and tells them apart by model. */
export const BENCH_MODELS = { agent: 'bench-agent', user: 'bench-user', judge: 'bench-judge' } as const;

/** Every role's model, endpoint and key variables, all pointing at the one fake server. */
export function benchRoles(baseURL: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(BENCH_MODELS).flatMap(([role, model]) => {
      const R = role.toUpperCase();
      return [[`IWB_${R}_MODEL`, model], [`IWB_${R}_BASE_URL`, baseURL], [`IWB_${R}_API_KEY`, 'bench']];
    }),
  );
}

const SITE = (title: string, request: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;margin:2rem} header{background:#123;color:#fff;padding:1rem} button{padding:.5rem 1rem}</style></head>
<body><header><h1>${title}</h1><nav><a href="#list">List</a> <a href="#about">About</a></nav></header>
<main><input id="item" aria-label="New item" placeholder="New item"> <button id="add">Add</button><ul id="list"></ul>
<section id="about"><p>A small page written by the bench agent.</p></section></main>
<footer>Request ${request}</footer>
<script>document.getElementById('add').addEventListener('click',()=>{const li=document.createElement('li');li.textContent=document.getElementById('item').value||'Item';document.getElementById('list').append(li);});</script>
</body></html>`;

const tool = (name: string, args: unknown): FakeReply => reply.tools([{ name, arguments: args, id: `call_${name}` }]);

/**
 * Names the request a site answers: the first user message (the case's instruction) differs from case to
 * case. Every case's site must differ, as a real agent's would: with one site for all four personas of a
 * task, three of every four slots were answered from the verdict cache (keyed by site and slot), and the
 * bench timed cache reads as judging.
 */
export function requestToken(req: RecordedRequest): string {
  const first = req.body.messages.find((m) => m.role === 'user');
  return createHash('sha256').update(JSON.stringify(first?.content ?? '')).digest('hex').slice(0, 8);
}

/** The agent asks once, writes a small site in one step, verifies once and submits. */
function agent(req: RecordedRequest): FakeReply {
  const done = req.body.messages.filter((m) => m.role === 'tool').length;
  if (done === 0) return tool('clarify', { question: 'What should the page be called?' });
  if (done === 1) return tool('implement', { files: [{ path: 'index.html', content: SITE('Bench page', requestToken(req)) }] });
  if (done === 2) return tool('verify', { path: '/' });
  return tool('submit', {});
}

function user(req: RecordedRequest): FakeReply {
  const name = schemaName(req);
  if (name === 'retrieve_slots') return reply.json({ slot_ids: [], asks_for_everything: false });
  if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
  return reply.text('Call it Bench page, please.');
}

/**
 * The judge clicks once, then decides on what it was shown: a hash of the turn's text (the page's title,
 * elements and visible text as the harness read them, the slot, the step; run-specific ports and nonces left
 * out, as the call cache leaves them out). Both outcomes occur, and any change in what the judge is shown
 * flips each slot's verdict with even odds: the regression check holds the quick bench's verdicts to its
 * baseline's (bench/regression.ts), so a faster harness that shows the judge something else is caught. (The
 * text's length was used before: a change of an even number of characters left every verdict as it was.)
 */
function judge(req: RecordedRequest): FakeReply {
  const name = schemaName(req);
  if (name === 'visual_score') return reply.json({ layout: 3, creativeAlignment: 3, overall: 3, rationale: 'plain' });
  if (name === 'intent_judgement') return reply.json({ slotHits: [], ias: 3, rationale: 'one question' });
  const text = lastUserText(req);
  if (name === 'judge_step' && !/step 1: /.test(text)) return reply.json({ thought: 'try the button', action: { kind: 'click', element: 1 } });
  const status = createHash('sha256').update(stableLastUserText(req)).digest()[0]! % 2 === 0 ? 'pass' : 'fail';
  return reply.json({ thought: 'decided', action: { kind: 'verdict', status, evidence: 'seen after one click' } });
}

/** One handler for every role of a bench run, with zero latency: what is timed is the harness alone. */
export function benchModel(req: RecordedRequest): FakeReply {
  const probe = preflightAnswer(req.body);
  if (probe) return probe;
  switch (req.body.model) {
    case BENCH_MODELS.agent:
      return agent(req);
    case BENCH_MODELS.user:
      return user(req);
    default:
      return judge(req);
  }
}
