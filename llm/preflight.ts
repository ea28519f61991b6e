import { openaiSdk } from './openai-sdk.js';
import { deflateSync } from 'node:zlib';
import { z } from 'zod';
import { ModelClient } from './client.js';
import { describeError, InfraError, ModelError } from './errors.js';
import { roleVariable, type Role, type RoleConfig, type RoleConfigs } from '../config/roles.js';

/**
 * Preflight: before a run pays for one episode, every role it uses is asked one small request per
 * capability it needs. `iwb doctor` prints the result; the Playwright run (fixtures/global-setup.ts),
 * `iwb judge calibrate` and `iwb personas` stop on it.
 */
export interface RoleNeeds {
  structured: boolean;
  tools: boolean;
  images: boolean;
}

export interface RoleCheck {
  role: Role;
  model: string;
  baseURL: string | null;
  ok: boolean;
  /** The structured-output mode that worked, null when not needed or none did. */
  structuredOutput: 'json_schema' | 'json_object' | 'prompt' | null;
  /** null when the role does not need it (not asked). */
  tools: boolean | null;
  images: boolean | null;
  problems: string[];
  notes: string[];
  durationMs: number;
}

export interface PreflightReport {
  ok: boolean;
  roles: RoleCheck[];
}

/** What each role must do in a benchmark run with this agent. Roles the run does not use are left out. */
export function runNeeds(roles: RoleConfigs, agentSpec: string): Partial<Record<Role, RoleNeeds>> {
  const out: Partial<Record<Role, RoleNeeds>> = {};
  const spec = agentSpec.trim();
  const llmAgent = spec === 'openai' || spec.startsWith('openai:');
  const toolAgent = spec === 'openai' || spec === 'openai:tools';
  // The auditor (the copilot, else the agent's own model) answers verify audits and deadlock checks in
  // structured replies: its mode is found here, so no worker's first audit is refused and stepped down.
  if (llmAgent && roles.agent) out.agent = { structured: !roles.copilot, tools: toolAgent, images: !roles.copilot };
  if (llmAgent && roles.copilot) out.copilot = { structured: true, tools: false, images: true };
  if (roles.user) out.user = { structured: true, tools: false, images: false };
  if (roles.judge) out.judge = { structured: true, tools: false, images: true };
  // The operator degrades instructions in structured replies; a run does not call it, but a run's
  // preflight learns its mode with the others' so every command of the same setup inherits it.
  if (roles.operator) out.operator = { structured: true, tools: false, images: false };
  return out;
}

/** Every configured role, as `iwb doctor` checks them: what the role can be asked to do anywhere. */
export function allNeeds(roles: RoleConfigs, agentSpec: string): Partial<Record<Role, RoleNeeds>> {
  const out = runNeeds(roles, agentSpec);
  if (roles.agent && !out.agent) out.agent = { structured: false, tools: true, images: !roles.copilot };
  if (roles.copilot && !out.copilot) out.copilot = { structured: true, tools: false, images: true };
  return out;
}

const ProbeSchema = z.object({ ok: z.boolean(), colour: z.string() });

/** A 2x2 red PNG, built here so the check needs no file. */
function redPng(): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const row = Buffer.from([0, 255, 0, 0, 255, 0, 0]);
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat([row, row]))), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

const base = (c: RoleConfig) => `${roleVariable(c.role, 'baseURL')} (or OPENAI_BASE_URL)`;
const key = (c: RoleConfig) => `${roleVariable(c.role, 'apiKey')} (or OPENAI_API_KEY)`;

function imageFix(role: Role): string {
  if (role === 'agent') return 'set IWB_COPILOT_MODEL to a vision model: a text-only agent then reads descriptions of its screenshots';
  return `set ${roleVariable(role, 'model')} to a model that takes images (a vision model)`;
}

