import { promises as fs } from 'node:fs';
import { HELLO_MESSAGE, parseAgentLine, toHarnessMessage } from './command-protocol.js';
import { tail } from '../../sandbox/process-group.js';
import { AgentCrash, AgentUnstartable, type Agent, type AgentContext, type AgentSession, type Decision } from '../types.js';
import { agentEnvironment } from '../../sandbox/env.js';
import { agentProgramPaths } from '../../sandbox/exposures.js';
import { interpreterPaths } from '../../sandbox/interpreter-paths.js';
import { AGENT_LIMITS, type Exposure, type ResourceLimits } from '../../sandbox/policy.js';
import { describeExit } from '../../sandbox/limits-text.js';
import { getSandbox, type Sandbox, type SandboxedProcess } from '../../sandbox/sandbox.js';
import { endpointsInValues, uniqueEndpoints } from '../../sandbox/endpoints.js';

export interface CommandAgentOptions {
  /** A shell command line, run with /bin/sh in `cwd`. */
  command: string;
  /** How long the program may take to answer one message before the episode is ended as errored. */
  stepTimeoutMs: number;
  cwd: string;
  /** The environment the agent's allowlisted one is drawn from (default: the harness's own, sandbox/env.ts). */
  env?: NodeJS.ProcessEnv;
  /** How reports name this agent (IWB_AGENT_NAME); `command` by default. */
  name?: string;
  /** Default: the process's sandbox (sandbox/sandbox.ts). */
  sandbox?: Sandbox;
  limits?: ResourceLimits;
  /** Longest protocol line read from the agent (default 32 MiB). */
  maxLineChars?: number;
}

export const DEFAULT_COMMAND_STEP_TIMEOUT_MS = 300_000;
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/**
 * A program speaking the JSON Lines protocol of command-protocol.ts, one sandboxed process per
 * episode. A program that exits, stays silent past the step timeout or floods stdout is a broken
 * agent: AgentCrash ends the episode as the agent's failure (agent-failed) with the program's stderr kept,
 * and the site it left is judged.
 */
export function createCommandAgent(options: CommandAgentOptions): Agent {
  return {
    name: options.name ?? 'command',
    config: { kind: 'command', command: options.command, version: 1 },
    start: (ctx) => CommandSession.open(options, ctx),
  };
}

export class CommandSession implements AgentSession {
  private proc!: SandboxedProcess;
  private partial: string[] = [];
  private partialChars = 0;
  private readonly lines: string[] = [];
  private queuedChars = 0;
  private overflow: string | undefined;
  private waiter: (() => void) | undefined;
  /** Whether the program has answered anything yet: an exit before that may be the sandbox's failure to start it. */
  private answered = false;

  private constructor(
    private readonly options: CommandAgentOptions,
    private readonly limits: ResourceLimits,
  ) {}

  static open(options: CommandAgentOptions, ctx: AgentContext): Promise<CommandSession> {
    return CommandSession.spawn(options, [ctx.workspace, ctx.shotsDir]);
  }

  /**
   * The program with its own files and `extra` in view (an episode's workspace and screenshots; nothing
   * for the start-up hello). Its interpreter's installation comes along (a virtualenv, pyenv), read-only.
   */
  static async spawn(options: CommandAgentOptions, extra: (string | undefined)[]): Promise<CommandSession> {
    const sandbox = options.sandbox ?? getSandbox();
    const session = new CommandSession(options, options.limits ?? AGENT_LIMITS);
    // The agent reads its own program, the site it is building and the screenshots; it writes only
    // through the protocol, so the workspace limits hold.
    const exposures: Exposure[] = agentProgramPaths(options.command, options.cwd, sandbox.config.hidden).map((p) => ({ ...p, writable: false }));
    for (const p of interpreterPaths(options.command, options.cwd, sandbox.config.hidden)) {
      // A mounted virtualenv already holds its own links (bin/python -> the installation): making them again fails.
      for (const e of exposures) if (e.alias && (e.alias.at === p || e.alias.at.startsWith(p + '/'))) delete e.alias;
      if (!exposures.some((e) => e.path === p || p.startsWith(e.path + '/'))) exposures.push({ path: p, writable: false });
    }
    if (sandbox.separateUser) {
      for (const e of exposures) {
        const mode = (await fs.stat(e.path)).mode;
        if ((mode & 0o005) !== 0o005) {
          throw new AgentCrash(
            `the agent's folder ${e.path} is not readable by other users (mode ${(mode & 0o777).toString(8)}), and the sandbox runs ` +
              `the agent as an unprivileged uid of its own: make it readable (chmod o+rx ${e.path}) (command: ${options.command})`,
          );
        }
      }
    }
    for (const p of extra) if (p) exposures.push({ path: p, writable: false });
    const env = agentEnvironment(options.env, sandbox.config.agentEnv);
    // Its model endpoints only: the role's and the setting's, and any URL it was handed in IWB_AGENT_ENV.
    const network = sandbox.config.agentNetwork;
    const passed = sandbox.config.agentEnv.flatMap((n) => (env[n] === undefined ? [] : [env[n]]));
    session.proc = await sandbox.spawn({
      argv: ['/bin/sh', '-c', options.command],
      cwd: options.cwd,
      env,
      exposures,
      network: true,
      ...(network.mode === 'allowlist' ? { egress: uniqueEndpoints([...network.endpoints, ...endpointsInValues(passed)]) } : {}),
      limits: session.limits,
      stdin: 'pipe',
      onStdout: (chunk) => session.take(chunk),
    });
    // A program that died makes writes fail with EPIPE; the exit is reported by next(), not as a crash here.
    session.proc.child.stdin?.on('error', () => undefined);
    void session.proc.exited.then(() => session.waiter?.());
    return session;
  }

