import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type PGlite, protocol } from '@electric-sql/pglite';

/**
 * Embedded PGlite in a worker thread: the WASM engine runs beside the HTTP server instead of
 * taking turns with it on one thread, so a development gateway uses two cores.
 *
 * The main thread keeps node-postgres and PGlite's own node-postgres adapter; only the engine
 * moves. The adapter hands every frontend message to `execProtocolStream` one at a time, waiting
 * for each: Parse, Bind, Describe, Execute and Close are held back and sent with the Sync (or
 * Query, Flush…) that ends them, so a statement costs one round trip to the thread, not five.
 */

/** The worker's code, run with `eval` so it loads the same way from src/ (tsx, tests) and dist/. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { PGlite } = require(workerData.pglitePath);
  const db = new PGlite(workerData.dataDir, { startParams: workerData.startParams });
  try {
    await db.waitReady;
  } catch (err) {
    parentPort.postMessage({ type: 'failed', message: String((err && err.stack) || err) });
    return;
  }
  parentPort.on('message', async (msg) => {
    if (msg.type === 'close') {
      await db.close().catch(() => {});
      parentPort.postMessage({ type: 'closed' });
      return;
    }
    try {
      // A copy: the answer may be a view of the engine's memory, which must never be transferred.
      const out = (await db.execProtocolRaw(msg.bytes)).slice();
      parentPort.postMessage({ type: 'result', id: msg.id, bytes: out }, [out.buffer]);
    } catch (err) {
      parentPort.postMessage({ type: 'error', id: msg.id, message: String((err && err.message) || err) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
})();
`;

/** Frontend messages that only make sense with what follows them (Parse, Bind, Describe, Execute, Close). */
const HELD = new Set(['P', 'B', 'D', 'E', 'C'].map((c) => c.charCodeAt(0)));

/**
 * `execProtocolStream` for PGlite's node-postgres adapter that holds Parse, Bind, Describe,
 * Execute and Close back and hands them to `run` with the message that ends them (Sync, Query,
 * Flush…): one call into the engine per statement instead of four or five. Each call into PGlite
 * pays its own fixed work (the engine's main loop, ReadyForQuery, a mutex, an answer buffer); the
 * engine itself sees the same bytes in the same order, as it would from a socket.
 */
export function holdUntilSync(run: (batch: Uint8Array) => Promise<unknown[]>): (message: Uint8Array) => Promise<unknown[]> {
  let held: Uint8Array[] = [];
  return async (message) => {
    if (HELD.has(message[0] as number)) {
      held.push(message);
      return [];
    }
    held.push(message);
    const batch = concat(held);
    held = [];
    return run(batch);
  };
}

/** The engine of `openPglite` on this thread, its statements batched by `holdUntilSync`. */
export function batchedEngine(pglite: PGlite): PgliteEngine {
  const exec = holdUntilSync((batch) => pglite.execProtocolStream(batch, { throwOnError: false }));
  return {
    waitReady: pglite.waitReady,
    execProtocolStream: exec,
    close: () => pglite.close(),
  };
}

type WorkerAnswer =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; bytes: Uint8Array }
  | { type: 'error'; id: number; message: string };

/** What PGlite's node-postgres adapter needs of a PGlite instance. */
export interface PgliteEngine {
  waitReady: Promise<void>;
  execProtocolStream(message: Uint8Array, options?: unknown): Promise<unknown[]>;
  close(): Promise<void>;
}

export function startPgliteThread(dataDir: string, startParams: string[]): PgliteEngine {
  const pglitePath = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pglitePath, dataDir, startParams } });
  const calls = new Map<number, { resolve: (bytes: Uint8Array) => void; reject: (err: Error) => void }>();
  let nextId = 0;
  let stopped: Error | undefined;
  const parser = new protocol.Parser();
  let onClosed: (() => void) | undefined;

  const stop = (err: Error) => {
    stopped ??= err;
    for (const call of calls.values()) call.reject(stopped);
    calls.clear();
  };

  const waitReady = new Promise<void>((resolve, reject) => {
    worker.on('message', (msg: WorkerAnswer) => {
      if (msg.type === 'ready') resolve();
      else if (msg.type === 'failed') reject(new Error(`the embedded database did not start: ${msg.message}`));
      else if (msg.type === 'closed') onClosed?.();
      else {
        const call = calls.get(msg.id);
        calls.delete(msg.id);
        if (msg.type === 'result') call?.resolve(msg.bytes);
        else call?.reject(new Error(msg.message));
      }
    });
    worker.on('error', (err) => {
      reject(err);
      stop(err);
    });
    worker.on('exit', (code) => {
      const err = new Error(`the embedded database's thread stopped (exit code ${code})`);
      reject(err);
      stop(err);
    });
  });

  function send(bytes: Uint8Array): Promise<Uint8Array> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject });
      worker.postMessage({ type: 'exec', id, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  return {
    waitReady,
    // `batch` has a buffer of its own (concat), which is transferred to the thread.
    execProtocolStream: holdUntilSync(async (batch) => {
      const answer = await send(batch);
      const messages: unknown[] = [];
      parser.parse(answer, (m: unknown) => messages.push(m));
      return messages;
    }),
    async close() {
      if (!stopped) {
        await new Promise<void>((resolve) => {
          onClosed = resolve;
          worker.postMessage({ type: 'close' });
        });
      }
      stop(new Error('the embedded database is closed'));
      await worker.terminate();
    },
  };
}

/** One buffer of its own (transferable) holding the messages in order. */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
