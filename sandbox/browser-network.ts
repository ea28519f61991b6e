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

export async function allowOnlyOrigin(target: Page | BrowserContext, origin: string, onBlocked: (url: string) => void = () => {}): Promise<NetworkBlock> {
  const onRoute = async (route: Route) => {
    const url = route.request().url();
    if (sameOrigin(url, origin)) return route.fallback();
    onBlocked(url);
    return route.abort('blockedbyclient').catch(() => {});
  };
  const onSocket = (ws: WebSocketRoute) => {
    if (sameOrigin(ws.url(), origin)) {
      ws.connectToServer();
      return;
    }
    onBlocked(ws.url());
    // Never connected to the server: the page sees a socket that closes at once.
    return ws.close({ code: 1008, reason: 'blocked: the judged browser reaches only the site under test' }).catch(() => {});
  };
  await target.route('**/*', onRoute);
  await target.routeWebSocket(() => true, onSocket);
  return {
    async dispose() {
      const closed = 'isClosed' in target ? target.isClosed() : false;
      if (!closed) await target.unroute('**/*', onRoute).catch(() => {});
    },
  };
}
