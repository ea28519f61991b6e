import type { PersonaModule } from '../persona-module.js';
import { pCon } from './operator.js';
import { pConVoice } from './voice.js';

export const persona: PersonaModule = {
  id: 'P-CON',
  operator: pCon,
  voice: pConVoice,
  rules: [{ field: 'contradicts', message: 'P-CON contradicts exactly one slot', holds: (v) => v.contradicts.length === 1 }],
};
