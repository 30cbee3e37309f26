import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { SECOND } from '../../platform/clock.ts';
import { createEventsService, type EventsService } from '../events/index.ts';
import { type BackgroundWorker, type LoopWorker, startWorker } from '../../platform/worker.ts';
import { decrypt } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { nextAttemptAt, DISABLE_AFTER_MS, retryAfterMs } from './retry-policy.ts';
import { signedHeaders } from './signing.ts';
import { nodeTransport, type WebhookTransport, wireHeaders } from './transport.ts';
import { addressPolicy, isLoopbackAddress, resolveForDelivery, type Resolver, systemResolver } from './url-policy.ts';
import { type AttemptResult, type ClaimedDelivery, type EndpointRow, webhooksRepository as repo } from './webhooks.repository.ts';
import { failureLevel } from '../../platform/db-unavailable.ts';

export const DELIVERY_TIMEOUT_MS = 10 * SECOND;
/** Bytes of a receiver's answer kept in the attempt log; the rest is never read. */
export const EXCERPT_BYTES = 2048;
/** Deliveries the background loop claims ahead of the requests in flight (see claimAhead). */
const CLAIM_AHEAD = 512;

export interface DispatcherOptions {
  /** Deliveries in flight at once (default: config). */
  concurrency?: number;
  /** Per-request deadline (default 10 s; tests inject a short one). */
  timeoutMs?: number;
  /** How long a claim lasts before another dispatcher may take the delivery over. */
  leaseMs?: number;
  /** Idle wait between polls of an empty queue (real time; only the background loop uses it). */
  pollIntervalMs?: number;
  transport?: WebhookTransport;
  resolver?: Resolver;
  logger?: Logger;
  /** Where event payloads are read (default: the events module's reads on deps.db). */
  events?: Pick<EventsService, 'payloads'>;
}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'parked' | 'lost_lease';

export interface RunSummary {
  claimed: number;
  succeeded: number;
  retrying: number;
  failed: number;
}

export interface Dispatcher {
  name: string;
  /** Claims up to `limit` due deliveries (they are leased to this dispatcher until delivered or the lease lapses). */
  claim(limit: number): Promise<ClaimedDelivery[]>;
  /** Delivers claimed deliveries in parallel and records each outcome. */
  deliver(claimed: ClaimedDelivery[]): Promise<DeliveryOutcome[]>;
  /** One claim of up to `limit` (default: concurrency) and their delivery. */
  claimAndDeliver(limit?: number): Promise<RunSummary>;
  /** Delivers everything due now, a pool-full at a time, until nothing is due. */
  runOnce(): Promise<RunSummary>;
  /** The background loop: keeps the pool full, polls when idle. */
  start(): void;
  /** Stops claiming, lets in-flight deliveries finish, then resolves. */
  stop(): Promise<void>;
}

function unitFrom(bytes: Buffer): number {
  return bytes.readUInt32BE(0) / 2 ** 32;
}

