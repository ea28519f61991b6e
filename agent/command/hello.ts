import { CommandSession, UNSTARTABLE_HINT, type CommandAgentOptions } from './command-agent.js';
import { AgentHelloSchema } from './command-protocol.js';
import { AgentUnstartable } from '../types.js';

/** How long a program may take to answer the hello before the run goes on without its answer. */
export const HELLO_TIMEOUT_MS = 30_000;

/**
 * Starts the program once, in the sandbox and with the exposures an episode gives it, sends `hello` and
 * waits for one line. A program that exits first stops the run with its stderr and how the sandbox
 * exposes interpreters; one still running but silent is let through (a program written before `hello`
 * may wait for `start`), with a note. Returns the lines the run announces.
 */
export async function sayHello(options: CommandAgentOptions, timeoutMs = HELLO_TIMEOUT_MS): Promise<string[]> {
  const waitMs = Math.min(timeoutMs, options.stepTimeoutMs);
  const started = Date.now();
  const session = await CommandSession.spawn({ ...options, stepTimeoutMs: waitMs }, []);
  try {
    const line = await session.hello();
    const hello = AgentHelloSchema.safeParse(safeJson(line));
    const who = hello.success ? [hello.data.name, hello.data.version].filter(Boolean).join(' ') : '';
    return [`agent program started in the sandbox and answered hello in ${Date.now() - started} ms${who ? ` (${who})` : ''}`];
  } catch (e) {
    const exited = session.hasExited();
    if (!exited && /gave no answer/.test((e as Error).message)) {
      return [`agent program started but did not answer hello within ${waitMs} ms; going on (answer {"type":"hello"} to make this check exact)`];
    }
    const stderr = session.stderr().trim();
    const why = (e as Error).message;
    const hint = e instanceof AgentUnstartable ? '' : `; ${UNSTARTABLE_HINT}`;
    throw new Error(`the agent program could not start in the sandbox before the first test: ${why}${hint}${stderr ? `\nits stderr:\n${stderr.slice(-2000)}` : ''}`, { cause: e });
  } finally {
    await session.close();
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
