import type { Persona } from '../slots/schema.js';
import { pConVoice } from './p-con/voice.js';
import { pIntVoice } from './p-int/voice.js';
import { pMinVoice } from './p-min/voice.js';
import { pRamVoice } from './p-ram/voice.js';
import type { Voice } from './voice.js';

/** Every persona's voice, keyed by persona: the one place the simulated users look a voice up. */
export const VOICES: Record<Persona, Voice> = { 'P-MIN': pMinVoice, 'P-RAM': pRamVoice, 'P-INT': pIntVoice, 'P-CON': pConVoice };
