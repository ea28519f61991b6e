import type { PersonaModule } from '../persona-module.js';
import { pRam } from './operator.js';
import { pRamVoice } from './voice.js';

export const persona: PersonaModule = {
  id: 'P-RAM',
  operator: pRam,
  voice: pRamVoice,
  rules: [],
};
