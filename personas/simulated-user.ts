import type { ModelClient } from '../llm/client.js';
import { describeError, ModelError } from '../llm/errors.js';
import { addUsage, NO_USAGE, type TokenUsage } from '../llm/usage.js';
import type { Case, Slot } from '../slots/schema.js';
import { answerMessages, llmAnswer, stockText, type Rejection } from './answer.js';
import { lexicalLeaks, llmLeaks, type ContainmentContext } from './containment.js';
import { stanceFor } from './degradation/offline.js';
import { mulberry32, pick, seedFor } from './prng.js';
import { asksAboutExtra, isDumpRequest, isFollowUp, pointsOutConflict } from './questions.js';
import { bm25Retrieve, llmRetrieve, RETRIEVAL_DEFAULTS, type RetrievalOptions } from './retrieval.js';
import { breakOracleRuns, goldStatements, isUnrequestedSlot, longestOracleRun, MAX_ORACLE_RUN, narrowStatement, oracleText } from './statements.js';
import type { SimulatedUser, UserTurn } from './types.js';
import { styleOf, type SpokenFact } from './voice.js';
import { VOICES } from './voices.js';

/**
 * The contained simulated user in three stages: retrieve the slots a question targets, answer in persona
 * from the gold instruction's own sentences about those slots alone, then check the answer gives away no
 * other slot and copies no run of the judge's test wording (regenerating a bounded number of times, else a
 * safe non-answer). Unlike the paper's user, which holds the whole gold instruction in one prompt and is
 * never checked, no stage here sees more than it needs.
 *
 * It remembers the conversation: a follow-up without a topic ("Are you sure?") is about the last topic; a
 * P-CON user defends a contradicted requirement once, concedes when asked again or shown the conflict, and
 * keeps to the conceded value from then on; the same topic is said in the same words each time.
 *
 * Errors: an InfraError propagates (the episode is errored and can be re-run); a schema or model failure is
 * recorded on the turn, which then carries a safe non-answer, never an invented one.
 */
export interface SimulatedUserDeps {
  /** The `user` role's client; without it every stage runs offline (BM25, voices, word check). */
  client?: ModelClient;
  seed?: number;
  /** Regenerations after a leaky or copying answer before falling back to a safe non-answer. */
  maxRegenerations?: number;
  retrieval?: RetrievalOptions;
}