function clean(text: string | null, max: number): string | null {
  if (text === null) return null;
  // PostgreSQL text cannot hold NUL.
  const t = text.replaceAll('\u0000', '');
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/**
 * The webhook dispatcher. It claims due deliveries with `FOR UPDATE SKIP LOCKED` under a lease,
 * so any number of dispatchers (server processes, `caisse worker`) share one queue, and a
 * delivery claimed by a process that died is due again once its lease lapses. Every attempt is
 * logged; a delivery is retried with backoff for about 3 days, then marked failed.
 */
export function createDispatcher(deps: Deps, opts: DispatcherOptions = {}): Dispatcher {
  const { db, clock, random, config } = deps;
  const concurrency = opts.concurrency ?? config.webhooks.concurrency;
  /**
   * Claimed and not yet answered, at most, on a backlog. A claim and its reads serve its whole
   * batch, and the queue's index is walked once per claim: on a backlog of 20 000, claims of 512
   * instead of 64 took PostgreSQL's CPU per delivery from 88 to 54-68 µs and the server's from
   * 151 to 130-134. A delivery whose lease would lapse before it is sent is given back (see
   * prepare).
   */
  const claimAhead = Math.max(2 * concurrency, CLAIM_AHEAD);
  /** The next claim's size: twice the concurrency, doubled after each full claim up to claimAhead. */
  let claimSize = 2 * concurrency;
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = opts.leaseMs ?? timeoutMs + 60 * SECOND;
  const pollIntervalMs = opts.pollIntervalMs ?? 500;
  const transport = opts.transport ?? nodeTransport;
  const resolver = opts.resolver ?? systemResolver;
  const log = opts.logger;
  const events = opts.events ?? createEventsService(deps);

  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = clock.now();
    return repo.claimDue(db, now, new Date(now.getTime() + leaseMs), random(16).toString('hex'), limit);
  }

  async function send(endpoint: EndpointRow, secrets: string[], eventId: string, payload: string): Promise<{ result: AttemptResult; retryAfter?: number }> {
    const attemptedAt = clock.now();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // Null until a request goes out: an address refused before sending sent nothing.
    let requestHeaders: Record<string, string> | null = null;
    try {
      const url = new URL(endpoint.url);
      const address = await resolveForDelivery(url, addressPolicy(config, endpoint.mode), resolver);
      const headers = signedHeaders(secrets, eventId, clock.now(), payload);
      requestHeaders = wireHeaders(url, headers, payload);
      const res = await transport({ url, address, headers: requestHeaders, body: payload, timeoutMs, maxExcerptBytes: EXCERPT_BYTES });
      const succeeded = res.status >= 200 && res.status < 300;
      // A loopback target is on the gateway's own machine: its answer is never shown back.
      const excerpt = isLoopbackAddress(address.address) ? null : clean(res.excerpt, EXCERPT_BYTES);
      return {
        result: {
          attemptedAt,
          statusCode: res.status,
          latencyMs: elapsed(),
          requestHeaders,
          responseExcerpt: excerpt,
          error: succeeded ? null : `HTTP ${res.status}`,
          succeeded,
        },
        retryAfter: retryAfterMs(res.headers['retry-after'], clock.now()),
      };
    } catch (err) {
      return {
        result: {
          attemptedAt,
          statusCode: null,
          latencyMs: elapsed(),
          requestHeaders,
          responseExcerpt: null,
          error: clean((err as Error).message, 500),
          succeeded: false,
        },
      };
    }
  }

  // ---- acknowledged deliveries, recorded together -------------------------------------------
  // Every success that arrives while a recording statement runs waits for the next one, which
  // records them all (attempts, deliveries, endpoints: one statement, so one round trip and one
  // commit for the lot): under load, one commit serves many deliveries; alone, a success is
  // recorded at once.
  const SUCCESS_BATCH = 500;
  type Acknowledged = { c: ClaimedDelivery; result: AttemptResult; done: (o: DeliveryOutcome) => void; fail: (e: unknown) => void };
  const acknowledged: Acknowledged[] = [];
  let recording: Promise<void> | undefined;

  function recordSuccess(c: ClaimedDelivery, result: AttemptResult): Promise<DeliveryOutcome> {
    return new Promise((done, fail) => {
      acknowledged.push({ c, result, done, fail });
      recording ??= recordSuccesses().finally(() => {
        recording = undefined;
      });
    });
  }

  async function recordSuccesses(): Promise<void> {
    while (acknowledged.length > 0) {
      const batch = acknowledged.splice(0, SUCCESS_BATCH);
      try {
        const now = clock.now();
        const recorded = new Set(
          await repo.recordSucceeded(
            db,
            batch.map((b) => ({ id: b.c.id, result: b.result })),
            now,
          ),
        );
        for (const b of batch) b.done(recorded.has(b.c.id) ? 'succeeded' : 'lost_lease');
      } catch (err) {
        for (const b of batch) b.fail(err);
      }
    }
  }

  /** Records an attempt and moves the delivery (and maybe its endpoint) on, in one transaction. */
  async function settle(c: ClaimedDelivery, endpoint: EndpointRow, result: AttemptResult, retryAfter: number | undefined): Promise<DeliveryOutcome> {
    if (result.succeeded) return recordSuccess(c, result);
    const now = clock.now();
    const last = { last_attempt_at: result.attemptedAt, last_status_code: result.statusCode, last_error: result.error };
    return db.transaction().execute(async (tx) => {
      await repo.insertAttempt(tx, c.id, result);
      if (result.statusCode === 410) {
        const ok = await repo.settle(tx, c.id, c.leaseToken, { status: 'failed', next_attempt_at: null, completed_at: now, ...last });
        if (await repo.disableEndpoint(tx, endpoint.id, 'gone', now)) log?.warn({ endpointId: endpoint.id }, 'webhook endpoint answered 410 Gone: disabled');
        // Parked by whoever disabled it, or here if that one skipped this delivery (parkPending).
        if (!(await repo.endpointEnabled(tx, endpoint.id))) await repo.parkPending(tx, endpoint.id);
        return ok ? 'failed' : 'lost_lease';
      }
      const next = nextAttemptAt({ now, createdAt: c.createdAt, attempts: c.attempts, unit: unitFrom(random(4)), retryAfterMs: retryAfter });
      const ok = await repo.settle(tx, c.id, c.leaseToken, {
        status: next === null ? 'failed' : 'pending',
        next_attempt_at: next,
        completed_at: next === null ? now : null,
        ...last,
      });
      if (await repo.markEndpointFailing(tx, endpoint.id, now, new Date(now.getTime() - DISABLE_AFTER_MS))) {
        log?.warn({ endpointId: endpoint.id }, 'webhook endpoint failing for 5 days: disabled');
      }
      // Parked by whoever disabled it, or here if that one skipped this delivery (parkPending).
      if (!(await repo.endpointEnabled(tx, endpoint.id))) await repo.parkPending(tx, endpoint.id);
      if (!ok) return 'lost_lease';
      return next === null ? 'failed' : 'retrying';
    });
  }

  /**
   * Loads what the claimed deliveries need in three queries, and returns one task per delivery.
   * A task calls `onSent` once its request has its answer (or failed), before the outcome is
   * recorded.
   */
  async function prepare(claimed: ClaimedDelivery[]): Promise<((onSent?: () => void) => Promise<DeliveryOutcome>)[]> {
    if (claimed.length === 0) return [];
    const endpointIds = [...new Set(claimed.map((c) => c.endpointId))];
    const [endpoints, secretRows, payloads] = await Promise.all([
      repo.findEndpointsByIds(db, endpointIds),
      repo.liveSecrets(db, endpointIds, clock.now()),
      events.payloads([...new Set(claimed.map((c) => c.eventId))]),
    ]);
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    const payloadById = new Map(payloads.map((p) => [p.id, p.payload]));
    const secretsOf = new Map<string, string[]>();
    for (const s of secretRows) {
      const list = secretsOf.get(s.endpoint_id) ?? [];
      list.push(decrypt(config.masterKey, s.secret_encrypted));
      secretsOf.set(s.endpoint_id, list);
    }
    return claimed.map((c) => async (onSent?: () => void): Promise<DeliveryOutcome> => {
      let sent = false;
      const markSent = () => {
        if (!sent) onSent?.();
        sent = true;
      };
      try {
        const endpoint = endpointById.get(c.endpointId);
        const payload = payloadById.get(c.eventId);
        // Deleted since (its deliveries went with it), or the event vanished: nothing to send.
        if (endpoint === undefined || payload === undefined) return 'lost_lease';
        if (!endpoint.enabled) {
          await repo.settle(db, c.id, c.leaseToken, { status: 'pending', next_attempt_at: null });
          return 'parked';
        }
        // Waited so long behind the others of its claim that the lease could lapse mid-request,
        // and another dispatcher send it too: given back unsent instead.
        if (clock.now().getTime() + timeoutMs >= c.leaseUntil.getTime()) {
          await repo.releaseUnsent(db, [c], clock.now());
          return 'lost_lease';
        }
        const { result, retryAfter } = await send(endpoint, secretsOf.get(endpoint.id) ?? [], c.eventId, payload);
        markSent();
        return await settle(c, endpoint, result, retryAfter);
      } catch (err) {
        // The lease lapses and another claim retries it: nothing is lost.
        log?.[failureLevel(err)]({ err, deliveryId: c.id }, 'webhook delivery could not be recorded');
        return 'lost_lease';
      } finally {
        markSent();
      }
    });
  }

  async function deliver(claimed: ClaimedDelivery[]): Promise<DeliveryOutcome[]> {
    return Promise.all((await prepare(claimed)).map((task) => task()));
  }

  function summarise(claimed: number, outcomes: DeliveryOutcome[]): RunSummary {
    const count = (o: DeliveryOutcome) => outcomes.filter((x) => x === o).length;
    return { claimed, succeeded: count('succeeded'), retrying: count('retrying'), failed: count('failed') };
  }

  async function claimAndDeliver(limit = concurrency): Promise<RunSummary> {
    const claimed = await claim(limit);
    return summarise(claimed.length, await deliver(claimed));
  }

  async function runOnce(): Promise<RunSummary> {
    const total: RunSummary = { claimed: 0, succeeded: 0, retrying: 0, failed: 0 };
    for (;;) {
      const s = await claimAndDeliver();
      total.claimed += s.claimed;
      total.succeeded += s.succeeded;
      total.retrying += s.retrying;
      total.failed += s.failed;
      if (s.claimed === 0) return total;
    }
  }

  // ---- the background loop -------------------------------------------------------------------
  let stopping = false;
  let worker: LoopWorker | undefined;
  let unsubscribe: (() => void) | undefined;
  const inFlight = new Set<Promise<unknown>>();
  /** Claimed and prepared, waiting for a free slot. */
  const ready: { c: ClaimedDelivery; run: (onSent?: () => void) => Promise<DeliveryOutcome> }[] = [];
  let sending = 0;

  /** Ends the loop's wait: new events, a freed slot, a recorded batch. */
  function poke() {
    worker?.wake();
  }

  /** Starts ready deliveries while slots are free (none once stopping: drain gives them back). */
  function startReady() {
    while (!stopping && ready.length > 0 && sending < concurrency) {
      const { run } = ready.shift() as (typeof ready)[number];
      sending++;
      const p = run(() => {
        sending--;
        startReady();
        // Running low: claim the next batch while these are still being sent.
        if (ready.length < claimAhead / 2) poke();
      });
      inFlight.add(p);
      void p.finally(() => {
        inFlight.delete(p);
        if (acknowledged.length < SUCCESS_BATCH) poke();
      });
    }
  }

  /**
   * `concurrency` bounds the requests in flight. The loop claims ahead, up to `claimAhead`, so
   * that a claim (one statement) and its reads serve a batch, and a freed slot starts the next
   * ready delivery at once. A delivery frees its slot as soon as its answer is in: recording it
   * (batched, see recordSuccess) goes on meanwhile, and the loop claims no more while a full
   * batch of answers waits to be recorded.
   */
  async function tick(): Promise<boolean> {
    startReady();
    const room = Math.min(claimSize, claimAhead - ready.length - sending);
    // The next claim goes out while half of `claimAhead` is still in hand: a claim of hundreds
    // and its reads take longer than sending the last `concurrency` of the previous one did.
    if (ready.length < claimAhead / 2 && room > 0 && acknowledged.length < SUCCESS_BATCH) {
      const claimed = await claim(room);
      const tasks = await prepare(claimed);
      claimed.forEach((c, i) => ready.push({ c, run: tasks[i] as (typeof tasks)[number] }));
      startReady();
      // A full claim: more may be due at once, and the next claim may be bigger. A claim that
      // found less: back to small claims, so that dispatchers share a short queue.
      claimSize = claimed.length === room ? Math.min(2 * claimSize, claimAhead) : 2 * concurrency;
      return claimed.length === room;
    }
    // Enough in hand: wait for a wake-up (a slot, a recorded batch) or for the poll interval.
    return false;
  }

  return {
    name: 'webhook-dispatcher',
    claim,
    deliver,
    claimAndDeliver,
    runOnce,
    start() {
      if (worker !== undefined) return;
      stopping = false;
      worker = startWorker({
        name: 'webhook-dispatcher',
        logger: log,
        intervalMs: pollIntervalMs,
        errorDelayMs: pollIntervalMs * 5,
        tick,
        // What is being sent finishes; what was claimed ahead and not sent yet is given back at
        // once (not left to its lease, nor sent all at once past the concurrency).
        async drain() {
          stopping = true;
          const unsent = ready.splice(0).map((r) => r.c);
          await repo
            .releaseUnsent(db, unsent, clock.now())
            .catch((err: unknown) => log?.[failureLevel(err)]({ err }, 'webhook deliveries claimed ahead could not be given back'));
          await Promise.allSettled([...inFlight]);
        },
      });
      // Woken as soon as a transaction that recorded events commits (announceEvents); the poll
      // stays, for events whose wake-up was lost and for retries coming due.
      unsubscribe = deps.wakeups?.subscribe('webhooks', poke);
    },
    async stop() {
      stopping = true;
      unsubscribe?.();
      unsubscribe = undefined;
      await worker?.stop();
      await Promise.allSettled([...inFlight]);
      worker = undefined;
    },
  };
}

/** The dispatcher as a background worker of `start` and `caisse worker`, started. */
export function startDispatcher(deps: Deps, logger: Logger, opts: DispatcherOptions = {}): BackgroundWorker {
  const dispatcher = createDispatcher(deps, { logger: logger.child({ worker: 'webhook-dispatcher' }), ...opts });
  dispatcher.start();
  return { name: dispatcher.name, stop: () => dispatcher.stop() };
}
