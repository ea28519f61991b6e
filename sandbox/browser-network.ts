import type { BrowserContext, Page, Route, WebSocketRoute } from '@playwright/test';

/**
 * The judged (and verify-step) browser reaches the site under test and nothing else: HTTP requests
 * and WebSockets to any other origin are refused. Page.route does not see WebSockets, so they get a
 * route of their own; service workers, which would answer requests the route never sees, are blocked
 * where the browser context is made (SERVICE_WORKERS below, and playwright.config.ts).
 */

export const SERVICE_WORKERS = 'block' as const;

export function sameOrigin(url: string, origin: string): boolean {
  try {
    const u = new URL(url);
    // A WebSocket to the site's own host and port is the site's (a dev server's hot reload).
    const asHttp = u.protocol === 'ws:' ? 'http:' : u.protocol === 'wss:' ? 'https:' : u.protocol;
    return `${asHttp}//${u.host}` === origin;
  } catch {
    return false;
  }
}

export interface NetworkBlock {
  /** Removes the HTTP route (Playwright cannot remove a WebSocket route; the page's lifetime ends it). */
  dispose(): Promise<void>;
}

/** The rule already in force on a page or context, and who is told of what it refuses: the latest to join. */
interface Rule {
  origin: string;
  listeners: Array<(url: string) => void>;
  unroute(): Promise<void>;
}
const rules = new WeakMap<Page | BrowserContext, Rule>();

/**
 * Refuses every request and WebSocket of `target` to another origin than `origin`. A second call for the
 * same target and origin (the judge's page guard inside the fixture's routed context) joins the route in
 * force instead of adding one: the same requests are refused, and only the latest caller is told of them,
 * as when its own route ran first and aborted them; it saves the browser three round trips per judged slot
 * (route and WebSocket route, then unroute), about a tenth of a slot's time.
 */
export async function allowOnlyOrigin(target: Page | BrowserContext, origin: string, onBlocked: (url: string) => void = () => {}): Promise<NetworkBlock> {
  const kept = rules.get(target);
  if (kept && kept.origin === origin) return join(target, kept, onBlocked);
  const rule: Rule = { origin, listeners: [], unroute: async () => {} };
  const blocked = (url: string) => rule.listeners.at(-1)?.(url);
  // The rule's origin, not the argument: a rule made ahead (NO_ORIGIN_YET) is aimed at its site later.
  const onRoute = async (route: Route) => {
    const url = route.request().url();
    if (sameOrigin(url, rule.origin)) return route.fallback();
    blocked(url);
    return route.abort('blockedbyclient').catch(() => {});
  };
  const onSocket = (ws: WebSocketRoute) => {
    if (sameOrigin(ws.url(), rule.origin)) {
      ws.connectToServer();
      return;
    }
    blocked(ws.url());
    // Never connected to the server: the page sees a socket that closes at once.
    return ws.close({ code: 1008, reason: 'blocked: the judged browser reaches only the site under test' }).catch(() => {});
  };
  await target.route('**/*', onRoute);
  await target.routeWebSocket(() => true, onSocket);
  rule.unroute = async () => {
    const closed = 'isClosed' in target ? target.isClosed() : false;
    if (!closed) await target.unroute('**/*', onRoute).catch(() => {});
  };
  // A rule for another origin stacks on top, as a later route does, and is not joined.
  rules.set(target, rule);
  return join(target, rule, onBlocked);
}

/**
 * The origin of a rule made before its site is known (a spare context, made while the agent thinks): no URL has
 * it, so the context refuses everything until `aimAt` names the site. The rule's routes are in place already,
 * which is what costs time (about 65 ms a context on 2 cores).
 */
export const NO_ORIGIN_YET = 'about:no-origin-yet';

/** Aims a rule made with NO_ORIGIN_YET at the site the context is about to load; once, before any request. */
export function aimAt(target: Page | BrowserContext, origin: string): void {
  const rule = rules.get(target);
  if (!rule || rule.origin !== NO_ORIGIN_YET) throw new Error('aimAt: the context has no rule waiting for its origin');
  rule.origin = origin;
}

function join(target: Page | BrowserContext, rule: Rule, onBlocked: (url: string) => void): NetworkBlock {
  const listener = (url: string) => onBlocked(url);
  rule.listeners.push(listener);
  return {
    async dispose() {
      const at = rule.listeners.indexOf(listener);
      if (at < 0) return;
      rule.listeners.splice(at, 1);
      if (rule.listeners.length > 0) return;
      // The last one out removes the HTTP route; the WebSocket route stays with the page, refusing still.
      if (rules.get(target) === rule) rules.delete(target);
      await rule.unroute();
    },
  };
}
