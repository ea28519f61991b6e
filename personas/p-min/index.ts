import type { PersonaModule } from '../persona-module.js';
import { pMin } from './operator.js';
import { pMinVoice } from './voice.js';

export const persona: PersonaModule = {
  id: 'P-MIN',
  operator: pMin,
  voice: pMinVoice,
  rules: [{ field: 'omits', message: 'P-MIN must omit the slots it drops', holds: (v) => v.omits.length > 0 }],
};
