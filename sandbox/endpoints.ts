/**
 * The model endpoints a `command:` agent may reach, as host:port pairs. Its network namespace has no
 * route anywhere; the harness relays a connection only to a pair listed here (sandbox/egress.ts).
 * Where the list comes from (docs/sandbox-network.md): the agent role's endpoint (IWB_AGENT_BASE_URL,
 * else the SDK's default api.openai.com:443 when an agent model is set), every variable the agent is
 * given through IWB_AGENT_ENV whose value is an http(s) URL, and the pairs in IWB_AGENT_NETWORK. The
 * value `host` there gives the agent the host's network instead, which the run reports as weaker.
 */

export interface Endpoint {
  /** Lower case; an IPv6 address without brackets. */
  host: string;
  port: number;
}

export type AgentNetwork = { mode: 'host' } | { mode: 'allowlist'; endpoints: Endpoint[] };

export const HOST_NETWORK = 'host';

export function endpointKey(e: Endpoint): string {
  return e.host.includes(':') ? `[${e.host}]:${e.port}` : `${e.host}:${e.port}`;
}

/** `host:port`, `[v6]:port` or an http(s) URL (its default port when none is given); undefined when neither. */
export function parseEndpoint(text: string): Endpoint | undefined {
  const t = text.trim();
  if (/^https?:\/\//i.test(t)) {
    try {
      const u = new URL(t);
      const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
      return { host: u.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
    } catch {
      return undefined;
    }
  }
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(t);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[|\]$/g, '').toLowerCase(), port };
}

/** IWB_AGENT_NETWORK: `host`, or host:port pairs and URLs separated by commas or spaces. */
export function parseAgentNetworkSetting(value: string): AgentNetwork {
  const words = value.split(/[\s,]+/).filter(Boolean);
  if (words.length === 1 && words[0]!.toLowerCase() === HOST_NETWORK) return { mode: 'host' };
  const endpoints: Endpoint[] = [];
  for (const w of words) {
    const e = parseEndpoint(w);
    if (!e) throw new Error(`IWB_AGENT_NETWORK: "${w}" is neither host:port nor an http(s) URL; give e.g. IWB_AGENT_NETWORK=api.example.com:443,127.0.0.1:8000, or "host" for the host's network`);
    endpoints.push(e);
  }
  return { mode: 'allowlist', endpoints };
}

/** The pairs without repeats, in their first order. */
export function uniqueEndpoints(list: readonly Endpoint[]): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const e of list) if (!seen.has(endpointKey(e))) seen.set(endpointKey(e), e);
  return [...seen.values()];
}

/** The agent role's endpoint: its base URL, else the OpenAI SDK's default; none when no agent model is set. */
export function roleEndpoint(role: { baseURL?: string } | undefined): Endpoint[] {
  if (!role) return [];
  const e = parseEndpoint(role.baseURL ?? 'https://api.openai.com/v1');
  return e ? [e] : [];
}

/** Endpoints named by the values handed to the agent (MY_BASE_URL=http://127.0.0.1:8000/v1). */
export function endpointsInValues(values: Iterable<string>): Endpoint[] {
  const out: Endpoint[] = [];
  for (const v of values) {
    const e = /^https?:\/\//i.test(v.trim()) ? parseEndpoint(v) : undefined;
    if (e) out.push(e);
  }
  return out;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
