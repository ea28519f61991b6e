import type { ModelClient } from '../llm/client.js';
import type { ChatMessage } from '../llm/types.js';
import type { Slot } from '../slots/schema.js';
import { prompt, type AnswerStyle, type PersonaDefinition } from './definitions.js';
import { fill } from './operators/shared.js';
import { pick, type Rng } from './prng.js';
import { capitalise, endSentence, lowerFirst, sentenceFor, sentences } from './text.js';

/**
 * Stage 2: the answer, written from the retrieved slots alone. For a P-CON slot the user either stands by
 * what the instruction said (stance) or gives the true requirement (fact), never both at once.
 */
export interface AnswerFact {
  slot: Slot;
  mode: 'state' | 'defend' | 'concede';
  /** For 'defend': what the visible instruction wrongly says about this slot. */
  stance?: string;
}

/** The sentence of the visible instruction that states a slot: the contradictory stance P-CON defends. */
export function stanceFor(slot: Slot, instruction: string): string {
  const sents = sentences(instruction);
  const i = sentenceFor(slot, sents);
  return i >= 0 ? sents[i]! : endSentence(slot.task);
}

function factLine(f: AnswerFact, style: AnswerStyle, rng: Rng): string {
  if (f.mode === 'defend') return fill(pick(rng, style.defend), { stance: f.stance ?? f.slot.task });
  if (f.mode === 'concede') return fill(pick(rng, style.concede), { fact: endSentence(lowerFirst(f.slot.task)) });
  return endSentence(lowerFirst(f.slot.task));
}

/** The offline answer: the persona's stock opener and closer around each retrieved fact, seeded. */
export function templatedAnswer(facts: readonly AnswerFact[], style: AnswerStyle, rng: Rng): string {
  if (facts.length === 0) return pick(rng, style.nonAnswer);
  const opener = pick(rng, style.openers);
  const lines = facts.map((f) => factLine(f, style, rng));
  const body = lines.map((l, i) => (i === 0 ? l : `${style.factJoin}${lowerFirst(l)}`)).join('');
  // After a full stop (or no opener) the fact starts a sentence; after "so," or "Just:" it runs on.
  const startsSentence = opener === '' || /[.!?]\s*$/.test(opener) || facts[0]!.mode !== 'state';
  const first = `${opener}${startsSentence ? capitalise(body) : body}`;
  return `${first}${pick(rng, style.closers)}`.trim();
}

/** Everything the templates can say, so containment does not mistake a stock phrase for a leak. */
export function styleText(style: AnswerStyle): string {
  return [...style.openers, ...style.closers, style.factJoin, ...style.nonAnswer, ...style.refusal, ...style.defend, ...style.concede].join(' ');
}

function factsBlock(facts: readonly AnswerFact[]): string {
  if (facts.length === 0) return '(none: you have no specific wish about what was asked; say so briefly, in character)';
  return facts
    .map((f) => {
      if (f.mode === 'defend') return `- Stand by what you wrote, briefly and without giving in: "${f.stance}"`;
      if (f.mode === 'concede') return `- Admit you got this wrong before; the true requirement is: ${f.slot.task} (${f.slot.expectedResult})`;
      return `- ${f.slot.task} (${f.slot.expectedResult})`;
    })
    .join('\n');
}

export function answerMessages(def: PersonaDefinition, instruction: string, facts: readonly AnswerFact[], question: string): ChatMessage[] {
  const system = prompt('answer', {
    name: def.name,
    style: def.answerStyle.description,
    max_words: String(def.answerStyle.maxWords),
    instruction,
    facts: factsBlock(facts),
  });
  return [
    { role: 'system', content: system },
    { role: 'user', content: question },
  ];
}

/** One LLM answer; `previous` carries earlier leaky replies so the model knows what to leave out. */
export async function llmAnswer(
  client: ModelClient,
  messages: ChatMessage[],
  previous: Array<{ answer: string; terms: string[] }>,
): Promise<{ text: string; usage: { prompt: number; completion: number } }> {
  const convo: ChatMessage[] = [...messages];
  for (const p of previous) {
    convo.push(
      { role: 'assistant', content: p.answer },
      {
        role: 'user',
        content:
          `That reply revealed requirements that were not asked about (${p.terms.join(', ')}). ` +
          'Answer the same question again using only the facts you were given, and nothing about those.',
      },
    );
  }
  const r = await client.chat(convo);
  return { text: (r.content ?? '').trim(), usage: r.usage };
}
