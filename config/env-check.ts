import { closestKnown, unknownEnv } from './env-registry.js';
// Every module that declares variables, so the registry is complete before anything is checked.
// A new settings module adds one import here (test/env-registry.test.ts fails until it does).
import './settings.js';
import './roles.js';
import './role-limits.js';
import './judge-settings.js';
import './file.js';
import './public-data.js';
import './run-config.js';

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Throws on any IWB_* variable nothing declares, naming the closest known one. */
export function checkEnv(env: Readonly<Record<string, string | undefined>>): void {
  const unknown = unknownEnv(env);
  if (unknown.length === 0) return;
  const lines = unknown.map((u) => `  ${u.name}${u.closest ? `: did you mean ${u.closest}?` : ''}`);
  throw new EnvError(`unknown environment variable${unknown.length > 1 ? 's' : ''} (a typo would otherwise be ignored silently):\n${lines.join('\n')}\nunset it, or run \`npx iwb config --vars\` for the known ones`);
}

export { closestKnown };
