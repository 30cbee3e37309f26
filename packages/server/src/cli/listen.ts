import { createHmac } from 'node:crypto';
import { generateTestHeaders } from '@caisse/node';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { eventIdFloor, eventIdTime } from '../platform/id-cursor.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { ApiTarget } from './client.ts';
import type { EventType } from './event-types.ts';

/**
 * The client side of `caisse listen` (docs/spec/running.md): reads `GET /listen/stream` (the CLI's own
 * stream, which the SDKs leave out) and POSTs every event to a local URL, signed exactly as real
 * webhook deliveries are (`pay-signature` and the Standard Webhooks headers, by @caisse/node's
 * `generateTestHeaders`) with a secret that depends only on the secret key, so it is the same
 * after every restart.
 */

/**
 * The signing secret of `caisse listen`: `whsec_` + base64 of HMAC-SHA256(secret key, a fixed
 * label). The same for every run with the same secret key (nothing to store), different for
 * every secret key, and it reveals nothing of the key. Rolling the secret key changes it.
 */
export function forwardingSecret(secretKey: string): string {
  return 'whsec_' + createHmac('sha256', secretKey).update('caisse listen forwarding secret v1').digest('base64');
}

/** What a delivery carries besides its signatures. */
const DELIVERY_HEADERS = { 'content-type': 'application/json', 'user-agent': 'Caisse-Webhooks/1.0' };

export class ListenFatalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenFatalError';
  }
}

export interface ListenOptions extends ApiTarget {
  forwardTo: string;
  /** Only these types (default: all). */
  events?: readonly EventType[];
  /** Lines for the person running it. */
  say(line: string): void;
  /** Stops listening (the promise of `listen` then resolves). */
  signal?: AbortSignal;
  clock?: Clock;
  /** Called once the stream is open (with the secret), and after each reconnection. */
  onReady?(info: { secret: string; reconnected: boolean }): void;
  /** Called after each forward, whatever came back. */
  onForwarded?(result: ForwardResult): void;
  /** No byte from the server for this long means the connection is dead (default 45 s; the server pings every 15 s). */
  idleTimeoutMs?: number;
  /** Forward attempts per event when the local URL cannot be reached or answers 5xx (default 3). */
  forwardAttempts?: number;
}

export interface ForwardResult {
  eventId: string;
  type: string;
  status: number | null;
  error?: string;
}

const SEEN_MAX = 10_000;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function time(clock: Clock): string {
  return clock.now().toISOString().slice(11, 19);
}

/**
 * Listens until `signal` aborts (resolves) or the server refuses the credentials (rejects with
 * ListenFatalError). A dropped connection is reopened with Last-Event-ID, with a backoff of
 * 0.5 s doubling to 5 s, so no event committed meanwhile is lost; ids already forwarded are not
 * forwarded again.
 */
