import { randomBytes } from 'node:crypto';

/**
 * Page text is the site's, and the site may aim it at the judge. Before any of it reaches a judge prompt,
 * every spelling a model would read as the untrusted block's fence is defused: the marker phrase in any
 * case, in compatibility forms (NFKC: fullwidth ＵＮＴＲＵＳＴＥＤ, circled or mathematical letters), with
 * letters of other scripts drawn like Latin ones, with invisible characters (zero-width, bidi controls)
 * or a few separators between its letters; and runs of angle brackets. Matching runs on a folded copy;
 * the text itself changes only where a look-alike was cut, so the judge reads the page as it is (an
 * emoji keeps its joiners) and recorded model calls of ordinary pages stay valid.
 */

/** Characters a reader never sees but that split or reorder words: zero-width, joiners, bidi controls, BOM, soft hyphen, tag characters. */
const INVISIBLE_CLASS = '[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]|\udb40[\udc00-\udc7f]';
// eslint-disable-next-line no-misleading-character-class -- the combining marks are what the class is for
const INVISIBLE = new RegExp(`^(?:${INVISIBLE_CLASS})$`);
// eslint-disable-next-line no-misleading-character-class -- as above
const INVISIBLE_AT = new RegExp(`^(?:${INVISIBLE_CLASS})`);

/**
 * Letters of other scripts drawn like Latin ones (Unicode's confusables, the ones fonts render alike),
 * and angle-bracket look-alikes. Each maps to one ASCII character, so positions in the folded text are
 * positions in the original. Keys are NFKC-stable (what NFKC already folds is not listed).
 */
const CONFUSABLE_PAIRS =
  // Cyrillic
  'аaбbвbсcԁdеeёeһhіiїiјjкkӏlмmпnоoрpԛqгrѕsтtսuνvѵvԝwхxуyАaВbСcЕeНhІiЈjКkМmОoРpЅsТtХxУyԜw' +
  // Greek
  'αaβbϲcεeηnιiκkνvοoρpτtυuχxγyΑaΒbΕeΖzΗhΙiΚkΜmΝnΟoΡpΤtΥyΧx' +
  // Latin small capitals and dotless letters
  'ᴀaʙbᴄcᴅdᴇeꜰfɢgʜhɪiᴊjᴋkʟlᴍmɴnᴏoᴘpʀrꜱsᴛtᴜuᴠvᴡwʏyᴢzıiȷj' +
  // Armenian, Cherokee
  'օoոnսuհhꓚcꓓdꓰeꓧhꓲiꓗkꓡlꓟmꓠnꓳoꓑpꓣrꓢsꓔtꓴuꓦvꓪwꓫxꓬyꓜz' +
  // brackets a model would read as the fence's
  '«<»>‹<›>❮<❯>⟨<⟩>〈<〉>˂<˃>ᐸ<ᐳ>≪<≫>⋘<⋙>⟪<⟫>';

const CONFUSABLES = new Map<string, string>();
for (let i = 0; i < CONFUSABLE_PAIRS.length; i += 2) CONFUSABLES.set(CONFUSABLE_PAIRS[i]!, CONFUSABLE_PAIRS[i + 1]!);

/** A folded copy of `text`, one entry of `origin` per folded character: where it came from in `text`. */
interface Folded {
  folded: string;
  origin: number[];
}

/**
 * NFKC per code point, invisible characters dropped, lower case, look-alikes mapped to ASCII. Per code
 * point rather than over the whole string so each folded character still points into the original.
 */
function fold(text: string): Folded {
  let folded = '';
  const origin: number[] = [];
  let at = 0;
  for (const c of text) {
    const here = at;
    at += c.length;
    if (INVISIBLE.test(c)) continue;
    for (const n of c.normalize('NFKC')) {
      const lower = n.toLowerCase();
      const mapped = CONFUSABLES.get(n) ?? CONFUSABLES.get(lower) ?? lower;
      folded += mapped;
      for (let i = 0; i < mapped.length; i++) origin.push(here);
    }
  }
  return { folded, origin };
}

/** The fence's words with up to two separators (spaces, dots, dashes, underscores) between any two letters. */
const MARKER_WORDS = 'untrustedpagecontent';
const MARKER = new RegExp(MARKER_WORDS.split('').join('[^a-z0-9]{0,2}'), 'g');
/** Three or more angle brackets in a row, the fence's own ends. */
const BRACKETS = /<{3,}|>{3,}/g;

export const MARKER_REMOVED = '[marker removed]';
export const FENCE_REMOVED = '[fence removed]';

/** The text with every look-alike of the untrusted block's fence replaced; nothing else changes. */
export function defuseFence(text: string): string {
  const { folded, origin } = fold(text);
  const cuts: { start: number; end: number; with: string }[] = [];
  for (const [re, replacement] of [[MARKER, MARKER_REMOVED], [BRACKETS, FENCE_REMOVED]] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(folded); m; m = re.exec(folded)) {
      const last = origin[m.index + m[0].length - 1]!;
      // The cut ends after the last matched code point, and takes any invisible characters right behind it.
      let end = last + (text.codePointAt(last)! > 0xffff ? 2 : 1);
      while (end < text.length && INVISIBLE_AT.test(text.slice(end, end + 2))) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
      cuts.push({ start: origin[m.index]!, end, with: replacement });
    }
  }
  if (cuts.length === 0) return text;
  cuts.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const cut of cuts) {
    if (cut.start < at) continue;
    out += text.slice(at, cut.start) + cut.with;
    at = cut.end;
  }
  return out + text.slice(at);
}

/** What the injection detector matches against: folded as above, runs of space collapsed. */
export function foldForMatching(text: string): string {
  return fold(text).folded.replace(/\s+/g, ' ');
}

export const UNTRUSTED_MARK = 'UNTRUSTED PAGE CONTENT';

export function newNonce(): string {
  return randomBytes(6).toString('hex');
}

/**
 * The site's text wrapped as data. It is normalised and anything a model could read as our fence is
 * defused first, in any case, script or spacing (above; docs/judge-framing.md).
 */
export function untrustedBlock(body: string, nonce: string): string {
  const clean = defuseFence(body);
  return `<<<BEGIN ${UNTRUSTED_MARK} ${nonce}>>>\n${clean}\n<<<END ${UNTRUSTED_MARK} ${nonce}>>>`;
}
