import type { ModelClient } from '../llm/client.js';
import { describeError, ModelError } from '../llm/errors.js';
import { addUsage, NO_USAGE, type TokenUsage } from '../llm/usage.js';
import type { Case, Slot } from '../slots/schema.js';
import { answerMessages, llmAnswer, stanceFor, styleText, templatedAnswer, type AnswerFact } from './answer.js';
import { lexicalLeaks, llmLeaks, type ContainmentContext } from './containment.js';
import { personaDefinition } from './definitions.js';
import { mulberry32, pick, seedFor } from './prng.js';
import { isDumpRequest, pointsOutConflict } from './questions.js';
import { bm25Retrieve, llmRetrieve, RETRIEVAL_DEFAULTS, type RetrievalOptions } from './retrieval.js';
import type { SimulatedUser, UserTurn } from './types.js';

/**
 * The simulated user in three stages: retrieve the slots a question targets, answer in persona from those
 * slots alone, then check the answer gives away no other slot (regenerating a bounded number of times,
 * else a safe non-answer). Unlike the paper's user, which holds the whole gold instruction in one prompt and
 * is never checked, no stage here sees more than it needs, so a chatty model cannot hand the agent the spec.
 *
 * Errors: an InfraError propagates (the episode is errored and can be re-run); a schema or model failure is
 * recorded on the turn, which then carries a safe non-answer, never an invented one.
 */
export interface SimulatedUserDeps {
  /** The `user` role's client; without it every stage runs offline (BM25, templates, word check). */
  client?: ModelClient;
  seed?: number;
  /** Regenerations after a leaky answer before falling back to a safe non-answer. */
  maxRegenerations?: number;
  retrieval?: RetrievalOptions;
}

export function createSimulatedUser(c: Case, deps: SimulatedUserDeps = {}): SimulatedUser {
  const def = personaDefinition(c.persona);
  const style = def.answerStyle;
  const rng = mulberry32(seedFor(deps.seed ?? 0, c.id));
  const client = deps.client;
  const maxRegenerations = deps.maxRegenerations ?? 2;
  const maxSlots = deps.retrieval?.maxSlots ?? RETRIEVAL_DEFAULTS.maxSlots;
  const contradicted = new Set(c.task.personas[c.persona]?.degradation?.contradicts ?? []);
  const timesAsked = new Map<string, number>();
  const byId = new Map<string, Slot>(c.slots.map((s) => [s.id, s]));

  const turn = (question: string, answer: string, extra: Partial<UserTurn>, tokens: TokenUsage): UserTurn => ({
    question,
    answer,
    retrievedSlotIds: [],
    leakCheck: { leakedSlotIds: [], method: client ? 'lexical+llm' : 'lexical' },
    retries: 0,
    refused: false,
    tokens: { prompt: tokens.prompt, completion: tokens.completion },
    source: client ? 'llm' : 'offline',
    ...extra,
  });

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
    if (retrieved.length === 0) return turn(question, pick(rng, style.nonAnswer), { refused: true }, tokens);

    // P-CON: the first time a contradicted slot comes up the user defends what it wrote; asked again, or shown
    // the conflict, it concedes the true requirement.
    const conflict = pointsOutConflict(question);
    const stances: NonNullable<UserTurn['stances']> = [];
    const facts: AnswerFact[] = retrieved.map((id) => {
      const slot = byId.get(id)!;
      const asked = timesAsked.get(id) ?? 0;
      timesAsked.set(id, asked + 1);
      if (!contradicted.has(id)) return { slot, mode: 'state' };
      const mode = asked >= 1 || conflict ? 'concede' : 'defend';
      stances.push({ slotId: id, stance: mode });
      return mode === 'defend' ? { slot, mode, stance: stanceFor(slot, c.instruction) } : { slot, mode };
    });

    // Stages 2 and 3: answer, check, regenerate.
    const ctx: ContainmentContext = {
      slots: c.slots,
      retrievedIds: retrieved,
      question,
      instruction: c.instruction,
      allowedText: styleText(style),
    };
    const messages = client ? answerMessages(def, c.instruction, facts, question) : [];
    const rejected: Array<{ answer: string; terms: string[] }> = [];
    const caught = new Set<string>();
    const base = { retrievedSlotIds: retrieved, ...(stances.length ? { stances } : {}) };
    for (let attempt = 0; attempt <= maxRegenerations; attempt++) {
      let text: string;
      if (client) {
        const a = await llmAnswer(client, messages, rejected);
        tokens = addUsage(tokens, a.usage);
        text = a.text;
      } else text = templatedAnswer(facts, style, rng);
      // An empty reply says nothing and leaks nothing: ask again with the same conversation.
      if (text === '') continue;
      const leaks = lexicalLeaks(text, ctx);
      const terms = leaks.flatMap((l) => l.terms);
      const leakedIds = leaks.map((l) => l.slotId);
      if (client && leaks.length === 0) {
        const judged = await llmLeaks(client, text, ctx);
        if (judged) {
          tokens = addUsage(tokens, judged.usage);
          if (!judged.ok) {
            // Containment could not be verified: the answer is withheld, not trusted.
            return turn(question, pick(rng, style.nonAnswer), { ...base, refused: true, retries: attempt, error: describeError(judged.error) }, tokens);
          }
          for (const id of judged.value.leaked_slot_ids) {
            leakedIds.push(id);
            terms.push(byId.get(id)?.targetComponent ?? id);
          }
        }
      }
      if (leakedIds.length === 0) {
        return turn(question, text, { ...base, retries: attempt, ...(caught.size ? { caughtLeakSlotIds: [...caught] } : {}) }, tokens);
      }
      for (const id of leakedIds) caught.add(id);
      rejected.push({ answer: text, terms });
    }
    return turn(
      question,
      pick(rng, style.nonAnswer),
      { ...base, refused: true, retries: maxRegenerations, caughtLeakSlotIds: [...caught] },
      tokens,
    );
  }

  return {
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