export async function listen(opts: ListenOptions): Promise<void> {
  const clock = opts.clock ?? systemClock;
  const secret = forwardingSecret(opts.secretKey);
  const base = opts.baseUrl.replace(/\/+$/, '');
  const query = opts.events && opts.events.length > 0 ? `?events=${encodeURIComponent(opts.events.join(','))}` : '';
  const idleTimeoutMs = opts.idleTimeoutMs ?? 45_000;
  const attempts = opts.forwardAttempts ?? 3;
  const seen = new Set<string>();
  /** Events before this id are older than this run: never forwarded. */
  let floor: string | undefined;
  let lastEventId: string | undefined;
  let connections = 0;
  let backoff = 500;
  let lastFailure: string | undefined;

  // Forwarding runs one event at a time, in the order received, beside the reading.
  const queue: EventSourceMessage[] = [];
  let wakeForwarder: (() => void) | undefined;
  let reading = true;

  async function forward(message: EventSourceMessage): Promise<void> {
    const id = message.id as string;
    const type = message.event ?? 'message';
    opts.say(`${time(clock)}  --> ${type} [${id}]`);
    let result: ForwardResult = { eventId: id, type, status: null };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await fetch(opts.forwardTo, {
          method: 'POST',
          headers: {
            ...DELIVERY_HEADERS,
            ...generateTestHeaders({ payload: message.data, secret, id, timestamp: Math.floor(clock.now().getTime() / 1000) }),
          },
          body: message.data,
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        result = { eventId: id, type, status: res.status };
        if (res.status < 500) break;
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        result = { eventId: id, type, status: null, error: cause ?? (err as Error).message };
      }
      if (attempt < attempts && !opts.signal?.aborted) await sleep(1000 * attempt, opts.signal);
    }
    opts.say(
      result.status === null
        ? `${time(clock)}  <-- could not POST ${opts.forwardTo}: ${result.error} [${id}]`
        : `${time(clock)}  <-- [${result.status}] POST ${opts.forwardTo} [${id}]`,
    );
    opts.onForwarded?.(result);
  }

  const forwarder = (async () => {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        await forward(next);
        continue;
      }
      if (!reading) return;
      await new Promise<void>((resolve) => (wakeForwarder = resolve));
      wakeForwarder = undefined;
    }
  })();

  function onMessage(message: EventSourceMessage): void {
    if (message.id !== undefined) lastEventId = message.id;
    if (message.event === 'ready') {
      if (floor === undefined) floor = message.id ?? eventIdFloor(clock.now().getTime());
      connections += 1;
      backoff = 500;
      lastFailure = undefined;
      if (connections === 1) {
        opts.say(`Ready! Forwarding this merchant's test events to ${opts.forwardTo}${opts.events?.length ? ` (${opts.events.join(', ')})` : ''}.`);
        opts.say(`Your webhook signing secret is ${secret} (the same every run with this secret key). Ctrl-C to stop.`);
      } else {
        opts.say(`${time(clock)}  reconnected; resuming after ${message.id}`);
      }
      opts.onReady?.({ secret, reconnected: connections > 1 });
      return;
    }
    const id = message.id;
    if (id === undefined || message.event === undefined) return;
    if (floor !== undefined && id < floor) return;
    if (seen.has(id)) return;
    seen.add(id);
    if (seen.size > SEEN_MAX) {
      // Forget the oldest: the server never resends ids more than 30 s older than what it sends.
      const oldest = [...seen].sort((a, b) => eventIdTime(a) - eventIdTime(b)).slice(0, seen.size - SEEN_MAX / 2);
      for (const o of oldest) seen.delete(o);
    }
    queue.push(message);
    wakeForwarder?.();
  }

  async function readOnce(): Promise<void> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new Error(`no data from the server for ${idleTimeoutMs / 1000} s`)), idleTimeoutMs);
    };
    try {
      touch();
      const res = await fetch(`${base}/listen/stream${query}`, {
        headers: {
          accept: 'text/event-stream',
          'x-api-key': opts.apiKey,
          authorization: `Bearer ${opts.secretKey}`,
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        signal: controller.signal,
      });
      if (res.status !== 200 || res.body === null) {
        const text = await res.text().catch(() => '');
        let problem: { code?: string; detail?: string } = {};
        try {
          problem = JSON.parse(text);
        } catch {
          /* not a problem body */
        }
        const why = `${res.status}${problem.code ? ` ${problem.code}` : ''}${problem.detail ? `: ${problem.detail}` : ''}`;
        // Credentials, mode or request refused: retrying will not help.
        if ([400, 401, 403, 404, 406].includes(res.status)) throw new ListenFatalError(`the server refused the stream: ${why}`);
        throw new Error(why);
      }
      const parser = createParser({ onEvent: onMessage });
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        touch();
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
      throw new Error('the server closed the stream');
    } finally {
      clearTimeout(idle);
      opts.signal?.removeEventListener('abort', abort);
    }
  }

  try {
    while (!opts.signal?.aborted) {
      try {
        await readOnce();
      } catch (err) {
        if (err instanceof ListenFatalError) throw err;
        if (opts.signal?.aborted) break;
        const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
        // Said once per outage (and when the reason changes), not at every retry.
        if (reason !== lastFailure) opts.say(`${time(clock)}  connection lost (${reason}); reconnecting…`);
        lastFailure = reason;
        await sleep(backoff, opts.signal);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  } finally {
    reading = false;
    wakeForwarder?.();
    await forwarder;
  }
}
