import type { ModelClient } from '../llm/client.js';
import type { Case } from '../slots/schema.js';
import { createPaperUser } from './paper-user.js';
import { createSimulatedUser, type SimulatedUserDeps } from './simulated-user.js';
import type { SimulatedUser, UserKind } from './types.js';

/** Each kind of simulated user: whether it needs the user model, and how it is made (a profile names its kind). */
const USERS: Readonly<Record<UserKind, { needsModel: boolean; create(c: Case, deps: SimulatedUserDeps): SimulatedUser }>> = {
  contained: { needsModel: false, create: (c, deps) => createSimulatedUser(c, deps) },
  paper: { needsModel: true, create: (c, { client }) => createPaperUser(c, modelOf(client)) },
};

const modelOf = (client: ModelClient | undefined): ModelClient => {
  if (!client) throw new Error(userModelMissing());
  return client;
};

/** The one place a run picks its simulated user. */
export function createUser(kind: UserKind, c: Case, deps: SimulatedUserDeps = {}): SimulatedUser {
  return USERS[kind].create(c, deps);
}

export function userModelMissing(): string {
  return 'IWB_USER=paper needs a user model (the paper user is a single prompt): set IWB_USER_MODEL (and IWB_USER_BASE_URL / OPENAI_BASE_URL), or use IWB_USER=contained, which also runs offline';
}

/** Checked at start, so a run does not fail at its first question. */
export function checkUserKind(kind: UserKind, client: ModelClient | undefined): void {
  if (USERS[kind].needsModel) modelOf(client);
}
