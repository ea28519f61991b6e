import type { Case } from '../slots/schema.js';
import type { SimulatedUser } from './types.js';

/** Placeholder until the retrieval / answer / containment user lands: answers nothing, leaks nothing. */
export function createSimulatedUser(_c: Case, _deps: { client?: unknown } = {}): SimulatedUser {
  return {
    async answer(question) {
      return {
        question,
        answer: "Sorry, I can't say more than what I wrote.",
        retrievedSlotIds: [],
        leakCheck: { leakedSlotIds: [], method: 'lexical' },
        retries: 0,
        refused: true,
        tokens: { prompt: 0, completion: 0 },
      };
    },
  };
}
