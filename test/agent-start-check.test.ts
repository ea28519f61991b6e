import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CommandSession } from '../agent/command/command-agent.js';
import { blameOf } from '../agent/episode.js';
import { AgentStartError, checkAgentStarts } from '../agent/start-check.js';
import type { StartCheckContext } from '../agent/registry.js';
import { AgentUnstartable } from '../agent/types.js';
import { startRun } from '../launch/start.js';
import { readRoles } from '../config/roles.js';
import { getSandbox } from '../sandbox/sandbox.js';
import { loadDataset } from '../slots/load.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const builtin = await loadDataset('builtin', ROOT);
const isolation = getSandbox().detected.isolation;
const needsSandbox = isolation === 'bwrap' || isolation === 'user' ? false : `needs a sandbox, unavailable here (${isolation})`;
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true }))));

const ctx = (extra: Partial<StartCheckContext> = {}): StartCheckContext => ({
  cases: builtin.cases.slice(0, 2),
  roles: readRoles({}),
  cwd: ROOT,
  env: { PATH: '/usr/bin:/bin' },
  sandbox: getSandbox(),
  ...extra,
});

async function refusal(spec: string, c: StartCheckContext): Promise<string> {
  const e = await checkAgentStarts(spec, c).then(
    () => assert.fail(`${spec} passed the start check`),
    (err: unknown) => err,
  );
  assert.ok(e instanceof AgentStartError, String(e));
  return e.message;
}

/**
 * A virtualenv as `python -m venv` lays it out, whose `bin/python` links to an interpreter installed
 * outside the system folders (pyenv's layout): here dash, copied, standing in for Python.
 */
async function venvOutsideSystem(): Promise<{ venv: string; program: string }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-venv-'));
  dirs.push(root);
  await fs.chmod(root, 0o755);
  const install = path.join(root, 'install', 'bin');
  await fs.mkdir(install, { recursive: true, mode: 0o755 });
  await fs.copyFile('/bin/dash', path.join(install, 'dash'));
  await fs.chmod(path.join(install, 'dash'), 0o755);
  const venv = path.join(root, 'venv');
  await fs.mkdir(path.join(venv, 'bin'), { recursive: true, mode: 0o755 });
  await fs.writeFile(path.join(venv, 'pyvenv.cfg'), `home = ${install}\n`);
  await fs.symlink(path.join(install, 'dash'), path.join(venv, 'bin', 'python'));
  const programDir = path.join(root, 'agent');
  await fs.mkdir(programDir, { mode: 0o755 });
  const program = path.join(programDir, 'agent.sh');
  await fs.writeFile(program, 'read line\necho \'{"type":"hello","name":"venv-agent"}\'\nread line\n', { mode: 0o755 });
  return { venv, program };
}

describe('the agent is started once before the first test', () => {
  test('an unknown agent name stops the run with the closest name', async () => {
    const message = await refusal('opnai', ctx());
    assert.match(message, /^IWB_AGENT=opnai: no agent named "opnai"; did you mean openai\?/);
    assert.match(await refusal('zzzzzzzz', ctx()), /no agent named "zzzzzzzz" Known agents: command, null, openai, reference/);
  });

  test('the reference agent refuses a dataset without reference sites, and serves the built-in tasks', async () => {
    assert.deepEqual(await checkAgentStarts('', ctx()), []);
    const bare = builtin.cases.slice(0, 3).map((c) => ({ ...c, task: { ...c.task, referenceSite: undefined } }));
    const message = await refusal('', ctx({ cases: bare }));
    assert.match(message, /^IWB_AGENT unset \(so reference\): .*3 of 3 cases have none.*set IWB_AGENT/);
  });

  test('openai without an agent model, or with an unknown protocol, stops the run', async () => {
    assert.match(await refusal('openai', ctx()), /IWB_AGENT=openai needs an agent model: set IWB_AGENT_MODEL/);
    assert.match(await refusal('openai:bolts', ctx({ roles: readRoles({ IWB_AGENT_MODEL: 'm', IWB_AGENT_BASE_URL: 'http://127.0.0.1:9/v1' }) })), /unknown protocol "bolts"/);
  });

  test('a command agent answers hello in the sandbox; one that cannot start stops the run with its stderr and the fix', { skip: needsSandbox }, async () => {
    const notes = await checkAgentStarts('command:node examples/echo-agent.mjs', ctx());
    assert.match(notes[0]!, /answered hello in \d+ ms \(echo-agent 1\)/);
    const message = await refusal('command:/nowhere/bin/python agent.py', ctx());
    assert.match(message, /^IWB_AGENT=command:\/nowhere\/bin\/python agent.py: the agent program could not start in the sandbox/);
    assert.match(message, /exited \(127\)/);
    assert.match(message, /\/nowhere\/bin\/python: not found/, 'the shell\'s own words are kept');
    assert.match(message, /virtualenv/, 'the fix is named');
  });

  test("a virtualenv's interpreter, linked outside the system folders, is mounted and starts", { skip: needsSandbox }, async () => {
    const { venv, program } = await venvOutsideSystem();
    const notes = await checkAgentStarts(`command:${venv}/bin/python ${program}`, ctx());
    assert.match(notes[0]!, /answered hello .*\(venv-agent\)/);
  });

  test('an episode whose program the sandbox cannot start is errored (the harness), never agent-failed', { skip: needsSandbox }, async () => {
    const session = await CommandSession.spawn({ command: '/nowhere/bin/python agent.py', stepTimeoutMs: 10_000, cwd: ROOT, env: { PATH: '/usr/bin:/bin' } }, []);
    const e = await session.next({ type: 'start', instruction: 'A page.', stepsLeft: 5 }).then(
      () => assert.fail('a program that does not exist answered'),
      (err: unknown) => err,
    );
    await session.close();
    assert.ok(e instanceof AgentUnstartable, String(e));
    assert.equal(blameOf(e), 'infra');
    // A program that started and then crashed stays the agent's failure.
    const crashing = await CommandSession.spawn({ command: 'node -e "process.exit(3)"', stepTimeoutMs: 10_000, cwd: ROOT, env: { PATH: '/usr/bin:/bin' } }, []);
    const crash = await crashing.next({ type: 'start', instruction: 'A page.', stepsLeft: 5 }).catch((err: unknown) => err);
    await crashing.close();
    assert.equal(blameOf(crash), 'agent');
  });

  test('the paper profile without a user model stops the run once, naming IWB_PROFILE', async () => {
    await assert.rejects(startRun({ IWB_PROFILE: 'paper' }, ROOT), /^StartError: IWB_PROFILE=paper .*set IWB_USER_MODEL/);
    await assert.rejects(startRun({ IWB_AGENT: 'opnai' }, ROOT), /did you mean openai/);
  });
});
