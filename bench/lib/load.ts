/**
 * The load generator: keep-alive HTTP/1.1 connections (undici) to 127.0.0.1, and two ways to
 * drive them — a closed loop (a fixed number of virtual users, each starting its next task when
 * the last one ends) and an open loop (tasks started at a fixed rate whatever the answers do, so
 * latency is measured without coordinated omission). Both stop by themselves.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface HttpAnswer {
  status: number;
  body: string;
}

/** Anything that can send a request and give the answer: the HTTP pool, or `app.inject` (SQL capture). */
export interface Requester {
  request(method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer>;
}

/** Each request to the next requester of the list, round robin: load spread over hosts, or a flow's steps crossing them in a set order. */
export class Rotate implements Requester {
  private i = 0;
  constructor(private readonly to: Requester[]) {}
  request(method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
    const next = this.to[this.i++ % this.to.length] as Requester;
    return next.request(method, path, headers, body);
  }
}

export class Http implements Requester {
  private readonly pool: Pool;

  constructor(
    readonly origin: string,
    connections: number,
  ) {
    // 198.18.0.0/15 (reserved for benchmarks): the hosts phase's network namespaces.
    if (!/^http:\/\/(127\.0\.0\.1|198\.1[89]\.\d{1,3}\.\d{1,3}):\d+$/.test(origin))
      throw new Error(`the bench only talks to 127.0.0.1 and 198.18.0.0/15, not ${origin}`);
    this.pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 60_000, bodyTimeout: 60_000 });
  }

  async request(method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
    const res = await this.pool.request({
      method,
      path,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: await res.body.text() };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export interface RunResult {
  /** Tasks that completed without error. */
  completed: number;
  errors: number;
  /** The first few distinct error messages. */
  errorSamples: string[];
  elapsedMs: number;
  /** Open loop only: tasks not started because too many were in flight. */
  dropped?: number;
}

class Errors {
  count = 0;
  samples = new Set<string>();
  add(err: unknown) {
    this.count++;
    if (this.samples.size < 5) this.samples.add(String((err as Error)?.message ?? err).slice(0, 300));
  }
}

/** Runs `concurrency` loops of `task` for `durationMs`, then waits (bounded) for the last tasks. */
export async function closedLoop(opts: {
  concurrency: number;
  durationMs: number;
  task: (worker: number) => Promise<void>;
  maxErrors?: number;
}): Promise<RunResult> {
  const errors = new Errors();
  const maxErrors = opts.maxErrors ?? 200;
  let completed = 0;
  const started = performance.now();
  const deadline = started + opts.durationMs;
  const worker = async (w: number) => {
    while (performance.now() < deadline && errors.count < maxErrors) {
      try {
        await opts.task(w);
        completed++;
      } catch (err) {
        errors.add(err);
      }
    }
  };
  await withTimeout(Promise.all(Array.from({ length: opts.concurrency }, (_, w) => worker(w))), opts.durationMs + 60_000, 'closed loop');
  return { completed, errors: errors.count, errorSamples: [...errors.samples], elapsedMs: performance.now() - started };
}

/**
 * Starts `task` `rate` times per second for `durationMs`, each given its scheduled start time (so
 * a late start counts in its latency). At most `maxInFlight` at once; beyond, starts are dropped
 * and counted.
 */
export async function openLoop(opts: {
  rate: number;
  durationMs: number;
  task: (scheduledAt: number) => Promise<void>;
  maxInFlight?: number;
}): Promise<RunResult> {
  const errors = new Errors();
  const maxInFlight = opts.maxInFlight ?? 2000;
  const interval = 1000 / opts.rate;
  const total = Math.floor((opts.durationMs / 1000) * opts.rate);
  const inFlight = new Set<Promise<void>>();
  let completed = 0;
  let dropped = 0;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const at = started + i * interval;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    if (inFlight.size >= maxInFlight) {
      dropped++;
      continue;
    }
    const p: Promise<void> = opts.task(at).then(
      () => {
        completed++;
      },
      (err) => errors.add(err),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await withTimeout(Promise.all([...inFlight]), 60_000, 'open loop drain');
  return { completed, errors: errors.count, errorSamples: [...errors.samples], elapsedMs: performance.now() - started, dropped };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
