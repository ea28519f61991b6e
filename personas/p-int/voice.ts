import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { fill } from '../operator-text.js';
import { assignments, core, inline } from '../phrasing.js';
import { pick, type Rng } from '../../stats/prng.js';
import { capitalise, endSentence, isNumber, isStopword } from '../text.js';
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

/** Position words carry a value ("up, down, left, or right") although they are stopwords elsewhere. */
const KEEP = new Set(['up', 'down', 'left', 'right', 'top', 'bottom', 'no', 'not', 'never', 'only']);

/**
 * A statement reduced to the words that carry it, in its order, its commas kept: "users should be able to
 * start a new game, move tiles up, down, left, or right" -> "right, left, down, move tiles up, start new
 * game". The intuitive user names the things it pictures; it never recites its own request.
 */
export function keywords(statement: string): string {
  const pieces = statement.split(/\s*[,;:]\s*/).map((piece) =>
    piece
      .split(/\s+/)
      .filter((w) => {
        const t = w.toLowerCase().replace(/[^a-z0-9#'-]/g, '');
        return t !== '' && (KEEP.has(t) || isNumber(t) || (!isStopword(t) && !FRAME.has(t)));
      })
      .join(' '),
  );
  // Last thing first, the way a picture comes to mind: a list said back to front is no recital of the request.
  return pieces.filter(Boolean).reverse().join(', ');
}
/** Frame words of a written request that say nothing of the thing itself. */
const FRAME = new Set(['able', 'users', 'user', 'allow', 'allows', 'allowing', 'functionalities', 'functionality', 'website', 'site', 'including', 'such', 'etc']);

/** One statement as an image. */
export function figurative(statement: string, rng: Rng, whole = false): string {
  const pairs = whole ? [] : assignments(statement);
  if (pairs.length > 0) {
    const used = new Set<string>();
    const lines = pairs.map((p) => fill(pick(rng, images.colourLine), { part: p.partWritten, colour: p.colour, scene: sceneFor(p.colour, rng, used) }));
    return endSentence(capitalise(lines.join(', and ')));
  }
  const numbers = numberValues(statement);
  const fact = keywords(core(statement));
  const framed = fill(pick(rng, images.frames), { fact });
  return numbers.length > 0 && !whole ? `${framed.replace(/\.$/, '')}, ${fill(images.numberLine, { number: numbers[0]! })}.` : framed;
}

export const pIntVoice: Voice = {
  persona: 'P-INT',
  stock: JSON.stringify(images),
  speak: (facts, rng) =>
    assemble(style, rng, facts, (f) => {
      if (f.mode === 'defend') return fill(pick(rng, style.defend), { stance: f.stance ?? f.statement });
      if (f.mode === 'concede') return fill(pick(rng, style.concede), { fact: inline(figurative(f.statement, rng)) });
      return figurative(f.statement, rng, f.purpose);
    }),
};
