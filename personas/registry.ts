import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PERSONAS, type Persona } from '../slots/schema.js';
import type { PersonaModule } from './persona-module.js';

const PERSONAS_DIR = fileURLToPath(new URL('./', import.meta.url));

/**
 * The personas, found by listing personas/: every folder with an index module exporting `persona`, as agent
 * adapters are found (agent/registry.ts). The enum of persona ids (protocol/enums.ts) is the dataset's
 * contract; a folder whose id is not in it, or an id with no folder, stops the load naming both.
 */
async function loadPersonas(): Promise<Record<Persona, PersonaModule>> {
  const found = new Map<Persona, PersonaModule>();
  for (const e of (await fs.readdir(PERSONAS_DIR, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.isDirectory()) continue;
    const index = ['index.ts', 'index.js'].map((f) => path.join(PERSONAS_DIR, e.name, f));
    const file = (await Promise.all(index.map((f) => fs.stat(f).then(() => f, () => undefined)))).find(Boolean);
    if (!file) continue;
    const mod = (await import(pathToFileURL(file).href)) as { persona?: PersonaModule };
    if (!mod.persona) continue;
    if (!(PERSONAS as readonly string[]).includes(mod.persona.id)) throw new Error(`${file}: persona id ${mod.persona.id} is not one of ${PERSONAS.join(', ')}`);
    found.set(mod.persona.id, mod.persona);
  }
  const missing = PERSONAS.filter((p) => !found.has(p));
  if (missing.length) throw new Error(`personas/: no folder exports persona ${missing.join(', ')}`);
  return Object.fromEntries(PERSONAS.map((p) => [p, found.get(p)!])) as Record<Persona, PersonaModule>;
}

export const PERSONA_MODULES: Record<Persona, PersonaModule> = await loadPersonas();

export function personaModule(persona: Persona): PersonaModule {
  return PERSONA_MODULES[persona];
}
