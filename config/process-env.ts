/**
 * The process environment, for entry points and for the few places that pass it on to a child (whose
 * environment is filtered there: sandbox/env.ts). Everything the harness itself reads from it is read by
 * config/env.ts into one typed object; this module has no imports so that anything may use it without a circle.
 */
export function rawProcessEnv(): NodeJS.ProcessEnv {
  return process.env;
}
