import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { Caisse } from '@caisse/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migratedRunDatabase } from './harness.ts';
import { createMerchantWithCli, freePort, processEnv, type RunDatabase, type ServerProc, startServerProcess, type TestKeys } from './processes.ts';
import { type Receiver, startReceiver } from './webhooks.receiver.ts';

/**
 * Graceful shutdown of a real `caisse start` process (docs/spec/running.md): on SIGTERM it stops
 * accepting connections, finishes the request and the webhook delivery in flight, closes the
 * database and exits 0. On PGlite by default, on PostgreSQL with TEST_DATABASE_URL.
 */

const REPO = resolve(import.meta.dirname, '..', '..', '..');

let database: RunDatabase;
let env: Record<string, string>;
let receiver: Receiver;
const servers: ServerProc[] = [];

beforeAll(async () => {
  // Migrated already (a copy of the template): the subject is the shutdown, not a first start (the example shop's e2e starts on an empty one).
  database = await migratedRunDatabase('shutdown');
  env = processEnv({ ...database.env, LOG_LEVEL: 'info' });
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const s of servers) s.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  await receiver.close();
  await database.drop();
});

async function start(): Promise<ServerProc> {
  const server = await startServerProcess({ env });
  servers.push(server);
  return server;
}

/** Resolves when a TCP connection to the port is refused (the server no longer listens). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
}

/** Reads from a raw socket until `pattern` has been seen in what came so far. */
function readUntil(socket: Socket, seen: { text: string }, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(seen.text)) {
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve();
      }
    };
    const onData = (chunk: Buffer) => {
      seen.text += chunk.toString('utf8');
      check();
    };
    const onClose = () => (pattern.test(seen.text) ? resolve() : reject(new Error(`socket closed before ${pattern}; got:\n${seen.text}`)));
    socket.on('data', onData);
    socket.on('close', onClose);
    check();
  });
}

