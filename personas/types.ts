import type { Case } from '../slots/schema.js';

export interface LeakCheck {
  /** Slot ids whose facts appear in the answer although the question did not retrieve them. */
  leakedSlotIds: string[];
  method: 'lexical' | 'lexical+llm';
}

/** One clarify turn as the trajectory records it. */
export interface UserTurn {
  question: string;
  answer: string;
  retrievedSlotIds: string[];
  leakCheck: LeakCheck;
  retries: number;
  /** True when the answer gives nothing (a safe non-answer or a refusal to dump the instruction). */
  refused: boolean;
  tokens: { prompt: number; completion: number; unknown?: boolean };
  error?: string;
  /** Slot ids caught leaking in replies that were thrown away and regenerated (the final answer is clean). */
  caughtLeakSlotIds?: string[];
  /** P-CON only: for each contradicted slot the question touched, whether the user defended or conceded. */
  stances?: Array<{ slotId: string; stance: 'defend' | 'concede' }>;
  /** Who wrote the answer: the user model, or the offline retrieval and templates. */
  source?: 'llm' | 'offline';
}

// The kinds are a contract the settings registry (IWB_USER) names too, so they live in protocol/enums.ts.
import type { UserKind } from '../protocol/enums.js';
export { USER_KINDS, type UserKind } from '../protocol/enums.js';

/** The simulated user's contract: one question in, one in-persona answer out. */
export interface SimulatedUser {
  /** Absent on hand-made test users; the built-in users always say. */
  readonly kind?: UserKind;
  answer(question: string): Promise<UserTurn>;
}

export type SimulatedUserFactory = (c: Case) => SimulatedUser;

/** What a persona operator makes of a gold instruction: the visible text and which slots it degraded. */
export interface DegradedInstruction {
  instruction: string;
  omits: string[];
  blurs: string[];
  contradicts: string[];
}
