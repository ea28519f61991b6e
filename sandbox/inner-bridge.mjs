// Runs inside a site's sandbox, which has a network namespace of its own: the harness reaches the
// site's server through this. Each connection on the unix socket (argv[2]) starts with one line naming
// a port; the rest is relayed to that port on the sandbox's loopback (IPv4, else IPv6 for servers
// that listen on ::1 only). Plain Node with no dependencies: it runs with the sandbox's view of files.
import net from 'node:net';

const socketPath = process.argv[2];
const MAX_HEADER = 16;

const server = net.createServer((client) => {
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const nl = head.indexOf(10);
    if (nl < 0) {
      if (head.length > MAX_HEADER) client.destroy();
      return;
    }
    client.off('data', onData);
    client.pause();
    const port = Number(head.subarray(0, nl).toString());
    const rest = head.subarray(nl + 1);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return client.destroy();
    connect(port, ['127.0.0.1', '::1'], client, rest);
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
});

function connect(port, hosts, client, rest) {
  const upstream = net.connect(port, hosts[0]);
  upstream.once('connect', () => {
    if (rest.length) upstream.write(rest);
    client.pipe(upstream).pipe(client);
    client.resume();
  });
  upstream.once('error', () => {
    if (!upstream.connecting || hosts.length < 2) return client.destroy();
    connect(port, hosts.slice(1), client, rest);
  });
  client.once('close', () => upstream.destroy());
  upstream.once('close', () => client.destroy());
}

server.listen(socketPath);
