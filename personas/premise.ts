import { colourKeys, numberValues } from './values.js';
import { contentStems } from './text.js';

/**
 * A question that asserts something and asks for a yes ("The spec says users can pay online, right?", "So the
 * background is red?") carries a premise. The user checks the premise against what it really wants (the gold
 * instruction): a feature or value the gold never states is denied in the persona's voice, never waved
 * through with "Sure". Only the gold decides; the agent's wording is not trusted to be about anything real.
 */
const LEADS: readonly RegExp[] = [
  /^(?:so|and|ok(?:ay)?|alright|also|just to (?:confirm|check|be sure)|to confirm|quick check)[,:]?\s+/i,
  /^(?:i (?:assume|take it|guess|understand|gather|believe|think)|i'm assuming|am i right (?:that|in thinking))\s+(?:that\s+)?/i,
  /^(?:is it|isn't it) (?:true|correct|right) that\s+/i,
  /^(?:the |your )?(?:spec(?:ification)?|brief|request|instructions?|requirements?|description)\s+(?:says?|said|mentions?|mentioned|wants?|wanted|asks? for|asked for|calls? for|requires?|required|specif(?:y|ies|ied)|states?|stated)\s+(?:that\s+)?/i,
  /^you\s+(?:said|say|mentioned|wanted|want|asked for|wrote|specified|need|needed|requested)\s+(?:that\s+)?/i,
  /^(?:did|didn't|don't|do) you (?:say|ask for|want|mention|need|request)\s+(?:that\s+)?/i,
];
const TAG = /,?\s*(?:right|correct|yes|yeah|true|isn't (?:it|that (?:so|right))|doesn't it|don't you|didn't you|is that (?:right|correct)|am i right|no)\s*\?\s*$/i;

/** The asserted claim of a yes-question, or null when the question asks rather than asserts. */
export function claimOf(question: string): string | null {
  const q = question.trim();
  const tagged = TAG.test(q);
  let claim = q.replace(TAG, '').replace(/\?\s*$/, '').trim();
  let led = false;
  for (let pass = 0; pass < 3; pass++) {
    for (const re of LEADS) {
      if (re.test(claim)) {
        claim = claim.replace(re, '');
        led = true;
      }
    }
  }
  // "Did you ask for payments?" and "You wanted a login page?" assert as much as a tag question does.
  if (!tagged && !(led && /\?\s*$/.test(q))) return null;
  // A wh-question with a tag ("What colour is it, right?") asks; it asserts nothing to check.
  if (/^(?:what|which|how|who|where|when|why)\b/i.test(claim)) return null;
  return contentStems(claim).length > 0 ? claim.replace(/[.]+$/, '') : null;
}

export interface PremiseCheck {
  /** True when the gold instruction supports the claim. */
  holds: boolean;
  /** Colours and numbers the claim states that the gold does not (a swapped value). */
  wrongValues: string[];
  /** The claim's content words the gold never uses. */
  unknownWords: string[];
}

/** Claim words too generic to tell one request from another ("site", "users", "have"). */
const FRAME = new Set(['site', 'website', 'web', 'app', 'application', 'user', 'visitor', 'spec', 'feature', 'functionality', 'option', 'support', 'allow', 'able', 'have', 'include', 'provide', 'use', 'show', 'also', 'want', 'wanted', 'ask', 'asked', 'said']);

export function checkPremise(claim: string, gold: string): PremiseCheck {
  const goldColours = colourKeys(gold);
  const goldNumbers = new Set(numberValues(gold));
  const related = (c: string) => [...goldColours].some((g) => g.includes(c) || c.includes(g));
  const wrongValues = [...[...colourKeys(claim)].filter((c) => !related(c)), ...numberValues(claim).filter((n) => !goldNumbers.has(n))];
  const goldStems = new Set(contentStems(gold));
  const stems = [...new Set(contentStems(claim))].filter((s) => !FRAME.has(s) && !/^\d/.test(s) && !colourKeys(s).size);
  const unknownWords = stems.filter((s) => !goldStems.has(s));
  // Half or more of what the claim is about never appears in the gold: the user never asked for it.
  const unsupported = stems.length > 0 && unknownWords.length * 2 >= stems.length;
  return { holds: wrongValues.length === 0 && !unsupported, wrongValues, unknownWords };
}

/** The claim as something one asks for: "users can pay for services online" -> "paying for services online" is
 * beyond a word list, so the subject and modal are dropped: "pay for services online". */
export function premisePhrase(claim: string): string {
  return claim
    .trim()
    .replace(/[.!?]+$/, '')
    .replace(/^(?:that\s+)?(?:the (?:site|website|app|application|page|platform)|it|users?|visitors?|people|customers?|you|we)\s+(?:can|could|should|will|would|must|may|is able to|are able to|has|have|had|needs?|gets?)\s+(?:be able to\s+)?/i, '')
    .replace(/^(?:that\s+)?(?:the (?:site|website|app|application|page|platform)|it)\s+(?:is|are|has|have)\s+/i, '');
}