export function createSimulatedUser(c: Case, deps: SimulatedUserDeps = {}): SimulatedUser {
  const voice = VOICES[c.persona];
  const style = styleOf(c.persona);
  const seed = deps.seed ?? 0;
  const rng = mulberry32(seedFor(seed, c.id));
  const client = deps.client;
  const maxRegenerations = deps.maxRegenerations ?? 2;
  const maxSlots = deps.retrieval?.maxSlots ?? RETRIEVAL_DEFAULTS.maxSlots;
  const contradicted = new Set(c.task.personas[c.persona]?.degradation?.contradicts ?? []);
  const statements = goldStatements(c.task);
  const oracle = oracleText(c.slots);
  const byId = new Map<string, Slot>(c.slots.map((s) => [s.id, s]));
  const allowedText = `${stockText(c.persona)} ${voice.stock ?? ''}`;
  // The conversation so far: how often each slot came up, what was conceded, the last topic, every turn.
  const timesAsked = new Map<string, number>();
  const conceded = new Set<string>();
  let lastTopic: string[] = [];
  const history: Array<{ question: string; answer: string }> = [];

  const turn = (question: string, answer: string, extra: Partial<UserTurn>, tokens: TokenUsage): UserTurn => ({
    question,
    answer,
    retrievedSlotIds: [],
    leakCheck: { leakedSlotIds: [], method: client ? 'lexical+llm' : 'lexical' },
    retries: 0,
    refused: false,
    tokens: { prompt: tokens.prompt, completion: tokens.completion, ...(tokens.unknown ? { unknown: true } : {}) },
    source: client ? 'llm' : 'offline',
    ...extra,
  });

  function factFor(id: string, conflict: boolean): SpokenFact {
    const slot = byId.get(id)!;
    const st = statements.get(id);
    const asked = timesAsked.get(id) ?? 0;
    const repeated = asked > 0;
    if (!st) return { slotId: id, mode: slot.assertionType === 'NEGATIVE' || isUnrequestedSlot(slot) ? 'exclude' : 'unstated', statement: '', repeated };
    if (!contradicted.has(id)) return { slotId: id, mode: 'state', statement: st.clause, repeated };
    if (conceded.has(id) || asked >= 1 || conflict) {
      const again = conceded.has(id);
      conceded.add(id);
      return { slotId: id, mode: 'concede', statement: st.clause, repeated: again };
    }
    return { slotId: id, mode: 'defend', statement: st.clause, stance: stanceFor(st, c.instruction) ?? st.sentence, repeated };
  }

  async function answer(question: string): Promise<UserTurn> {
    let tokens: TokenUsage = { ...NO_USAGE };
    if (isDumpRequest(question)) return turn(question, pick(rng, style.refusal), { refused: true }, tokens);

    // Stage 1: retrieval.
    let retrieved: string[];
    if (client) {
      const r = await llmRetrieve(client, c.slots, c.instruction, question, maxSlots);
      tokens = addUsage(tokens, r.usage);
      if (!r.ok) return turn(question, pick(rng, style.nonAnswer), { refused: true, error: describeError(r.error) }, tokens);
      if (r.value.asks_for_everything) return turn(question, pick(rng, style.refusal), { refused: true }, tokens);
      retrieved = [...new Set(r.value.slot_ids)];
    } else retrieved = bm25Retrieve(c.slots, question, deps.retrieval).slotIds;
    if (retrieved.length === 0 && lastTopic.length > 0 && isFollowUp(question)) retrieved = [...lastTopic];
    // Asked about adding something no requirement mentions: the "nothing unrequested" slot is the topic.
    if (retrieved.length === 0 && asksAboutExtra(question)) retrieved = c.slots.filter(isUnrequestedSlot).map((s) => s.id);
    if (retrieved.length === 0) return turn(question, pick(rng, style.nonAnswer), { refused: true }, tokens);

    const conflict = pointsOutConflict(question);
    // Two slots stated by one clause are said once.
    const facts = dedupe(shieldStance(retrieved.map((id) => factFor(id, conflict))));
    for (const id of retrieved) timesAsked.set(id, (timesAsked.get(id) ?? 0) + 1);
    lastTopic = retrieved;
    const stances = facts.filter((f) => f.mode === 'defend' || f.mode === 'concede').map((f) => ({ slotId: f.slotId, stance: f.mode as 'defend' | 'concede' }));
    const base = { retrievedSlotIds: retrieved, ...(stances.length ? { stances } : {}) };
    // Nothing the user wrote covers the topic: it says so, and gives nothing away.
    const givesNothing = facts.every((f) => f.mode === 'unstated');

    // Stages 2 and 3: answer, check, regenerate. The offline wording is seeded by the topic and the stance,
    // so the same question in the same state gets the same words.
    const topicRng = mulberry32(seedFor(seed, c.id, ...facts.map((f) => `${f.slotId}:${f.mode}`)));
    const ctx: ContainmentContext = { slots: c.slots, retrievedIds: retrieved, question, instruction: c.instruction, allowedText };
    const messages = client ? answerMessages(c.persona, c.instruction, facts, history, question) : [];
    const rejected: Rejection[] = [];
    const caught = new Set<string>();
    const done = (text: string, extra: Partial<UserTurn>): UserTurn => {
      history.push({ question, answer: text });
      return turn(question, text, { ...base, ...extra }, tokens);
    };
    for (let attempt = 0; attempt <= maxRegenerations; attempt++) {
      let text: string;
      if (client) {
        const a = await llmAnswer(client, messages, rejected);
        tokens = addUsage(tokens, a.usage);
        text = a.text;
      } else {
        // Offline, a retry cuts the clauses down to what names none of the caught slots' terms.
        const hidden = rejected.flatMap((r) => (r.reason === 'leak' ? r.terms : []));
        const spoken = hidden.length === 0 ? facts : dedupe(facts.map((f) => (f.mode === 'defend' || !f.statement ? f : { ...f, statement: narrowStatement(f.statement, hidden) }))).filter((f) => f.mode === 'defend' || f.mode === 'exclude' || f.mode === 'unstated' || f.statement !== '');
        if (spoken.length === 0) break;
        text = breakOracleRuns(voice.speak(spoken, topicRng), oracle);
      }
      // An empty reply says nothing and leaks nothing: ask again with the same conversation.
      if (text === '') continue;
      if (longestOracleRun(text, oracle) > MAX_ORACLE_RUN) {
        rejected.push({ answer: text, reason: 'quote' });
        if (attempt < maxRegenerations) continue;
        text = breakOracleRuns(text, oracle);
      }
      const leaks = lexicalLeaks(text, ctx);
      const terms = leaks.flatMap((l) => l.terms);
      const leakedIds = leaks.map((l) => l.slotId);
      if (client && leaks.length === 0) {
        const judged = await llmLeaks(client, text, ctx);
        if (judged) {
          tokens = addUsage(tokens, judged.usage);
          if (!judged.ok) {
            // Containment could not be verified: the answer is withheld, not trusted.
            return done(pick(rng, style.nonAnswer), { refused: true, retries: attempt, error: describeError(judged.error) });
          }
          for (const id of judged.value.leaked_slot_ids) {
            leakedIds.push(id);
            terms.push(byId.get(id)?.targetComponent ?? id);
          }
        }
      }
      if (leakedIds.length === 0) {
        return done(text, { retries: attempt, ...(givesNothing ? { refused: true } : {}), ...(caught.size ? { caughtLeakSlotIds: [...caught] } : {}) });
      }
      for (const id of leakedIds) caught.add(id);
      rejected.push({ answer: text, reason: 'leak', terms });
    }
    return done(pick(rng, style.nonAnswer), { refused: true, retries: maxRegenerations, ...(caught.size ? { caughtLeakSlotIds: [...caught] } : {}) });
  }

  /**
   * While P-CON still stands by a contradicted requirement, another slot stated in the same gold sentence
   * ("navy background with the name in white") is said as the user's request said it, or not at all when the
   * defence already says that sentence: stating it from the gold would hand over the true value.
   */
  function shieldStance(facts: SpokenFact[]): SpokenFact[] {
    const unconceded = [...contradicted].filter((id) => !conceded.has(id)).map((id) => statements.get(id)?.sentenceIndex);
    const defended = new Set(facts.filter((f) => f.mode === 'defend').map((f) => statements.get(f.slotId)?.sentenceIndex));
    return facts.flatMap((f) => {
      const st = statements.get(f.slotId);
      if (f.mode !== 'state' || !st || !unconceded.includes(st.sentenceIndex)) return [f];
      if (defended.has(st.sentenceIndex)) return [];
      return [{ ...f, statement: stanceFor(st, c.instruction) ?? '' }].filter((x) => x.statement !== '');
    });
  }

  function dedupe(facts: SpokenFact[]): SpokenFact[] {
    const seen = new Set<string>();
    return facts.filter((f) => {
      const key = `${f.mode}:${f.statement}:${f.stance ?? ''}`;
      if (f.statement && seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  return {
    kind: 'contained',
    async answer(question) {
      try {
        return await answer(question);
      } catch (e) {
        // A refusal or rejected request from the user model is recorded and the agent gets nothing; an
        // InfraError (or a bug) propagates.
        if (!(e instanceof ModelError)) throw e;
        return turn(question, pick(rng, style.nonAnswer), { refused: true, error: describeError(e) }, NO_USAGE);
      }
    },
  };
}
