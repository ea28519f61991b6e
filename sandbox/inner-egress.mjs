// Runs inside a command: agent's sandbox, whose network namespace reaches nothing: the agent's one way
// out. It listens on the sandbox's loopback for (a) each allowed loopback endpoint, on its own port, so
// a client pointed at http://127.0.0.1:8000 works unchanged, and (b) an HTTP proxy (HTTP_PROXY and
// HTTPS_PROXY point at it) that takes CONNECT and absolute-URL requests. Every connection goes to the
// harness through the unix socket, prefixed by one line naming host:port; the harness decides (egress.ts).
// When it listens, it runs the agent's command and ends as the command ends. Plain Node, no dependencies.
// argv: <socket> <proxy port> <loopback endpoints, comma-separated or -> -- <command...>
import { spawn } from 'node:child_process';
import net from 'node:net';

const [socketPath, proxyPortText, loopbackText, dashes, ...command] = process.argv.slice(2);
if (dashes !== '--' || command.length === 0) {
  process.stderr.write('inner-egress: usage: <socket> <proxy port> <loopback endpoints> -- <command...>\n');
  process.exit(2);
}
const MAX_HEAD = 16 * 1024;

/** Asks the harness for `target`; calls back with the open socket, or null with the harness's word. */
function dial(target, callback) {
  const upstream = net.connect(socketPath);
  let reply = Buffer.alloc(0);
  const onData = (chunk) => {
    reply = Buffer.concat([reply, chunk]);
    const nl = reply.indexOf(10);
    if (nl < 0) return;
    upstream.off('data', onData);
    upstream.pause();
    const word = reply.subarray(0, nl).toString();
    const rest = reply.subarray(nl + 1);
    if (word === 'ok') callback(upstream, rest, word);
    else {
      upstream.destroy();
      callback(null, rest, word);
    }
  };
  upstream.on('data', onData);
  upstream.on('error', () => callback(null, Buffer.alloc(0), 'unreachable'));
  upstream.write(`${target}\n`);
}

function join(client, upstream, rest) {
  if (rest.length) client.write(rest);
  client.pipe(upstream).pipe(client);
  upstream.resume();
  client.resume();
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}

/** A loopback endpoint: relayed as it is, the client never knows. */
function transparent(target) {
  return net.createServer((client) => {
    client.pause();
    client.on('error', () => client.destroy());
    dial(target, (upstream, rest) => (upstream ? join(client, upstream, rest) : client.destroy()));
  });
}

const refusal = (target, word) =>
  `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n` +
  `${target}: ${word} by the benchmark's sandbox; an agent reaches only its configured model endpoints (IWB_AGENT_NETWORK)\n`;

const proxy = net.createServer((client) => {
  let head = Buffer.alloc(0);
  client.on('error', () => client.destroy());
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > MAX_HEAD) client.destroy();
      return;
    }
    client.off('data', onData);
    client.pause();
    const lineEnd = head.indexOf('\r\n');
    const [method, uri, version] = head.subarray(0, lineEnd).toString().split(' ');
    if (method === 'CONNECT') {
      const rest = head.subarray(end + 4);
      dial(uri, (upstream, extra, word) => {
        if (!upstream) return client.end(refusal(uri, word));
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length) upstream.write(rest);
        join(client, upstream, extra);
      });
      return;
    }
    let url;
    try {
      url = new URL(uri);
    } catch {
      return client.end(refusal(String(uri).slice(0, 100), 'not an absolute http URL'));
    }
    const target = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
    // One request per connection: a client that kept the proxy connection for a request to another
    // host would reach this upstream instead, so the server is asked to close after answering.
    const headers = head
      .subarray(lineEnd + 2, end)
      .toString('latin1')
      .split('\r\n')
      .filter((h) => !/^(connection|proxy-connection|keep-alive)\s*:/i.test(h));
    const rewritten = Buffer.concat([
      Buffer.from([`${method} ${url.pathname}${url.search} ${version}`, ...headers, 'Connection: close', '', ''].join('\r\n'), 'latin1'),
      head.subarray(end + 4),
    ]);
    dial(target, (upstream, extra, word) => {
      if (!upstream) return client.end(refusal(target, word));
      upstream.write(rewritten);
      join(client, upstream, extra);
    });
  };
  client.on('data', onData);
});

const listen = (server, port, host) =>
  new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });

const servers = [proxy];
await listen(proxy, Number(proxyPortText), '127.0.0.1');
const byPort = new Map();
for (const target of loopbackText === '-' ? [] : loopbackText.split(',')) {
  const port = Number(target.slice(target.lastIndexOf(':') + 1));
  if (!byPort.has(port)) byPort.set(port, target);
}
for (const [port, target] of byPort) {
  for (const host of ['127.0.0.1', '::1']) {
    const server = transparent(target);
    if (await listen(server, port, host)) servers.push(server);
  }
}

const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (e) => {
  process.stderr.write(`inner-egress: ${e.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  for (const s of servers) s.close();
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