  async next(observation: Parameters<AgentSession['next']>[0]): Promise<Decision> {
    if (this.proc.hasExited()) throw await this.exitCrash(`exited (%s) before it was sent the ${observation.type} message`);
    this.proc.child.stdin?.write(JSON.stringify(toHarnessMessage(observation)) + '\n');
    const line = parseAgentLine(await this.readLine());
    return 'usage' in line && line.usage ? { ...line, usageSelfReported: true } : line;
  }

  /**
   * The start-up check's one exchange: the hello, answered by one line (a hello back, or whatever an
   * older program answers an unknown message with). Returns the line; a program that exits first throws.
   */
  async hello(): Promise<string> {
    if (this.proc.hasExited()) throw await this.exitCrash('exited (%s) before it was sent the hello message');
    this.proc.child.stdin?.write(JSON.stringify(HELLO_MESSAGE) + '\n');
    return this.readLine();
  }

  stderr(): string {
    return this.proc.stderr();
  }

  hasExited(): boolean {
    return this.proc.hasExited();
  }

  async close(): Promise<void> {
    this.proc.child.stdin?.end();
    await this.proc.kill(1000);
  }

  private take(chunk: string): void {
    if (this.overflow) return;
    // Only the new chunk is searched for line ends, and a partial line is kept as pieces: joining and
    // rescanning the whole partial line per chunk made a long line quadratic.
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', start)) >= 0) {
      this.partial.push(chunk.slice(start, nl));
      const line = this.partial.join('').trim();
      this.partial = [];
      this.partialChars = 0;
      start = nl + 1;
      if (line !== '') {
        this.lines.push(line);
        this.queuedChars += line.length;
      }
    }
    if (start < chunk.length) {
      this.partial.push(chunk.slice(start));
      this.partialChars += chunk.length - start;
    }
    const max = this.options.maxLineChars ?? MAX_LINE_CHARS;
    // Refused as it streams: a program writing gigabytes must not hold the worker until an outer timeout.
    if (this.partialChars > max || this.queuedChars > max) {
      this.overflow =
        this.partialChars > max
          ? `the agent program wrote a protocol line longer than ${max} characters without a newline; it was stopped`
          : `the agent program wrote more than ${max} characters of lines nobody asked for; it was stopped`;
      this.partial = [];
      this.lines.length = 0;
      void this.proc.kill(0);
    }
    this.waiter?.();
  }

  private async readLine(): Promise<string> {
    const deadline = Date.now() + this.options.stepTimeoutMs;
    for (;;) {
      if (this.overflow) throw this.crash(this.overflow);
      const line = this.lines.shift();
      if (line !== undefined) {
        this.queuedChars -= line.length;
        this.answered = true;
        return line;
      }
      if (this.proc.hasExited()) throw await this.exitCrash('exited (%s) without answering');
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

  /** `what` holds `%s` for the exit code or signal, explained against the limits when a limit ended it. */
  private async exitCrash(what: string): Promise<AgentCrash | AgentUnstartable> {
    const exit = await this.proc.exited;
    if (!this.answered && couldNotStart(exit, this.proc.stderr())) {
      return new AgentUnstartable(
        `the sandbox could not start the agent program: it ${what.replace('%s', String(exit))} (command: ${this.options.command}); ${UNSTARTABLE_HINT}`,
        tail(this.proc.stderr(), 40, 4000),
      );
    }
    return this.crash(`the agent program ${what.replace('%s', String(exit))}${describeExit(exit, this.proc.stderr(), this.limits)}`);
  }

  private crash(message: string): AgentCrash {
    const refused = this.proc.refusedEgress();
    const network = refused.length ? `; the sandbox refused its connections to ${refused.join(', ')} (allow a model endpoint with IWB_AGENT_NETWORK)` : '';
    return new AgentCrash(`${message}${network} (command: ${this.options.command})`, tail(this.proc.stderr(), 40, 4000));
  }
}

/**
 * How the agent's interpreter or program is made visible inside the sandbox; said wherever a start fails.
 * Kept in one place so the start-up check and an episode say the same.
 */
export const UNSTARTABLE_HINT =
  'inside the sandbox the agent sees the system folders (/usr, /bin, /lib, /etc), the folder of each path its command line names, ' +
  "and, for an interpreter given by path, that interpreter's virtualenv and installation (symlinks followed); a program found " +
  'through PATH elsewhere (a pyenv shim, ~/.local/bin) is not: name the interpreter by its path ' +
  '(IWB_AGENT="command:/path/to/venv/bin/python agent.py") or install it under /usr';

/** The shell's "not found" / "cannot execute" (127, 126) or a loader or interpreter that found no file: the program never ran. */
export function couldNotStart(exit: number | string, stderr: string): boolean {
  if (exit === 127 || exit === 126) return true;
  return /: not found$|No such file or directory|error while loading shared libraries|can't open file|cannot execute/m.test(stderr.slice(-4000));
}
