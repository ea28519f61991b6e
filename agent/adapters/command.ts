import { createCommandAgent, DEFAULT_COMMAND_STEP_TIMEOUT_MS, type CommandAgentOptions } from '../command/command-agent.js';
import { sayHello } from '../command/hello.js';
import { AUDIT_VERSION } from '../audit.js';
import type { AdapterDeps, AdapterModule } from '../registry.js';

/**
 * Bring your own agent: `IWB_AGENT=command:<command line>` runs the program once per episode and talks
 * to it in JSON Lines (agent/command/command-protocol.ts, examples/README.md). For example
 * `IWB_AGENT="command:node examples/echo-agent.mjs"`.
 */
export const adapter: AdapterModule = {
  name: 'command',
  describe: 'runs your program as the agent over JSON Lines on stdin/stdout (command:<command line>)',
  // Started once in the sandbox with a hello (agent/command/hello.ts), so a program that cannot start stops the run.
  check: (argument, ctx) => sayHello(commandOptions(argument, { clients: {}, ...ctx })),
  create(argument, deps) {
    const agent = createCommandAgent(commandOptions(argument, deps));
    // A verify with `criteria` is audited by the copilot model, else by the agent role's model, if either is set.
    const auditor = deps.clients.copilot ?? deps.clients.agent;
    if (!auditor) return agent;
    return { ...agent, auditor, config: { ...agent.config, auditor: auditor.model, audit: AUDIT_VERSION } };
  },
};

function commandOptions(argument: string | undefined, deps: AdapterDeps): CommandAgentOptions {
  const command = (argument ?? '').trim();
  if (!command) {
    throw new Error('IWB_AGENT=command:<command line>: no command given; for example IWB_AGENT="command:node examples/echo-agent.mjs"');
  }
  return {
    command,
    stepTimeoutMs: deps.commandStepTimeoutMs ?? DEFAULT_COMMAND_STEP_TIMEOUT_MS,
    cwd: deps.cwd ?? process.cwd(),
    ...(deps.env ? { env: deps.env } : {}),
    ...(deps.agentName ? { name: deps.agentName } : {}),
    ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
  };
}
