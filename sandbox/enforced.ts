import { z } from 'zod';
import { describeBrowserSandbox, type BrowserSandbox } from '../config/chromium-sandbox.js';
import { endpointKey, type AgentNetwork } from './endpoints.js';
import { AGENT_LIMITS, SITE_LIMITS, type ResourceLimits } from './policy.js';

/**
 * What a run enforced on the code it does not trust, as report.json's meta.sandbox: mounts, network,
 * uid, quotas and the judged browser's own sandbox, each as a sentence, and `weaker`, the ways this run
 * fell short of the default isolation (bubblewrap, agent network confined to its endpoints, Chromium
 * sandboxed). A run with any says so on the first line of its report and of its output.
 */

export const SandboxEnforcedSchema = z.object({
  /** The isolations the run's episodes used (sorted, joined with ", "); "unknown" when none said. */
  isolation: z.string(),
  mounts: z.string(),
  network: z.string(),
  uid: z.string(),
  quotas: z.string(),
  browser: z.string(),
  weaker: z.array(z.string()),
});
export type SandboxEnforced = z.infer<typeof SandboxEnforcedSchema>;

export interface RunIsolation {
  /** Each episode's isolation (sandbox/policy.ts Isolation, or 'refused'). */
  isolations: readonly string[];
  agentNetwork: AgentNetwork;
  browser: BrowserSandbox;
  root: boolean;
}

const MiB = 1024 * 1024;
const limits = (l: ResourceLimits) =>
  `CPU ${l.cpuSeconds} s, memory ${Math.round(l.memoryBytes / MiB)} MiB, ${l.processes} processes, files up to ${Math.round(l.fileBytes / MiB)} MiB, /tmp ${Math.round(l.tmpBytes / MiB)} MiB`;

export function enforcedSandbox(run: RunIsolation): SandboxEnforced {
  const kinds = [...new Set(run.isolations)].sort();
  const isolation = kinds.join(', ') || 'unknown';
  const bwrap = kinds.length > 0 && kinds.every((k) => k === 'bwrap');
  const weaker: string[] = [];
  if (!bwrap && kinds.length > 0) weaker.push(`untrusted processes ran without bubblewrap (${isolation}): no private mounts or network`);
  if (run.agentNetwork.mode === 'host') weaker.push('IWB_AGENT_NETWORK=host: the agent had the host\u2019s network');
  if (run.browser.kind === 'no-sandbox') weaker.push(`the judged Chromium ran ${describeBrowserSandbox(run.browser)}`);
  const endpoints = run.agentNetwork.mode === 'allowlist' ? run.agentNetwork.endpoints.map(endpointKey) : [];
  return {
    isolation,
    mounts: bwrap
      ? 'allowlist: the workspace, the agent\u2019s program folder (by real path), system folders and the runtime, a private /tmp'
      : 'none: every file the sandbox uid can read',
    network: !bwrap
      ? 'the host\u2019s network'
      : run.agentNetwork.mode === 'host'
        ? 'agent: the host\u2019s network; sites: none (a relay from the judged browser only)'
        : `agent: only ${endpoints.length ? endpoints.join(', ') : 'its role\u2019s endpoint'} and URLs in IWB_AGENT_ENV, through a relay; sites: none (a relay from the judged browser only)`,
    uid: kinds.some((k) => k === 'bwrap' || k === 'user') && run.root ? 'a fresh unprivileged uid per sandbox' : run.root ? 'root (unconfined)' : 'the harness\u2019s own user (in a user namespace under bubblewrap)',
    quotas: `agent: ${limits(AGENT_LIMITS)}; site: ${limits(SITE_LIMITS)}`,
    browser: describeBrowserSandbox(run.browser),
    weaker,
  };
}

/** The first line of a run's report and output when it was less isolated than the default; empty otherwise. */
export function weakerIsolationLine(s: SandboxEnforced | string | undefined): string {
  if (!s || typeof s === 'string' || s.weaker.length === 0) return '';
  return `WEAKER ISOLATION THAN THE DEFAULT: ${s.weaker.join('; ')}`;
}
