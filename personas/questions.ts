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
