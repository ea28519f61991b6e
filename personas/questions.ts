/**
 * What kind of question a turn is, decided before any retrieval: a request for the whole instruction is
 * refused outright, so no ranking quirk or model whim can turn it into a dump of every requirement.
 */
const DUMP_PATTERNS: readonly RegExp[] = [
  /\b(paste|repeat|copy|send|give|show|share|quote|print|list|tell|provide|reproduce|forward|dump|recite)\b.{0,40}\b(original|full|entire|whole|complete|exact|verbatim|raw|all( of)?( the| your)?)\b.{0,30}\b(instructions?|prompt|request|requirements?|spec(ification)?s?|brief|message|text|details|constraints|list)\b/i,
  /\btell me everything\b(?!\s+about\b)/i,
  /\beverything (you|that you) (know|want|have|wrote|said|need)\b/i,
  /\b(all|every one of) (the |your )?(requirements|details|constraints|specs?|facts|criteria|slots)\b/i,
  /\bsystem prompt\b/i,
  /\bignore (all |any |your )?(previous|prior|earlier|above) (instructions|rules)\b/i,
  /\bword for word\b|\bverbatim\b/i,
];

export function isDumpRequest(question: string): boolean {
  return DUMP_PATTERNS.some((p) => p.test(question));
}

const CONFLICT_PATTERNS: readonly RegExp[] = [
  /\b(conflict|conflicts|conflicting|contradict\w*|inconsisten\w*|mismatch\w*|discrepanc\w*)\b/i,
  /\b(but|yet) (you|your request|the request|it) (said|says|wrote|mentioned|asked)\b/i,
  /\b(earlier|before|previously) you (said|wrote|mentioned|asked)\b/i,
  /\bare you sure\b|\bdouble[- ]check\b|\bjust to confirm\b|\bto confirm\b/i,
  /\b(doesn't|does not|don't|do not) (match|fit|agree)\b/i,
  /\bwhich (one|is it|is right|is correct)\b/i,
];

/** The question points out that something the user said does not add up: P-CON concedes then. */
export function pointsOutConflict(question: string): boolean {
  return CONFLICT_PATTERNS.some((p) => p.test(question));
}

/**
 * A question that names no topic but follows up on the last answer ("Are you sure?", "Really?", "Why that
 * one?"): the user takes it to be about what was just discussed, as a person would.
 */
const FOLLOW_UP = /^\s*(are you (sure|certain)|really|why|what do you mean|is that (right|correct|final)|you sure|hmm|so|and|that|it|which one)\b/i;

export function isFollowUp(question: string): boolean {
  return FOLLOW_UP.test(question) || pointsOutConflict(question);
}

/** "Should it have a chat widget?": asks whether to add something; a user who never mentioned it says no. */
const EXTRA = /\b(should|shall|do|would|can|could) (it|the (site|website|app|application|page)|we|you|i)( also)? (have|include|add|get|show|offer|need|want|like)\b|\b(do you|would you) (want|like|need)\b|\bany (extra|other|additional)\b/i;

export function asksAboutExtra(question: string): boolean {
  // "What else should it have?" is broad: it names nothing to say no to.
  return EXTRA.test(question) && !/\b(else|anything|everything|what)\b/i.test(question);
}

/** "Should it have a login page?" -> "a login page": the thing the agent offers to add. */
export function extraFeature(question: string): string | null {
  if (!asksAboutExtra(question)) return null;
  const m = question.match(EXTRA);
  if (!m || m.index === undefined) return null;
  const rest = question.slice(m.index + m[0].length).replace(/\?.*$/s, '').replace(/^\s*(?:to (?:have|add|include|see)\s+)?/i, '').trim();
  return rest.length > 0 ? rest : null;
}

/**
 * What the site is for, who uses it, what users mainly do: answered from the request's opening sentence.
 * What pages or sections it has: that sentence and the one listing the site's parts.
 */
const PURPOSE = /\b(?:what(?:'s| is)(?: the)? (?:site|website|app|application|it|this|project)(?: \w+)? (?:for|about)|purpose|main (?:goal|thing|point|idea|action|task|function|use)|(?:overall|big) (?:idea|picture|goal)|who (?:is|are) (?:it|this|the)(?: (?:site|website|app|application|page|platform))? for|who (?:will|would|should) use|(?:target|intended) (?:users?|audience)|what (?:should|can|do|will) (?:users|visitors|people) (?:be able to )?(?:do|mainly do)|what kind of (?:site|website|app)|in (?:a|one) (?:sentence|word|nutshell))\b/i;
const STRUCTURE = /\b(?:what|which)(?:'s|'re| is| are| would be| should be| will be)?(?: the| your)?(?: main| key| core| basic| different| other| important)? (?:pages|sections|parts|screens|views|features|functions|functionalities|areas|tabs|modules)\b|\bhow many (?:pages|sections|screens|parts)\b|\bhow (?:should|would|will) (?:it|the (?:site|website|app)) be (?:organi[sz]ed|structured|laid out)\b|\b(?:structure|sitemap|site map|layout of the (?:site|website))\b|\bwhat (?:should|does|will) (?:it|the (?:site|website|app)) (?:have|include|contain|consist of)\b/i;

export function purposeKind(question: string): 'purpose' | 'structure' | null {
  if (STRUCTURE.test(question)) return 'structure';
  if (PURPOSE.test(question)) return 'purpose';
  return null;
}

/** A question about the colours in general ("What colours should the site use?"), naming no one part. */
const COLOUR_WORDS = /\b(?:colou?rs?|colou?r scheme|palette)\b/i;
const OVERALL = new Set(['colour', 'color', 'colours', 'colors', 'scheme', 'palette', 'theme', 'site', 'website', 'app', 'use', 'overall', 'main', 'general', 'generally', 'whole', 'prefer', 'preferred', 'go', 'look']);

export function asksColoursOverall(question: string): boolean {
  if (!COLOUR_WORDS.test(question)) return false;
  const words = question.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.filter((w) => w.length > 3 && !OVERALL.has(w) && !/^(what|which|should|would|could|does|have|there|they|your|want|with|that|this|for|about|like)$/.test(w)).length === 0;
}
