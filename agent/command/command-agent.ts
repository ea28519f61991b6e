import { agentEnvironment } from '../../sandbox/child-env.js';
import { parseAgentLine, toHarnessMessage } from './command-protocol.js';
import { spawnGroup, tail, type GroupProcess } from '../../sandbox/process-group.js';
import { AgentCrash, type Agent, type AgentSession, type Decision } from '../types.js';

export interface CommandAgentOptions {
  /** A shell command line, run with /bin/sh in `cwd`. */
  command: string;
  /** How long the program may take to answer one message before the episode is ended as errored. */
  stepTimeoutMs: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How reports name this agent (IWB_AGENT_NAME); `command` by default. */
  name?: string;
}

export const DEFAULT_COMMAND_STEP_TIMEOUT_MS = 300_000;

/**
 * A program speaking the JSON Lines protocol of command-protocol.ts, one process per episode. A
 * program that exits, or stays silent past the step timeout, is a broken agent: AgentCrash ends the
 * episode as errored with the program's stderr kept, so it is never scored as a bad website.
 */
export function createCommandAgent(options: CommandAgentOptions): Agent {
  return {
    name: options.name ?? 'command',
    config: { kind: 'command', command: options.command, version: 1 },
    start: async () => new CommandSession(options),
  };
}

class CommandSession implements AgentSession {
  private readonly proc: GroupProcess;
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;

  constructor(private readonly options: CommandAgentOptions) {
    this.proc = spawnGroup(options.command, [], {
      cwd: options.cwd,
      env: agentEnvironment(options.env),
      shell: true,
      stdin: 'pipe',
      onStdout: (chunk) => this.take(chunk),
    });
    // A program that died makes writes fail with EPIPE; the exit is reported by next(), not as a crash here.
    this.proc.child.stdin?.on('error', () => undefined);
    void this.proc.exited.then(() => this.waiter?.());
  }

  async next(observation: Parameters<AgentSession['next']>[0]): Promise<Decision> {
    if (this.proc.hasExited()) throw this.crash(`the agent program exited (${await this.proc.exited}) before it was sent the ${observation.type} message`);
    this.proc.child.stdin?.write(JSON.stringify(toHarnessMessage(observation)) + '\n');
    return parseAgentLine(await this.readLine());
  }

  stderr(): string {
    return this.proc.stderr();
  }

  async close(): Promise<void> {
    this.proc.child.stdin?.end();
    await this.proc.kill(1000);
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line !== '') this.lines.push(line);
    }
    this.waiter?.();
  }

  private async readLine(): Promise<string> {
    const deadline = Date.now() + this.options.stepTimeoutMs;
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      if (this.proc.hasExited()) {
        throw this.crash(`the agent program exited (${await this.proc.exited}) without answering`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw this.crash(
          `the agent program gave no answer within ${this.options.stepTimeoutMs} ms (IWB_AGENT_STEP_TIMEOUT_MS). If it did answer, the line may be ` +
            'sitting in its stdout buffer: flush after every line (Python: print(..., flush=True) or python -u; C: fflush(stdout))',
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }

  private crash(message: string): AgentCrash {
    return new AgentCrash(`${message} (command: ${this.options.command})`, tail(this.proc.stderr(), 40, 4000));
  }
}
