import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerFirst, delayOf, shape, type Quirks } from './fake-quirks.js';
import type { FakeRequestBody } from './fake-request.js';
import { withoutRunSpecifics } from '../llm/call-cache.js';

export type { FakeMessage, FakeRequestBody } from './fake-request.js';

/**
 * A real HTTP server that speaks just enough of the OpenAI chat API for the real SDK to talk to it, so
 * tests exercise the same code path as a run against a live endpoint: serialisation, headers, timeouts,
 * status codes. Each test scripts the replies it needs and then inspects what the client sent.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: FakeRequestBody;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type FakeReply = (
  | { kind: 'text'; text: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'tools'; calls: Array<{ name: string; arguments: unknown; id?: string }>; text?: string }
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string> }
  | { kind: 'malformed' }
  | { kind: 'empty' }
  | { kind: 'refusal'; text: string }
) & { delayMs?: number; usage?: FakeUsage; finishReason?: string };

export type FakeHandler = (req: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

/** Reply builders, so a script reads as a list of what the "model" does. */
export const reply = {
  text: (text: string, extra: Partial<FakeReply> = {}): FakeReply => ({ ...extra, kind: 'text', text }),
  json: (value: unknown, extra: Partial<FakeReply> = {}): FakeReply => ({ ...extra, kind: 'json', value }),
  tools: (calls: Array<{ name: string; arguments: unknown; id?: string }>, text?: string): FakeReply => ({
    kind: 'tools',
    calls,
    ...(text !== undefined ? { text } : {}),
  }),
  status: (status: number, message?: string, headers?: Record<string, string>): FakeReply => ({
    kind: 'status',
    status,
    ...(message !== undefined ? { message } : {}),
    ...(headers ? { headers } : {}),
  }),
  delay: (delayMs: number, then: FakeReply): FakeReply => ({ ...then, delayMs }),
  malformed: (): FakeReply => ({ kind: 'malformed' }),
  empty: (): FakeReply => ({ kind: 'empty' }),
  refusal: (text: string): FakeReply => ({ kind: 'refusal', text }),
};

export interface FakeServer {
  /** Base URL including /v1, ready for the SDK's baseURL. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Queue replies (consumed in order) or install a handler consulted once the queue is empty. */
  script(...replies: Array<FakeReply | FakeHandler>): void;
  /** Replies still queued: a test can assert its script was used up. */
  pending(): number;
  /** Forget queued replies, the handler and the recorded requests: one server can serve many tests. */
  reset(): void;
  /** Behave like a real provider (the rows of llm/quirks.ts, by name); replaces earlier quirks and restarts their counts, kept across reset(). */
  quirks(q: Quirks): void;
  close(): Promise<void>;
}

