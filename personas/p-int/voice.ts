import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { fill } from '../operator-text.js';
import { assignments, core, inline } from '../phrasing.js';
import { pick, type Rng } from '../prng.js';
import { capitalise, endSentence } from '../text.js';
import { numberValues } from '../values.js';
import { assemble, styleOf, type Voice } from '../voice.js';

/**
 * P-INT (Manner): figurative. A colour is said as an image that keeps the colour's own name ("the lavender
 * of a field in bloom at dusk"), a number as a picture of that many things, anything else inside a simile:
 * the fact can be recovered by a careful listener, but is never handed over as a spec.
 */
const Images = z.object({
  families: z.array(z.object({ words: z.array(z.string()).min(1), scenes: z.array(z.string()).min(1) })).min(1),
  fallbackScenes: z.array(z.string()).min(1),
  colourLine: z.array(z.string().includes('{colour}')).min(1),
  frames: z.array(z.string().includes('{fact}')).min(1),
  numberLine: z.string().includes('{number}'),
});
const file = fileURLToPath(new URL('./images.json', import.meta.url));
const parsed = Images.safeParse(JSON.parse(readFileSync(file, 'utf8')));
if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
const images = parsed.data;
const style = styleOf('P-INT');

function sceneFor(colour: string, rng: Rng, used: Set<string>): string {
  const words = colour.split(' ');
  // The last word names the hue ("dark slate blue" is a blue); earlier ones only shade it.
  let scenes = images.fallbackScenes;
  for (const w of [...words].reverse()) {
    const family = images.families.find((f) => f.words.includes(w) || f.words.includes(words.join('')));
    if (family) {
      scenes = family.scenes;
      break;
    }
  }
  // Two colours of one family still get two pictures.
  const fresh = scenes.filter((s) => !used.has(s));
  const scene = pick(rng, fresh.length > 0 ? fresh : scenes);
  used.add(scene);
  return scene;
}

/** One statement as an image. */
export function figurative(statement: string, rng: Rng): string {
  const pairs = assignments(statement);
  if (pairs.length > 0) {
    const used = new Set<string>();
    const lines = pairs.map((p) => fill(pick(rng, images.colourLine), { part: p.partWritten, colour: p.colour, scene: sceneFor(p.colour, rng, used) }));
    return endSentence(capitalise(lines.join(', and ')));
  }
  const numbers = numberValues(statement);
  const fact = inline(core(statement));
  const framed = fill(pick(rng, images.frames), { fact });
  return numbers.length > 0 ? `${framed.replace(/\.$/, '')}, ${fill(images.numberLine, { number: numbers[0]! })}.` : framed;
}

export const pIntVoice: Voice = {
  persona: 'P-INT',
  stock: JSON.stringify(images),
  speak: (facts, rng) =>
    assemble(style, rng, facts, (f) => {
      if (f.mode === 'defend') return fill(pick(rng, style.defend), { stance: f.stance ?? f.statement });
      if (f.mode === 'concede') return fill(pick(rng, style.concede), { fact: inline(figurative(f.statement, rng)) });
      return figurative(f.statement, rng);
    }),
};