describe('SIGTERM on a real server process', () => {
  let keys: TestKeys;

  it('stops accepting, finishes the slow request and the delivery in flight, closes the database and exits 0', async () => {
    if (database.kind === 'postgres') keys = await createMerchantWithCli(env, 'Shutdown');
    const server = await start();
    keys ??= server.devMerchant as TestKeys;
    expect(keys).toBeDefined();
    const api = new Caisse({ baseUrl: server.url, apiKey: keys.apiKey, secretKey: keys.secretKey });

    // A receiver that holds its answer until told: the delivery is in flight at the signal.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    receiver.handler = (_req, res) => {
      void released.then(() => {
        res.writeHead(200);
        res.end('ok');
      });
    };
    const endpoint = await api.webhookEndpoints.create({ url: receiver.url });
    const intent = await api.intents.create({ amount: '5000', currency: 'XAF' });
    await api.intents.cancel(intent.id);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const eventId = String(receiver.received[0]?.headers['webhook-id']);

    // A slow request: headers sent (the server answers 100 Continue once it has read them), body not yet.
    const body = JSON.stringify({ amount: '7000', currency: 'XAF', description: 'sent across the shutdown' });
    const socket = connect(server.port, '127.0.0.1');
    const answer = { text: '' };
    socket.write(
      [
        'POST /gateway HTTP/1.1',
        `host: 127.0.0.1:${server.port}`,
        `x-api-key: ${keys.apiKey}`,
        `authorization: Bearer ${keys.secretKey}`,
        'content-type: application/json',
        `content-length: ${Buffer.byteLength(body)}`,
        'expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
    await readUntil(socket, answer, /^HTTP\/1\.1 100 Continue\r\n\r\n/);

    const signalledAt = performance.now();
    server.kill('SIGTERM');
    await server.waitForLine(/shutting down/, 10_000);
    // No new connections, while the request and the delivery are still running.
    await vi.waitFor(async () => expect(await refused(server.port)).toBe(true), { timeout: 10_000, interval: 50 });
    expect(server.child.exitCode).toBeNull();

    // The rest of the body: the request completes, and the connection is then closed.
    answer.text = '';
    socket.write(body);
    await readUntil(socket, answer, /\r\n\r\n\{.*\}$/s);
    expect(answer.text).toMatch(/^HTTP\/1\.1 201 /);
    const created = JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)) as { id: string; amount: string };
    expect(created.amount).toBe('7000');
    await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
    expect(server.child.exitCode).toBeNull();

    // The delivery still runs: the process waits for it, then closes the database and exits 0.
    release();
    const exit = await server.exited;
    const seconds = (performance.now() - signalledAt) / 1000;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.lines.join('\n')).toMatch(/shut down: database closed/);
    expect(seconds).toBeLessThan(15);
    // The embedded database releases its data directory only in close().
    if (database.dataDir && database.kind === 'pglite') expect(existsSync(join(database.dataDir, 'caisse.lock'))).toBe(false);

    // What finished during the shutdown was committed: the intent, and the delivery as succeeded on its first attempt.
    const again = await start();
    const api2 = new Caisse({ baseUrl: again.url, apiKey: keys.apiKey, secretKey: keys.secretKey });
    expect((await api2.intents.retrieve(created.id)).amount).toBe('7000');
    const deliveries = await api2.webhookEndpoints.listDeliveries(endpoint.id);
    expect(deliveries.data).toHaveLength(1);
    expect(deliveries.data[0]).toMatchObject({ eventId, status: 'succeeded', attemptCount: 1, lastStatusCode: 200 });
    expect(receiver.received).toHaveLength(1);

    // SIGINT (Ctrl-C): the same clean stop, at once, even with a keep-alive connection between
    // requests and a connection that never sent a request (Node counts that one as waiting for
    // headers, and its own server.close() would wait up to 60 s for it).
    const silent = connect(again.port, '127.0.0.1');
    await new Promise<void>((resolve) => silent.once('connect', () => resolve()));
    const keptAlive = connect(again.port, '127.0.0.1');
    const kept = { text: '' };
    keptAlive.write(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n`);
    await readUntil(keptAlive, kept, /\r\n\r\n\{"status":"ok"\}$/);
    const t0 = performance.now();
    again.kill('SIGINT');
    expect(await again.exited).toEqual({ code: 0, signal: null });
    expect((performance.now() - t0) / 1000).toBeLessThan(5);
    expect(silent.destroyed || silent.readableEnded).toBe(true);
    silent.destroy();
    keptAlive.destroy();
  }, 180_000);
});

describe('SIGTERM to `npx caisse start` (issue 58)', () => {
  // On both databases. It once failed on PostgreSQL (the port still open after 15 s): the server
  // read its parent when it installed its shutdown, after the listen and the banner's query, so
  // a SIGTERM to npm as soon as /healthz answered could orphan it first, and it then watched the
  // process that adopted it. It now reads its parent as it starts (test/parent-gone.test.ts).
  it('stops the server too, although npm and its shell do not pass the signal on', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Its own process group: the signal goes to npx alone, as a supervisor sends it, and the
    // group is what is left to clean up should the server outlive npx.
    const npx = spawn('npx', ['caisse', 'start', '--port', String(port)], { cwd: REPO, env, stdio: 'ignore', detached: true });
    const npxExited = new Promise((resolve) => npx.once('exit', resolve));
    try {
      await vi.waitFor(
        async () => {
          const res = await fetch(`${url}/healthz`);
          expect(res.status).toBe(200);
        },
        { timeout: 90_000, interval: 100 },
      );
      npx.kill('SIGTERM');
      await npxExited;
      await vi.waitFor(async () => expect(await refused(port)).toBe(true), { timeout: 15_000, interval: 50 });
      // The server closed its database on the way out: the embedded one's lock is gone.
      if (database.kind === 'pglite')
        await vi.waitFor(() => expect(existsSync(join(database.dataDir as string, 'caisse.lock'))).toBe(false), { timeout: 15_000, interval: 50 });
    } finally {
      try {
        process.kill(-(npx.pid as number), 'SIGKILL');
      } catch {
        // Every process of the group has exited already.
      }
    }
  }, 120_000);
});
