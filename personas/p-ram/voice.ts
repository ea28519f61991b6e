import { z } from 'zod';
import { operatorData } from '../definitions.js';
import { fill } from '../operator-text.js';
import { spoken } from '../phrasing.js';
import { pick, shuffle } from '../../stats/prng.js';
import { assemble, styleOf, type Voice } from '../voice.js';

/**
 * P-RAM (Relation): the requirement, correct and complete, buried between remarks about anything else. The
 * remarks are the persona's own chatter lines (p-ram/definition.json), shared with its operator.
 */
const style = styleOf('P-RAM');
const { chatter } = operatorData('P-RAM', z.looseObject({ chatter: z.array(z.string().min(1)).min(2) }));

export const pRamVoice: Voice = {
  persona: 'P-RAM',
  speak: (facts, rng) => {
    const [before, after] = shuffle(rng, chatter);
    const said = assemble(style, rng, facts, (f) => {
      if (f.mode === 'defend') return fill(pick(rng, style.defend), { stance: spoken(f.stance ?? f.statement) });
      if (f.mode === 'concede') return fill(pick(rng, style.concede), { fact: spoken(f.statement) });
      return spoken(f.statement);
    });
    if (facts.every((f) => f.mode === 'unstated')) return said;
    // A no comes first, as people say it; the chatter follows and never reads as part of the answer.
    return facts[0]!.mode === 'reject' || facts[0]!.mode === 'exclude' ? `${said} ${before} ${after}` : `${before} ${said} ${after}`;
  },
};
