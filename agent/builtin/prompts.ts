import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PROTOCOLS, type Protocol } from './protocols.js';

/**
 * The built-in agent's prompts, kept as Markdown files in agent/builtin/prompts/ so they can be read and edited
 * as text. Their hash goes into the agent's config: changing a prompt changes the episode cache key,
 * so episodes run with an older prompt are not reused.
 */

export interface AgentPrompts {
  /** The shared task description followed by the protocol's rules. */
  system: string;
  copilot: string;
  hash: string;
}

const DIR = new URL('./prompts/', import.meta.url);

function read(name: string): string {
  return readFileSync(new URL(name, DIR), 'utf8').trim();
}

const cache = new Map<Protocol, AgentPrompts>();

export function loadPrompts(protocol: Protocol): AgentPrompts {
  const hit = cache.get(protocol);
  if (hit) return hit;
  const system = PROTOCOLS[protocol].promptFiles.map(read).join('\n\n');
  const copilot = read('copilot.md');
  const hash = createHash('sha256').update(system).update('\0').update(copilot).digest('hex').slice(0, 12);
  const prompts = { system, copilot, hash };
  cache.set(protocol, prompts);
  return prompts;
}

/** The question put to the copilot with each screenshot. */
export function copilotRequest(pagePath: string, title: string): string {
  return `This is a screenshot of the page ${pagePath} (title: ${JSON.stringify(title)}) at 1280x800. Describe it.`;
}
