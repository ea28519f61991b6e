/**
 * Every `IWB_*` variable the harness knows, declared by the module that reads it (`declareEnv` returns the
 * name, so the declaration is the read site's constant). A family such as `IWB_<ROLE>_MODEL` is one
 * declaration with placeholders. The run refuses any other `IWB_*` variable and names the closest known
 * one, so a typo stops the run instead of being silently ignored.
 *
 * config/env-check.ts imports every module that declares; test/env-registry.test.ts scans the sources for
 * `IWB_` names that nothing declares, so a variable added without a declaration fails the project's tests.
 */
export interface EnvDeclaration {
  /** `IWB_DATASET`, or a family with placeholders: `IWB_<ROLE>_MODEL`. */
  name: string;
  doc: string;
}

const declared = new Map<string, EnvDeclaration>();
/** Placeholder values, e.g. ROLE -> AGENT, USER, ...; a module that owns a placeholder registers its values. */
const placeholders = new Map<string, readonly string[]>();

export function declareEnv(name: string, doc: string): string {
  if (!/^IWB_[A-Z0-9_<>]+$/.test(name)) throw new Error(`declareEnv: ${name} is not an IWB_ variable name`);
  declared.set(name, { name, doc });
  return name;
}

export function declarePlaceholder(placeholder: string, values: readonly string[]): void {
  placeholders.set(placeholder, values);
}

export function declaredEnv(): EnvDeclaration[] {
  return [...declared.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Concrete names of a declaration: itself, or its family expanded over its placeholders' values. */
function expand(name: string): string[] {
  const m = /<([A-Z]+)>/.exec(name);
  if (!m) return [name];
  const values = placeholders.get(m[1]!) ?? [];
  return values.flatMap((v) => expand(name.replace(m[0], v)));
}

export function knownNames(): Set<string> {
  return new Set([...declared.keys()].flatMap(expand));
}

export function isKnownEnv(name: string): boolean {
  return knownNames().has(name);
}

/** Levenshtein distance, small strings only. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

export function closestKnown(name: string): string | undefined {
  return closestOf(name, knownNames());
}

/** The candidate nearest to `name` by edit distance, ties broken alphabetically; none when it is far off. */
export function closestOf(name: string, candidates: Iterable<string>, maxDistance = Infinity): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const k of candidates) {
    const d = distance(name, k);
    if (d > maxDistance) continue;
    if (!best || d < best.d || (d === best.d && k < best.name)) best = { name: k, d };
  }
  return best?.name;
}

/** The `IWB_*` variables in env that nothing declares, each with the closest known name. */
export function unknownEnv(env: Readonly<Record<string, string | undefined>>): { name: string; closest: string | undefined }[] {
  const known = knownNames();
  return Object.keys(env)
    .filter((k) => k.startsWith('IWB_') && !known.has(k))
    .sort()
    .map((name) => ({ name, closest: closestKnown(name) }));
}
