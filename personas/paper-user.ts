import type { ModelClient } from '../llm/client.js';
import { describeError, ModelError } from '../llm/errors.js';
import type { ChatMessage } from '../llm/types.js';
import type { Case } from '../slots/schema.js';
import { stockText } from './answer.js';
import { lexicalLeaks } from './containment.js';
import { prompt } from './definitions.js';
import { bm25Retrieve } from './retrieval.js';
import type { SimulatedUser, UserTurn } from './types.js';
import { personaRule } from './voice.js';

/**
 * The paper-parity user (IWB_USER=paper): as the paper's code does it, one prompt holds the whole gold
 * instruction and the persona's rules (personas/<id>/paper.md), the conversation opens with the visible
 * instruction as the user's own first message, each question is framed as the developer asking, and the
 * model answers at temperature 0.4 with no retrieval, containment or regeneration. A P-CON user defends and
 * concedes within one reply, as the paper's rule says.
 *
 * For the record only (never to shape the answer), each turn notes the slots BM25 finds for the question,
 * so CHR stays comparable with the contained user, and a word-level leak check of the answer.
 */
export const PAPER_TEMPERATURE = 0.4;

export function paperSystemPrompt(c: Case): string {
  return prompt('paper', { gold: c.task.goldInstruction, persona_rules: personaRule(c.persona, 'paper') });
}

export function createPaperUser(c: Case, client: ModelClient): SimulatedUser {
  const system = paperSystemPrompt(c);
  const history: ChatMessage[] = [{ role: 'assistant', content: `What I first told the developer: "${c.instruction}"` }];
  const allowedText = stockText(c.persona);

  return {
    kind: 'paper',
    async answer(question: string): Promise<UserTurn> {
      const retrievedSlotIds = bm25Retrieve(c.slots, question).slotIds;
      const asked: ChatMessage = { role: 'user', content: `The developer asks: "${question}"` };
      const base = { question, retrievedSlotIds, retries: 0, source: 'llm' as const };
      try {
        const r = await client.chat([{ role: 'system', content: system }, ...history, asked], { temperature: PAPER_TEMPERATURE });
        const answer = (r.content ?? '').trim();
        history.push(asked, { role: 'assistant', content: answer });
        const leaks = lexicalLeaks(answer, { slots: c.slots, retrievedIds: retrievedSlotIds, question, instruction: c.instruction, allowedText });
        return {
          ...base,
          answer,
          leakCheck: { leakedSlotIds: leaks.map((l) => l.slotId), method: 'lexical' },
          refused: answer === '',
          tokens: { prompt: r.usage.prompt, completion: r.usage.completion },
        };
      } catch (e) {
        // As with the contained user: a model refusal is recorded and the agent gets nothing; infra errors propagate.
        if (!(e instanceof ModelError)) throw e;
        return { ...base, answer: '', leakCheck: { leakedSlotIds: [], method: 'lexical' }, refused: true, tokens: { prompt: 0, completion: 0 }, error: describeError(e) };
      }
    },
  };
}
