import { LlmSession } from '../llm-session.js';
import { loadPrompts, type Protocol } from '../prompts.js';
import type { AdapterModule } from '../registry.js';

/**
 * The built-in LLM agent on any OpenAI-compatible endpoint, using the `agent` role's model.
 *
 *   IWB_AGENT=openai            function calling: clarify / implement / verify / submit tools
 *   IWB_AGENT=openai:tools      the same, spelled out
 *   IWB_AGENT=openai:artifact   bolt-style artifact text, for models without tool calling
 *
 * When a `copilot` model is configured (IWB_COPILOT_MODEL), the agent is treated as text-only: each
 * screenshot is described by the copilot and the description is what the agent reads.
 */

const PROTOCOLS: Record<string, Protocol> = { '': 'tools', tools: 'tools', artifact: 'artifact', bolt: 'artifact', text: 'artifact' };

export const adapter: AdapterModule = {
  name: 'openai',
  describe: 'an LLM agent on the agent role model (openai = tool calling, openai:artifact = bolt-style text)',
  create(argument, deps) {
    const protocol = PROTOCOLS[(argument ?? '').trim().toLowerCase()];
    if (!protocol) {
      throw new Error(`IWB_AGENT=openai:${argument}: unknown protocol "${argument}"; use openai, openai:tools or openai:artifact`);
    }
    const client = deps.clients.agent;
    if (!client) {
      throw new Error(
        'IWB_AGENT=openai needs an agent model: set IWB_AGENT_MODEL, and IWB_AGENT_BASE_URL for a local ' +
          'OpenAI-compatible endpoint or IWB_AGENT_API_KEY / OPENAI_API_KEY for a hosted one',
      );
    }
    const copilot = deps.clients.copilot;
    const prompts = loadPrompts(protocol);
    const name = protocol === 'tools' ? 'openai' : 'openai:artifact';
    return {
      name,
      config: {
        kind: 'openai',
        protocol,
        model: client.model,
        copilot: copilot?.model ?? null,
        prompts: prompts.hash,
        version: 1,
      },
      start: async () => new LlmSession({ client, protocol, prompts, ...(copilot ? { copilot } : {}) }),
    };
  },
};
