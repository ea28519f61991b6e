import type { Persona } from '../slots/schema.js';
import { PERSONA_MODULES } from './registry.js';
import type { Voice } from './voice.js';

/** Every persona's voice (personas/<id>/voice.ts), keyed by persona: the one place the simulated users look a voice up. */
export const VOICES = Object.fromEntries(Object.values(PERSONA_MODULES).map((m) => [m.id, m.voice])) as Record<Persona, Voice>;
