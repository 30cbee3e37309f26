/**
 * A counting relay between a server and PostgreSQL: every byte passes through unchanged, and the
 * frontend's messages are read on the way to count the statements the server executes, by their
 * SQL text. With named prepared statements a statement's text is sent once per connection (Parse)
 * and then only named (Bind): the relay keeps each connection's names to give every Execute back
 * its text. Used where the server's own query log cannot be reached (a child process).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface StatementCounts {
  /** Statements executed (Execute messages and simple queries), in all. */
  total: number;
  /** By SQL text. */
  bySql: Map<string, number>;
}

export interface CountingRelay {
  /** The relay's address, for the server's DATABASE_URL. */
  port: number;
  /** What was executed since the last call (and starts a new count). */
  take(): StatementCounts;
  close(): Promise<void>;
}

/** Relays 127.0.0.1:<port> to `target` (host, port), counting statements. */
export async function startCountingRelay(target: { host: string; port: number }): Promise<CountingRelay> {
  let counts: StatementCounts = { total: 0, bySql: new Map() };
  const count = (sql: string) => {
    counts.total++;
    counts.bySql.set(sql, (counts.bySql.get(sql) ?? 0) + 1);
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.pipe(client);
    const named = new Map<string, string>();
    let unnamed = '';
    let portal = '';
    let startup = true;
    let pending: Buffer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        // The startup packet (and an SSL or GSS request before it) has no type byte.
        const head = startup ? 0 : 1;
        if (pending.length < head + 4) break;
        const length = pending.readInt32BE(head);
        if (pending.length < head + length) break;
        const body = pending.subarray(head + 4, head + length);
        if (startup) {
          if (body.readInt32BE(0) === 196608) startup = false;
        } else {
          const type = String.fromCharCode(pending[0] as number);
          if (type === 'Q') count(cstring(body, 0)[0]);
          else if (type === 'P') {
            const [name, at] = cstring(body, 0);
            const [text] = cstring(body, at);
            if (name === '') unnamed = text;
            else named.set(name, text);
          } else if (type === 'B') {
            const [, at] = cstring(body, 0);
            const [name] = cstring(body, at);
            portal = name === '' ? unnamed : (named.get(name) ?? name);
          } else if (type === 'E') count(portal);
        }
        pending = pending.subarray(head + length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay: no port');
  return {
    port: address.port,
    take() {
      const taken = counts;
      counts = { total: 0, bySql: new Map() };
      return taken;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A NUL-terminated string at `at`, and where the next field starts. */
function cstring(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at);
  return [buf.toString('utf8', at, end), end + 1];
}

/** The most executed statements, per unit, one line each (SQL on one line, cut at `width`). */
export function topStatements(c: StatementCounts, units: number, rows = 40, width = 160): { perUnit: number; sql: string }[] {
  return [...c.bySql.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([sql, n]) => ({ perUnit: Math.round((n / Math.max(1, units)) * 100) / 100, sql: sql.replace(/\s+/g, ' ').slice(0, width) }));
}