function completionBody(r: FakeReply, model: string, n: number): unknown {
  const usage = r.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  let message: Record<string, unknown> = { role: 'assistant', content: null, refusal: null };
  let finish = 'stop';
  if (r.kind === 'text') message.content = r.text;
  else if (r.kind === 'json') message.content = JSON.stringify(r.value);
  else if (r.kind === 'empty') message.content = '';
  else if (r.kind === 'refusal') message = { role: 'assistant', content: null, refusal: r.text };
  else if (r.kind === 'tools') {
    finish = 'tool_calls';
    message.content = r.text ?? null;
    message.tool_calls = r.calls.map((c, i) => ({
      id: c.id ?? `call_${n}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }));
  }
  return {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: r.finishReason ?? finish, logprobs: null }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** `port`: a fixed port (default: any free one), so recorded call-cache keys, which include the base URL, match a later server. */
export async function startFakeServer(options: { port?: number } = {}): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let handler: FakeHandler | undefined;
  let quirks: Quirks = {};
  /** Chat requests since the quirks were set: a quirk with a count applies to the first ones. */
  let sinceQuirks = 0;
  const timers = new Set<NodeJS.Timeout>();
  let served = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const send = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    // The client may have hung up (a timeout test): writing then must not crash the server.
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (req.method === 'GET' && path === '/v1/models') {
          const ids = quirks.models ?? ['fake-model'];
          send(res, 200, JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'fake' })) }));
          return;
        }
        if (req.method !== 'POST' || path !== '/v1/chat/completions') {
          send(res, 404, JSON.stringify({ error: { message: `fake server: no route ${req.method} ${path}` } }));
          return;
        }
        let body: FakeRequestBody;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequestBody;
        } catch {
          send(res, 400, JSON.stringify({ error: { message: 'fake server: request body is not JSON' } }));
          return;
        }
        const recorded: RecordedRequest = { method: req.method, path, headers: req.headers, body };
        requests.push(recorded);
        const index = served++;
        const nth = sinceQuirks++;
        // Provider quirks: a refusal comes before any scripted reply is used up.
        const refused = answerFirst(quirks, body, req.headers.authorization, nth);
        const delay = delayOf(quirks);
        if (delay) await wait(delay);
        if (refused) {
          send(res, refused.status, refused.body, refused.headers);
          return;
        }
        let next: FakeReply | undefined;
        try {
          next = queue.shift() ?? (handler ? await handler(recorded, index) : undefined);
        } catch (e) {
          // A failing assertion inside a test's handler must surface as a reply, not crash the server.
          send(res, 500, JSON.stringify({ error: { message: `fake server: handler threw: ${(e as Error).message}` } }), {
            'x-should-retry': 'false',
          });
          return;
        }
        if (!next) {
          send(res, 500, JSON.stringify({ error: { message: 'fake server: no scripted reply left' } }));
          return;
        }
        if (next.delayMs) await wait(next.delayMs);
        if (next.kind === 'status') {
          const message = next.message ?? `fake status ${next.status}`;
          send(res, next.status, JSON.stringify({ error: { message, type: 'fake' } }), next.headers);
        } else if (next.kind === 'malformed') {
          send(res, 200, '{"id": "chatcmpl-broken", "choices": [');
        } else {
          send(res, 200, JSON.stringify(shape(quirks, completionBody(next, body.model ?? 'fake-model', index) as Record<string, unknown>, nth)));
        }
      })();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const refused = (e: Error) => reject(new Error(`fake server: cannot listen on 127.0.0.1:${options.port ?? 0}: ${e.message}`));
    server.once('error', refused);
    // Only the listen's own error is this promise's: a later one must not be swallowed by a settled promise.
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', refused);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...items) {
      for (const item of items) {
        if (typeof item === 'function') handler = item;
        else queue.push(item);
      }
    },
    pending: () => queue.length,
    quirks(q) {
      quirks = { ...q };
      sinceQuirks = 0;
    },
    reset() {
      queue.length = 0;
      handler = undefined;
      requests.length = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text of the last user message of a recorded request: what most scripted handlers route on. */
export function lastUserText(req: RecordedRequest): string {
  const users = req.body.messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content ?? []).map((p) => p.text ?? '').join('\n');
}

/**
 * The last user message's text with what differs from run to run (a site's port, a temporary folder, the judge's
 * fencing nonce) replaced as the call cache replaces it when it keys a request: what a scripted reply may decide on
 * and still answer a rerun the same.
 */
export function stableLastUserText(req: RecordedRequest): string {
  return withoutRunSpecifics(lastUserText(req));
}

/**
 * The schema name of a structured request, or undefined for a plain chat request: from response_format
 * (json_schema mode) or from the schema instruction in the system prompt (json_object and prompt modes).
 */
export function schemaName(req: RecordedRequest): string | undefined {
  const named = req.body.response_format?.json_schema?.name;
  if (named) return named;
  const system = req.body.messages.find((m) => m.role === 'system');
  const text = typeof system?.content === 'string' ? system.content : '';
  return /match this JSON Schema \("([^"]+)"\)/.exec(text)?.[1];
}

/** Short name for tests: `const fake = await start()`. */
export const start = startFakeServer;
