// A TCP forward: node bench/forward.mjs <listen-host> <listen-port> <target-host> <target-port>.
// The hosts test and bench (bench/lib/hosts.ts) reach the machine's Redis (127.0.0.1 only) from
// the network namespaces through one, and bring webhooks from a namespace to the receiver.
// Prints "ready" once listening; ends on SIGTERM.
import { connect, createServer } from 'node:net';
import process from 'node:process';

const [listenHost, listenPort, targetHost, targetPort] = process.argv.slice(2);
const server = createServer((client) => {
  const upstream = connect(Number(targetPort), targetHost);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
});
server.listen(Number(listenPort), listenHost, () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => process.exit(0));
