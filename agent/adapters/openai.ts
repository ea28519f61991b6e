import { AUDIT_VERSION } from '../audit.js';
import { LlmSession } from '../builtin/llm-session.js';
import { loadPrompts } from '../builtin/prompts.js';
import { PROTOCOLS, type Protocol } from '../builtin/protocols.js';
import type { AdapterModule } from '../registry.js';

/**
 * The built-in LLM agent on any OpenAI-compatible endpoint, using the `agent` role's model.
 *
 *   IWB_AGENT=openai            function calling: clarify / implement / verify / submit tools
 *   IWB_AGENT=openai:tools      the same, spelled out
 *   IWB_AGENT=openai:artifact   bolt-style artifact text, for models without tool calling
 *   IWB_AGENT=openai:paper      the paper's own bolt protocol and prompt rules (agent/builtin/paper-*.ts),
 *                               so agents written for the paper's harness run here unchanged
 *
 * A verify with criteria is audited by the copilot model, or by the agent's own model when no copilot is
 * configured (as the paper's shipped config does). In the tools and artifact protocols, a configured
 * copilot also describes each screenshot for the agent, which is then treated as text-only; in the paper
 * protocol the builder sees the audit's last frame itself, as there.
 */

/** What `IWB_AGENT=openai:<argument>` may say, beside a protocol's own name. */
const ALIASES: Record<string, Protocol> = { '': 'tools', bolt: 'artifact', text: 'artifact' };

export const adapter: AdapterModule = {
  name: 'openai',
  describe: 'an LLM agent on the agent role model (openai = tool calling, openai:artifact = bolt-style text, openai:paper = the paper protocol)',
  // The first model call is the preflight of the agent role (fixtures/global-setup.ts), before any test.
  async check(argument, { roles }) {
    protocolOf(argument);
    if (!roles.agent) throw new Error(NEEDS_MODEL);
    return [];
  },
  create(argument, deps) {
    const protocol = protocolOf(argument);
    const client = deps.clients.agent;
    if (!client) throw new Error(NEEDS_MODEL);
    const copilot = deps.clients.copilot;
    const auditor = copilot ?? client;
    const prompts = loadPrompts(protocol);
    return {
      name: PROTOCOLS[protocol].agentName,
      config: {
        kind: 'openai',
        protocol,
        model: client.model,
        copilot: copilot?.model ?? null,
        auditor: auditor.model,
        audit: AUDIT_VERSION,
        prompts: prompts.hash,
        version: 2,
      },
      auditor,
      start: async ({ browser }) =>
        new LlmSession({
          client,
          protocol,
          prompts,
          browser,
          ...(copilot ? { copilot } : {}),
          ...(PROTOCOLS[protocol].maxTokens !== undefined ? { maxTokens: PROTOCOLS[protocol].maxTokens } : {}),
        }),
    };
  },
};

const NEEDS_MODEL =
  'IWB_AGENT=openai needs an agent model: set IWB_AGENT_MODEL, and IWB_AGENT_BASE_URL for a local ' +
  'OpenAI-compatible endpoint or IWB_AGENT_API_KEY / OPENAI_API_KEY for a hosted one';

function protocolOf(argument: string | undefined): Protocol {
  const spelled = (argument ?? '').trim().toLowerCase();
  const protocol = Object.hasOwn(ALIASES, spelled) ? ALIASES[spelled] : (Object.keys(PROTOCOLS) as Protocol[]).find((p) => p === spelled);
  if (!protocol) throw new Error(`IWB_AGENT=openai:${argument}: unknown protocol "${argument}"; use openai, openai:tools, openai:artifact or openai:paper`);
  return protocol;
}
