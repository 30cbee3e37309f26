/**
 * The webhook receiver of the bench, in its own process so that the load generator's event loop
 * does not delay receipts. It answers 200 at once and notes, for each event, when it arrived and
 * when Caisse created it (the event's `createdAt`, written in the charge's transaction just before
 * its commit). The parent asks for the notes over IPC.
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

interface Receipt {
  id: string;
  type: string;
  createdAt: number;
  receivedAt: number;
}

const receipts: Receipt[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const receivedAt = performance.timeOrigin + performance.now();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; createdAt: string };
      receipts.push({ id: event.id, type: event.type, createdAt: Date.parse(event.createdAt), receivedAt });
    } catch {
      /* not an event */
    }
  });
});
server.keepAliveTimeout = 60_000;

process.on('message', (msg: { kind: string }) => {
  if (msg.kind === 'take') {
    process.send?.({ kind: 'receipts', receipts: receipts.splice(0) });
  } else if (msg.kind === 'stop') {
    server.close();
    process.exit(0);
  }
});

server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as { port: number }).port;
  process.send?.({ kind: 'ready', port });
});
