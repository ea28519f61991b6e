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
  tokens: { prompt: number; completion: number };
  error?: string;
}

/** The simulated user's contract: one question in, one in-persona answer out. */
export interface SimulatedUser {
  answer(question: string): Promise<UserTurn>;
}

export type SimulatedUserFactory = (c: Case) => SimulatedUser;
