import type { PersonaModule } from '../persona-module.js';
import { pInt } from './operator.js';
import { pIntVoice } from './voice.js';

export const persona: PersonaModule = {
  id: 'P-INT',
  operator: pInt,
  voice: pIntVoice,
  rules: [],
};
