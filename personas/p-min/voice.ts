import { fill } from '../operator-text.js';
import { core, spoken, terse } from '../phrasing.js';
import { pick } from '../../stats/prng.js';
import { assemble, styleOf, type Voice } from '../voice.js';

/** P-MIN (Quantity): the exact value in the fewest words, nothing around it. */
const style = styleOf('P-MIN');

export const pMinVoice: Voice = {
  persona: 'P-MIN',
  speak: (facts, rng) =>
    assemble(style, rng, facts, (f) => {
      if (f.mode === 'defend') return fill(pick(rng, style.defend), { stance: terse(f.stance ?? f.statement) });
      if (f.mode === 'concede') return fill(pick(rng, style.concede), { fact: terse(f.statement) });
      return f.purpose ? spoken(core(f.statement)) : terse(f.statement);
    }),
};
