import { closestOf } from '../config/env-registry.js';
import { DEFAULT_AGENT, listAdapters, type StartCheckContext } from './registry.js';

/** The agent cannot run this configuration: one message naming the variable and the fix. */
export class AgentStartError extends Error {
  override name = 'AgentStartError';
}

/**
 * Started once by the runner before any test: the agent named by IWB_AGENT exists (a typo is told the
 * closest name), its adapter accepts its argument and the run's models, it can serve every case, and a
 * program is started once in the sandbox it will run in. Without this, each mistake errored every case,
 * one by one, and a `command:` agent that could not start was scored as a 0%.
 */
export async function checkAgentStarts(spec: string, ctx: StartCheckContext): Promise<string[]> {
  const text = spec.trim() || DEFAULT_AGENT;
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const argument = colon < 0 ? undefined : text.slice(colon + 1);
  const adapters = await listAdapters();
  const found = adapters.find((a) => a.name === name);
  const shown = spec.trim() ? `IWB_AGENT=${spec.trim()}` : `IWB_AGENT unset (so ${DEFAULT_AGENT})`;
  if (!found) {
    const closest = closestOf(name, adapters.map((a) => a.name), 3);
    throw new AgentStartError(
      `${shown}: no agent named "${name}"${closest ? `; did you mean ${closest}?` : ''} Known agents: ` +
        `${adapters.map((a) => a.name).join(', ')} (command:<command line> runs your own program; npx iwb config --vars lists the settings)`,
    );
  }
  if (!found.check) return [];
  try {
    return await found.check(argument, ctx);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new AgentStartError(message.startsWith('IWB_') ? message : `${shown}: ${message}`);
  }
}