/** One role: reachable, key accepted, model known, then each capability it needs. */
export async function checkRole(config: RoleConfig, needs: RoleNeeds, timeoutMs = 60_000): Promise<RoleCheck> {
  const started = Date.now();
  const problems: string[] = [];
  const notes: string[] = [];
  const check: RoleCheck = { role: config.role, model: config.model, baseURL: config.baseURL ?? null, ok: false, structuredOutput: null, tools: null, images: null, problems, notes, durationMs: 0 };
  const timeout = Math.min(timeoutMs, config.timeoutMs ?? timeoutMs);
  const client = new ModelClient({ ...config, timeoutMs: timeout }, { retry: { retries: 1, baseDelayMs: 200, maxDelayMs: 1000 }, schemaRetries: 1 });
  const finish = () => ({ ...check, ok: problems.length === 0, durationMs: Date.now() - started });

  // Reachable and key accepted: the model list is the cheapest request there is.
  const { default: OpenAI } = await openaiSdk();
  const sdk = new OpenAI({ apiKey: config.apiKey, ...(config.baseURL ? { baseURL: config.baseURL } : {}), maxRetries: 0, timeout });
  try {
    const models = await sdk.models.list();
    const ids = models.data.map((m) => m.id);
    // llama.cpp lists its model file and serves any name, so an unknown name is only a note unless the chat below fails.
    if (ids.length && !ids.includes(config.model)) notes.push(`model "${config.model}" is not in the endpoint's model list (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''})`);
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 401 || status === 403) {
      problems.push(`the endpoint refused the key (HTTP ${status}): check ${key(config)}`);
      return finish();
    }
    if (status === undefined) {
      problems.push(`the endpoint ${config.baseURL ?? 'api.openai.com'} cannot be reached (${(e as Error).message}): check ${base(config)} and that the server is running`);
      return finish();
    }
    notes.push(`GET /models answered HTTP ${status}; checking with a chat request instead`);
  }

  try {
    await client.chat([{ role: 'user', content: 'Reply with the single word OK.' }], { maxTokens: 64 });
  } catch (e) {
    problems.push(explain(config, e, 'a plain chat request'));
    return finish();
  }

  if (needs.structured) {
    try {
      const r = await client.structured(
        [{ role: 'system', content: 'You answer health checks.' }, { role: 'user', content: 'Answer with ok true and colour "red".' }],
        ProbeSchema,
        'health_check',
        { maxTokens: 256 },
      );
      if (r.ok) check.structuredOutput = r.mode;
      else problems.push(`structured replies fail their schema (${r.error.issues.slice(0, 200)}): try ${roleVariable(config.role, 'jsonMode')}=prompt or another model`);
    } catch (e) {
      problems.push(explain(config, e, 'a structured (JSON) request'));
    }
  }

  if (needs.tools) {
    try {
      const r = await client.chat([{ role: 'user', content: 'Call the ping tool now.' }], {
        tools: [{ name: 'ping', description: 'Answers a health check.', parameters: { type: 'object', properties: {}, additionalProperties: false } }],
        toolChoice: 'auto',
        maxTokens: 256,
      });
      check.tools = r.toolCalls.length > 0;
      if (!check.tools) problems.push('the model answered a tool request without calling the tool: use IWB_AGENT=openai:artifact for models without tool calling');
    } catch (e) {
      check.tools = false;
      problems.push(`${explain(config, e, 'a request with tools')}; use IWB_AGENT=openai:artifact for models without tool calling`);
    }
  }

  if (needs.images) {
    try {
      await client.chat([{ role: 'user', content: [{ type: 'text', text: 'What colour is this image? One word.' }, { type: 'image', url: redPng(), detail: 'low' }] }], { maxTokens: 64 });
      check.images = true;
    } catch (e) {
      check.images = false;
      problems.push(`the ${config.role} role needs image input and the endpoint refused an image (${shortError(e)}): ${imageFix(config.role)}`);
    }
  }
  return finish();
}

function shortError(e: unknown): string {
  return describeError(e).replace(/^\w+ error: /, '').slice(0, 200);
}

function explain(config: RoleConfig, e: unknown, what: string): string {
  const status = e instanceof InfraError ? e.status : undefined;
  const msg = shortError(e);
  if (status === 401 || status === 403 || /HTTP 40[13]/.test(msg)) return `the endpoint refused the key on ${what} (${msg}): check ${key(config)}`;
  if (/HTTP 404/.test(msg)) return `the endpoint does not know model "${config.model}" (${msg}): check ${roleVariable(config.role, 'model')}`;
  if (e instanceof InfraError) return `${what} failed (${msg}): check ${base(config)} and that the server is running`;
  if (e instanceof ModelError) return `the endpoint rejected ${what} (${msg}): check ${roleVariable(config.role, 'model')}`;
  return `${what} failed: ${msg}`;
}

export async function preflight(roles: RoleConfigs, needs: Partial<Record<Role, RoleNeeds>>, timeoutMs?: number): Promise<PreflightReport> {
  const checks = await Promise.all(
    (Object.entries(needs) as Array<[Role, RoleNeeds]>).map(([role, n]) => checkRole(roles[role]!, n, timeoutMs)),
  );
  return { ok: checks.every((c) => c.ok), roles: checks };
}

/** One message for a run that cannot start: each failing role, its variable, what failed and the fix. */
export function describePreflight(r: PreflightReport): string {
  const lines: string[] = [];
  for (const c of r.roles) {
    const head = `${c.role.padEnd(8)} ${c.ok ? 'ok  ' : 'FAIL'} ${roleVariable(c.role, 'model')}=${c.model} at ${c.baseURL ?? 'api.openai.com'} (${c.durationMs} ms)`;
    const caps = [
      c.structuredOutput ? `structured output: ${c.structuredOutput}` : null,
      c.tools === null ? null : `tools: ${c.tools ? 'yes' : 'no'}`,
      c.images === null ? null : `images: ${c.images ? 'yes' : 'no'}`,
    ].filter(Boolean);
    lines.push(head + (caps.length ? ` · ${caps.join(' · ')}` : ''));
    for (const p of c.problems) lines.push(`  problem: ${p}`);
    for (const n of c.notes) lines.push(`  note: ${n}`);
  }
  if (r.roles.length === 0) lines.push('no model role is configured (IWB_<ROLE>_MODEL): everything runs offline');
  return lines.join('\n');
}
