import { fill } from '../operator-text.js';
import { inline, spoken } from '../phrasing.js';
import { pick } from '../../stats/prng.js';
import { assemble, styleOf, type Voice } from '../voice.js';

/**
 * P-CON (Quality): rigid and accurate about everything, except the requirement its instruction got wrong:
 * it first stands by what it wrote, and gives the true requirement once asked again or shown the conflict.
 */
const style = styleOf('P-CON');

export const pConVoice: Voice = {
  persona: 'P-CON',
  speak: (facts, rng) =>
    assemble(style, rng, facts, (f) => {
      // Asked plainly, it just says what its request says; "that's what I wrote" answers a challenge.
      if (f.mode === 'defend') return f.challenged ? fill(pick(rng, style.defend), { stance: spoken(f.stance ?? f.statement) }) : spoken(f.stance ?? f.statement);
      if (f.mode === 'concede') {
        // Once conceded, the true requirement is what the user says from then on.
        return f.repeated ? `As I said, ${inline(spoken(f.statement))}.` : fill(pick(rng, style.concede), { fact: spoken(f.statement) });
      }
      return spoken(f.statement);
    }),
};
