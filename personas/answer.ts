import type { ModelClient } from '../llm/client.js';
import type { ChatMessage } from '../llm/types.js';
import type { Persona } from '../slots/schema.js';
import { personaDefinition, prompt } from './definitions.js';
import { personaRule, type SpokenFact } from './voice.js';

/**
 * Stage 2 with a model: the contained user's prompt. The model gets the persona's rule, the request the
 * agent saw, the conversation so far, and per retrieved slot only the gold instruction's own words about it
 * (never the slot's test wording), with what to do with each: state it, stand by the request, or concede.
 */
function factLine(f: SpokenFact): string {
  switch (f.mode) {
    case 'state':
      return `- You want this (your own earlier words): "${f.statement}"`;
    case 'defend':
      return `- Stand by what your request said, briefly, without giving in: "${f.stance ?? f.statement}"`;
    case 'concede':
      return f.repeated
        ? `- You already admitted your request had this wrong; keep to what you really want: "${f.statement}"`
        : `- Admit your request had this wrong; what you really want is: "${f.statement}"`;
    case 'exclude':
      return '- You want nothing on the site beyond what you asked for.';
    case 'reject':
      return `- The developer assumed something you never asked for ("${f.statement}"). Say no, plainly and in your voice; never agree to it.`;
    case 'unstated':
      return '- You never thought about this; say you have no particular wish.';
  }
}

export function answerMessages(persona: Persona, instruction: string, facts: readonly SpokenFact[], history: readonly { question: string; answer: string }[], question: string): ChatMessage[] {
  const def = personaDefinition(persona);
  const system = prompt('answer', {
    name: def.name,
    rule: personaRule(persona, 'voice'),
    max_words: String(def.answerStyle.maxWords),
    instruction,
    facts: facts.length > 0 ? facts.map(factLine).join('\n') : '- (nothing: say briefly, in character, that you have no particular wish)',
  });
  const convo: ChatMessage[] = [{ role: 'system', content: system }];
  for (const h of history) convo.push({ role: 'user', content: h.question }, { role: 'assistant', content: h.answer });
  convo.push({ role: 'user', content: question });
  return convo;
}

/** Why a reply was thrown away, told to the model so the next one avoids it. */
export type Rejection = { answer: string; reason: 'leak'; terms: string[] } | { answer: string; reason: 'quote' };

/** One model answer; `previous` carries rejected replies and why, so the model knows what to change. */
export async function llmAnswer(
  client: ModelClient,
  messages: ChatMessage[],
  previous: readonly Rejection[],
): Promise<{ text: string; usage: { prompt: number; completion: number } }> {
  const convo: ChatMessage[] = [...messages];
  for (const p of previous) {
    convo.push(
      { role: 'assistant', content: p.answer },
      {
        role: 'user',
        content:
          p.reason === 'leak'
            ? `That reply revealed requirements that were not asked about (${p.terms.join(', ')}). Answer the same question again using only the facts you were given, and nothing about those.`
            : 'That reply reads like a copied specification. Answer the same question again in your own words, the way you talk.',
      },
    );
  }
  const r = await client.chat(convo);
  return { text: (r.content ?? '').trim(), usage: r.usage };
}

/** Everything the offline templates can say, so containment does not mistake a stock phrase for a leak. */
export function stockText(persona: Persona): string {
  const s = personaDefinition(persona).answerStyle;
  const operator = JSON.stringify(personaDefinition(persona).operator);
  return [...s.openers, ...s.closers, s.factJoin, ...s.nonAnswer, ...s.refusal, ...s.defend, ...s.concede, ...s.onlyAsked, ...s.rejectPremise, operator].join(' ');
}
