import type { ModelClient } from '../llm/client.js';
import { describeError, ModelError } from '../llm/errors.js';
import { addUsage, NO_USAGE, type TokenUsage } from '../llm/usage.js';
import type { Case, Slot } from '../slots/schema.js';
import { answerMessages, llmAnswer, stockText, type Rejection } from './answer.js';
import { lexicalLeaks, llmLeaks, type ContainmentContext } from './containment.js';
import { stanceFor } from './degradation/offline.js';
import { mulberry32, pick, seedFor } from '../stats/prng.js';
import { checkPremise, claimOf, premisePhrase } from './premise.js';
import { purposeCore, purposeStatements } from './purpose.js';
import { asksAboutExtra, asksColoursOverall, extraFeature, isDumpRequest, isFollowUp, pointsOutConflict, purposeKind } from './questions.js';
import { bm25Retrieve, llmRetrieve, RETRIEVAL_DEFAULTS, type RetrievalOptions } from './retrieval.js';
import { breakOracleRuns, goldStatements, isUnrequestedSlot, longestOracleRun, MAX_ORACLE_RUN, narrowStatement, oracleText } from './statements.js';
import type { SimulatedUser, UserTurn } from './types.js';
import { colourKeys, numberValues } from './values.js';
import { contentStems, leakRoots } from './text.js';
import { styleOf, type SpokenFact } from './voice.js';
import { withTopic } from './topic.js';
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
  const purpose = purposeStatements(c.task.goldInstruction);
  // Purpose sentences already said: said again, they are said the same way.
  const told = new Set<string>();

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

  /** The question names what the request says instead (its value or its words): the conflict is shown. */
  function showsStance(question: string, stance: string): boolean {
    const gold = c.task.goldInstruction;
    const goldColours = colourKeys(gold);
    const goldNumbers = new Set(numberValues(gold));
    const values = [...[...colourKeys(stance)].filter((k) => !goldColours.has(k)), ...numberValues(stance).filter((n) => !goldNumbers.has(n))];
    const asked = colourKeys(question);
    if (values.some((v) => asked.has(v) || numberValues(question).includes(v))) return true;
    const goldStems = new Set(contentStems(gold));
    const own = new Set(contentStems(stance).filter((w) => !goldStems.has(w)));
    return contentStems(question).filter((w) => own.has(w)).length >= 2;
  }

  function factFor(id: string, conflict: boolean, question = ''): SpokenFact {
    const slot = byId.get(id)!;
    const st = statements.get(id);
    const asked = timesAsked.get(id) ?? 0;
    const repeated = asked > 0;
    if (!st) return { slotId: id, mode: slot.assertionType === 'NEGATIVE' || isUnrequestedSlot(slot) ? 'exclude' : 'unstated', statement: '', repeated };
    if (!contradicted.has(id)) return { slotId: id, mode: 'state', statement: st.clause, repeated };
    const stance = stanceFor(st, c.instruction) ?? st.sentence;
    // P-CON gives in only to a challenge: one that follows its own restatement, or that names what its
    // request said. A plain re-ask gets the request's version again; a bare "are you sure?" out of the blue
    // gets it defended in so many words.
    if (conceded.has(id) || (conflict && (asked >= 1 || showsStance(question, stance)))) {
      const again = conceded.has(id);
      conceded.add(id);
      return { slotId: id, mode: 'concede', statement: st.clause, repeated: again };
    }
    return { slotId: id, mode: 'defend', statement: st.clause, stance, repeated, challenged: conflict };
  }

  async function answer(question: string): Promise<UserTurn> {
    let tokens: TokenUsage = { ...NO_USAGE };
    if (isDumpRequest(question)) return turn(question, pick(rng, style.refusal), { refused: true }, tokens);
    const conflict = pointsOutConflict(question);

    // What the site is for and what it holds: the request's opening sentences, said in persona.
    const kind = purposeKind(question);
    if (kind && !conflict) {
      const said = [purpose.purpose, ...(kind === 'structure' ? purpose.structure : [])].filter(Boolean);
      const facts = said.map((s, i): SpokenFact => ({ slotId: `purpose-${i}`, mode: 'state', statement: i === 0 ? `${purposeCore(s)}.` : s, repeated: told.has(s), purpose: true }));
      for (const s of said) told.add(s);
      if (facts.length > 0) return speak(question, facts, [], {}, tokens, said.join(' '));
    }

    // A premise the request never had ("the spec says payments, right?") is denied; a swapped value is
    // corrected from the slot it is about. P-CON's own contradicted wording goes to its stance instead.
    const claim = conflict ? null : (claimOf(question) ?? extraFeature(question));
    if (claim) {
      const check = checkPremise(claim, c.task.goldInstruction);
      const about = bm25Retrieve(c.slots, claim, deps.retrieval).slotIds;
      const ownStance = about.some((id) => contradicted.has(id) && !conceded.has(id)) && checkPremise(claim, c.instruction).holds;
      if (!check.holds && !ownStance) {
        const extra = claimOf(question) === null;
        const facts: SpokenFact[] = [extra ? { slotId: 'premise', mode: 'exclude', statement: '', repeated: false } : { slotId: 'premise', mode: 'reject', statement: premisePhrase(claim), repeated: false }];
        const corrected = check.wrongValues.length > 0 ? about.filter((id) => statements.get(id)) : [];
        facts.push(...corrected.map((id) => factFor(id, false, question)));
        for (const id of corrected) timesAsked.set(id, (timesAsked.get(id) ?? 0) + 1);
        return speak(question, facts, corrected, {}, tokens);
      }
    }

    // Stage 1: retrieval.
    let retrieved: string[];
    if (client) {
      const r = await llmRetrieve(client, c.slots, c.instruction, question, maxSlots);
      tokens = addUsage(tokens, r.usage);
      if (!r.ok) return turn(question, pick(rng, style.nonAnswer), { refused: true, error: describeError(r.error) }, tokens);
      if (r.value.asks_for_everything) return turn(question, pick(rng, style.refusal), { refused: true }, tokens);
      retrieved = [...new Set(r.value.slot_ids)];
    } else retrieved = bm25Retrieve(c.slots, question, deps.retrieval).slotIds;
    // "Which functionalities?" is no question about adding anything: "nothing unrequested" is only the topic
    // of an offer to add something.
    if (!asksAboutExtra(question)) retrieved = retrieved.filter((id) => !isUnrequestedSlot(byId.get(id)!));
    // The slots' own wording did not match: look for the question's words in what the user itself wrote.
    const unstated = retrieved.every((id) => !statements.get(id));
    if (unstated && !client && !isFollowUp(question)) {
      const found = byStatement(question);
      if (found.length > 0 || retrieved.length === 0) retrieved = found;
    }
    // "What colours should it use?" names no part: every colour the user wrote is the answer.
    if (asksColoursOverall(question)) retrieved = [...new Set([...retrieved, ...[...statements.values()].filter((s) => s !== null && colourKeys(s.clause).size > 0).map((s) => s!.slotId)])];
    if (retrieved.length === 0 && lastTopic.length > 0 && isFollowUp(question)) retrieved = [...lastTopic];
    // Asked about adding something no requirement mentions: the "nothing unrequested" slot is the topic.
    if (retrieved.length === 0 && asksAboutExtra(question)) retrieved = c.slots.filter(isUnrequestedSlot).map((s) => s.id);
    if (retrieved.length === 0) return turn(question, pick(rng, style.nonAnswer), { refused: true }, tokens);
    retrieved = withTopic(c.slots, retrieved);

    // Two slots stated by one clause are said once.
    const facts = dedupe(shieldStance(retrieved.map((id) => factFor(id, conflict, question))));
    for (const id of retrieved) timesAsked.set(id, (timesAsked.get(id) ?? 0) + 1);
    lastTopic = retrieved;
    return speak(question, facts, retrieved, {}, tokens);
  }

  /**
   * The slots whose gold clause shares the question's rarest words: "which directions can the tiles move?"
   * finds "move tiles up, down, left, or right" although no slot says "direction". A word most clauses share
   * ("website") decides nothing; one rare word, or two, does.
   */
  function byStatement(question: string): string[] {
    const asked = new Set(leakRoots(question));
    const clauses = [...statements.values()].filter((s) => s !== null);
    const df = new Map<string, number>();
    for (const s of clauses) for (const w of new Set(leakRoots(s.clause))) df.set(w, (df.get(w) ?? 0) + 1);
    const scored = clauses
      .map((s) => ({ id: s.slotId, score: [...new Set(leakRoots(s.clause))].filter((w) => asked.has(w)).reduce((n, w) => n + Math.log(1 + clauses.length / df.get(w)!), 0) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score);
    const top = scored[0]?.score ?? 0;
    if (top < Math.log(1 + clauses.length / 2)) return [];
    return scored.filter((x) => x.score >= top * 0.75).slice(0, maxSlots).map((x) => x.id);
  }


  /** Stages 2 and 3: answer, check, regenerate. */
  async function speak(question: string, facts: SpokenFact[], retrieved: string[], extraBase: Partial<UserTurn>, tokensIn: TokenUsage, topicText = ''): Promise<UserTurn> {
    let tokens = tokensIn;
    const stances = facts.filter((f) => f.mode === 'defend' || f.mode === 'concede').map((f) => ({ slotId: f.slotId, stance: f.mode as 'defend' | 'concede' }));
    const base = { retrievedSlotIds: retrieved, ...(stances.length ? { stances } : {}), ...extraBase };
    // Nothing the user wrote covers the topic: it says so, and gives nothing away.
    const givesNothing = facts.every((f) => f.mode === 'unstated');
    // The offline wording is seeded by the topic and the stance, so the same question in the same state
    // gets the same words.
    const topicRng = mulberry32(seedFor(seed, c.id, ...facts.map((f) => `${f.slotId}:${f.mode}:${f.statement}`)));
    // What was told before in this conversation, and the topic's own sentences, are no leak when said again.
    const ctx: ContainmentContext = { slots: c.slots, retrievedIds: retrieved, question, instruction: c.instruction, allowedText: `${allowedText} ${topicText} ${numberValues(topicText).join(' ')} ${history.map((h) => h.answer).join(' ')}` };
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
        const spoken = hidden.length === 0 ? facts : dedupe(facts.map((f) => (f.mode !== 'state' && f.mode !== 'concede') || !f.statement ? f : { ...f, statement: narrowStatement(f.statement, hidden) })).filter((f) => f.mode !== 'state' && f.mode !== 'concede' ? true : f.statement !== '');
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
