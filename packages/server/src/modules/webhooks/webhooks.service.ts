import { HOUR } from '../../platform/clock.ts';
import { firstIdAt } from '../../platform/ids.ts';
import { decrypt, encrypt } from '../../platform/crypto.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Executor } from '../../platform/db.ts';
import { announceEvents, createEventsService, EVENT_TYPES, type EventsService, type EventType } from '../events/index.ts';
import { newWebhookSecret } from './signing.ts';
import { addressPolicy, checkEndpointHost, parseEndpointUrl, type Resolver, systemResolver } from './url-policy.ts';
import { type AttemptRow, type DeliveryRow, type EndpointRow, webhooksRepository as repo } from './webhooks.repository.ts';
import {
  BODY_EXCERPT_CHARS,
  type CreateEndpointInput,
  type DeliveryDetailView,
  type DeliveryView,
  type EndpointSecretView,
  type EndpointView,
  type EventBody,
  MAX_ENDPOINTS,
  type UpdateEndpointInput,
} from './webhooks.schema.ts';

export interface Page {
  limit: number;
  startingAfter?: string;
}

export const SECRET_ROLL_GRACE_SECONDS = 24 * 3600;

export function endpointView(e: EndpointRow): EndpointView {
  return {
    id: e.id,
    object: 'webhook_endpoint',
    url: e.url,
    description: e.description,
    enabledEvents: e.enabled_events.length === 0 ? ['*'] : e.enabled_events,
    enabled: e.enabled,
    disabledReason: e.disabled_reason,
    livemode: e.mode === 'live',
    createdAt: e.created_at.toISOString(),
    updatedAt: e.updated_at.toISOString(),
  };
}

export function deliveryView(d: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  return {
    id: d.id,
    object: 'webhook_delivery',
    eventId: d.event_id,
    endpointId: d.endpoint_id,
    status: d.status,
    attemptCount: d.attempts,
    nextAttemptAt: d.status === 'pending' ? (d.next_attempt_at?.toISOString() ?? null) : null,
    lastAttemptAt: d.last_attempt_at?.toISOString() ?? null,
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    createdAt: d.created_at.toISOString(),
    completedAt: d.completed_at?.toISOString() ?? null,
    attempts: attempts.filter((a) => a.delivery_id === d.id).map(attemptView),
  };
}

function attemptView(a: AttemptRow) {
  return {
    attemptedAt: a.attempted_at.toISOString(),
    statusCode: a.status_code,
    latencyMs: a.latency_ms,
    responseExcerpt: a.response_excerpt,
    error: a.error,
    succeeded: a.succeeded,
  };
}

/** The dashboard's view of a delivery: its endpoint, and each attempt with the request it sent. */
function deliveryDetail(d: DeliveryRow, attempts: AttemptRow[], endpoint: EndpointRow | undefined, payload: string): DeliveryDetailView {
  const body = payload.length > BODY_EXCERPT_CHARS ? `${payload.slice(0, BODY_EXCERPT_CHARS)}…` : payload;
  return {
    ...deliveryView(d, []),
    endpoint: endpoint === undefined ? null : { id: endpoint.id, url: endpoint.url, description: endpoint.description },
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => {
        const headers = a.request_headers === null ? null : (JSON.parse(a.request_headers) as Record<string, string>);
        return { ...attemptView(a), requestHeaders: headers, requestBodyExcerpt: headers === null ? null : body };
      }),
  };
}

/** Failing deliveries read per batch by the "failed deliveries" filter of the events list. */
const FAILING_BATCH = 100;

/** Empty or containing `*`: every type, stored as the empty list. Duplicates dropped, order kept. */
function normaliseEvents(list: string[] | undefined): EventType[] {
  if (list === undefined || list.length === 0 || list.includes('*')) return [];
  const known = new Set<string>(EVENT_TYPES);
  for (const [i, t] of list.entries()) {
    if (!known.has(t)) throw new ApiError('validation_error', `Unknown event type ${t}`, { param: `enabledEvents.${i}` });
  }
  return [...new Set(list)] as EventType[];
}

function page<T extends { id: string }>(rows: T[], limit: number) {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The window of an endpoint's success rate (the dashboard's endpoint page). */
export const STATS_WINDOW_MS = 24 * HOUR;

export function createWebhooksService(deps: Deps, opts: { resolver?: Resolver; events?: EventsService } = {}) {
  const events = opts.events ?? createEventsService(deps);

  /** New pending deliveries of one event, due at once. */
  async function enqueueDeliveries(tx: Executor, event: { eventId: string; merchantId: string; mode: KeyMode }, endpointIds: string[]) {
    const now = deps.clock.now();
    return repo.insertDeliveries(
      tx,
      endpointIds.map((endpointId) => ({
        id: deps.ids('delivery'),
        event_id: event.eventId,
        endpoint_id: endpointId,
        merchant_id: event.merchantId,
        mode: event.mode,
        status: 'pending' as const,
        next_attempt_at: now,
        lease_token: null,
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
        created_at: now,
        completed_at: null,
      })),
    );
  }

  const { db, clock, random, ids, config } = deps;
  const resolver = opts.resolver ?? systemResolver;

  async function checkedUrl(raw: string, mode: KeyMode): Promise<string> {
    const policy = addressPolicy(config, mode);
    const url = parseEndpointUrl(raw, policy);
    await checkEndpointHost(url, policy, resolver);
    return url.toString();
  }

  async function owned(owner: Scope, id: string): Promise<EndpointRow> {
    const row = await repo.findEndpoint(db, owner.merchantId, owner.mode, id);
    if (!row) throw new ApiError('not_found', `No webhook endpoint ${id}`, { param: 'id' });
    return row;
  }

  function seal(secret: string): Buffer {
    return encrypt(config.masterKey, secret, random);
  }

  async function createEndpoint(owner: Scope, input: CreateEndpointInput): Promise<EndpointView & { secret: string }> {
    const url = await checkedUrl(input.url, owner.mode);
    const events = normaliseEvents(input.enabledEvents);
    const secret = newWebhookSecret(random);
    const now = clock.now();
    const row = await db.transaction().execute(async (tx) => {
      await repo.lockEndpointsOf(tx, owner.merchantId, owner.mode);
      const count = await repo.countEndpoints(tx, owner.merchantId, owner.mode);
      if (count >= MAX_ENDPOINTS) {
        throw new ApiError('limit_exceeded', `A merchant may have at most ${MAX_ENDPOINTS} webhook endpoints per mode; delete one first`, {
          extra: { limit: MAX_ENDPOINTS },
        });
      }
      const enabled = input.enabled ?? true;
      const endpoint = await repo.insertEndpoint(tx, {
        id: ids('webhookEndpoint'),
        merchant_id: owner.merchantId,
        mode: owner.mode,
        url,
        description: input.description ?? null,
        enabled_events: events,
        enabled,
        disabled_reason: enabled ? null : 'manual',
        failing_since: null,
        created_at: now,
        updated_at: now,
      });
      await repo.insertSecret(tx, { endpoint_id: endpoint.id, secret_encrypted: seal(secret), created_at: now, expires_at: null });
      return endpoint;
    });
    return { ...endpointView(row), secret };
  }

  async function listEndpoints(owner: Scope, p: Page) {
    const { rows, hasMore } = page(await repo.listEndpoints(db, owner.merchantId, owner.mode, p.limit + 1, p.startingAfter), p.limit);
    return { data: rows.map(endpointView), hasMore };
  }

  async function getEndpoint(owner: Scope, id: string) {
    return endpointView(await owned(owner, id));
  }

  async function updateEndpoint(owner: Scope, id: string, input: UpdateEndpointInput): Promise<EndpointView> {
    const current = await owned(owner, id);
    const url = input.url === undefined ? undefined : await checkedUrl(input.url, owner.mode);
    const events = input.enabledEvents === undefined ? undefined : normaliseEvents(input.enabledEvents);
    const now = clock.now();
    const row = await db.transaction().execute(async (tx) => {
      const patch: Parameters<typeof repo.updateEndpoint>[2] = { updated_at: now };
      if (url !== undefined) patch.url = url;
      if (input.description !== undefined) patch.description = input.description;
      if (events !== undefined) patch.enabled_events = events;
      if (input.enabled === false && current.enabled) Object.assign(patch, { enabled: false, disabled_reason: 'manual' });
      if (input.enabled === true && !current.enabled) Object.assign(patch, { enabled: true, disabled_reason: null, failing_since: null });
      const updated = await repo.updateEndpoint(tx, id, patch);
      if (patch.enabled === false) await repo.parkPending(tx, id);
      if (patch.enabled === true) await repo.wakeParked(tx, id, now);
      return updated;
    });
    return endpointView(row);
  }

  async function deleteEndpoint(owner: Scope, id: string) {
    await owned(owner, id);
    await repo.deleteEndpoint(db, id);
    return { id, object: 'webhook_endpoint' as const, deleted: true as const };
  }

  async function secretView(endpointId: string): Promise<EndpointSecretView> {
    const rows = await repo.liveSecrets(db, [endpointId], clock.now());
    const current = rows.find((r) => r.expires_at === null) ?? rows[0];
    if (current === undefined) throw new ApiError('internal_error', 'The endpoint has no signing secret');
    return {
      object: 'webhook_endpoint_secret',
      endpointId,
      secret: decrypt(config.masterKey, current.secret_encrypted),
      rollingSecrets: rows
        .filter((r) => r !== current && r.expires_at !== null)
        .map((r) => ({ secret: decrypt(config.masterKey, r.secret_encrypted), expiresAt: (r.expires_at as Date).toISOString() })),
    };
  }

  /** Explicit reveal of the signing secret(s). */
  async function revealSecret(owner: Scope, id: string): Promise<EndpointSecretView> {
    await owned(owner, id);
    return secretView(id);
  }

  /** A new secret signs from now on; the previous ones keep signing beside it for `expiresIn` seconds. */
  async function rollSecret(owner: Scope, id: string, expiresIn = SECRET_ROLL_GRACE_SECONDS): Promise<EndpointView & { secret: string }> {
    const endpoint = await owned(owner, id);
    const secret = newWebhookSecret(random);
    const now = clock.now();
    await db.transaction().execute(async (tx) => {
      await repo.expireSecrets(tx, id, new Date(now.getTime() + expiresIn * 1000));
      await repo.insertSecret(tx, { endpoint_id: id, secret_encrypted: seal(secret), created_at: now, expires_at: null });
    });
    return { ...endpointView(endpoint), secret };
  }

  async function listDeliveries(owner: Scope, endpointId: string, p: Page & { eventId?: string }) {
    await owned(owner, endpointId);
    const { rows, hasMore } = page(await repo.listDeliveries(db, endpointId, p.limit + 1, p.startingAfter, p.eventId), p.limit);
    const attempts = await repo.attemptsOf(
      db,
      rows.map((r) => r.id),
    );
    return { data: rows.map((r) => deliveryView(r, attempts)), hasMore };
  }

  /**
   * The endpoint's health over the last 24 hours: deliveries attempted in that window and how
   * many succeeded; `successRate` is their ratio, null when nothing was attempted (no rate is
   * not a 0 % rate).
   */
  async function endpointStats(owner: Scope, endpointId: string) {
    await owned(owner, endpointId);
    const now = deps.clock.now();
    const since = new Date(now.getTime() - STATS_WINDOW_MS);
    const [{ attempted, succeeded }, last] = await Promise.all([repo.attemptedSince(db, endpointId, since), repo.lastAttemptedSince(db, endpointId, since)]);
    const lastFailure =
      last === undefined || last.status === 'succeeded' || last.last_attempt_at === null
        ? null
        : {
            at: last.last_attempt_at.toISOString(),
            error: last.last_error ?? `HTTP ${last.last_status_code ?? '?'}`,
            retrying: last.status === 'pending',
          };
    return {
      object: 'webhook_endpoint_stats' as const,
      endpointId,
      since: since.toISOString(),
      until: now.toISOString(),
      attempted,
      succeeded,
      successRate: attempted === 0 ? null : succeeded / attempted,
      lastFailure,
    };
  }

  /**
   * Events, newest first. `createdGte`/`createdLt` become id bounds (ids sort by creation time).
   * `deliveryStatus: 'failed'`: only events with a delivery whose last attempt failed, found
   * through the failing deliveries' own index, a batch at a time, then read (and filtered by
   * type) from the events module.
   */
  async function listEvents(owner: Scope, p: Page & { type?: string; createdGte?: Date; createdLt?: Date; deliveryStatus?: 'failed' }) {
    const floor = p.createdGte && firstIdAt('event', p.createdGte);
    let startingAfter = p.startingAfter;
    if (p.createdLt) {
      const bound = firstIdAt('event', p.createdLt);
      if (startingAfter === undefined || bound < startingAfter) startingAfter = bound;
    }
    let found: Awaited<ReturnType<EventsService['list']>>;
    if (p.deliveryStatus === undefined) {
      found = await events.list(owner, { limit: p.limit + 1, startingAfter, type: p.type, floor });
    } else {
      found = [];
      for (let before = startingAfter; found.length <= p.limit; ) {
        const ids = await repo.failingEventIds(db, owner, before, floor, FAILING_BATCH);
        if (ids.length > 0) found.push(...(await events.list(owner, { limit: ids.length, ids, type: p.type })));
        if (ids.length < FAILING_BATCH) break;
        before = ids[ids.length - 1];
      }
    }
    const { rows, hasMore } = page(found, p.limit);
    return { data: rows.map((r) => JSON.parse(r.payload) as EventBody), hasMore };
  }

  /** The dashboard's event page: the envelope as sent, and per endpoint its deliveries and attempts. */
  async function eventDetail(owner: Scope, id: string) {
    const event = await ownedEvent(owner, id);
    const deliveries = await repo.deliveriesOfEvents(db, owner, [event.id]);
    const [attempts, endpoints] = await Promise.all([
      repo.attemptsOf(
        db,
        deliveries.map((d) => d.id),
      ),
      repo.findEndpointsByIds(db, [...new Set(deliveries.map((d) => d.endpoint_id))]),
    ]);
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    return {
      object: 'event_detail' as const,
      event: JSON.parse(event.payload) as EventBody,
      payload: event.payload,
      deliveries: deliveries.map((d) => deliveryDetail(d, attempts, endpointById.get(d.endpoint_id), event.payload)),
    };
  }

  async function ownedEvent(owner: Scope, id: string) {
    const row = await events.find(owner, id);
    if (!row) throw new ApiError('not_found', `No event ${id}`, { param: 'id' });
    return row;
  }

  async function getEvent(owner: Scope, id: string): Promise<EventBody> {
    return JSON.parse((await ownedEvent(owner, id)).payload) as EventBody;
  }

  /**
   * New deliveries of an event, due at once: to one named endpoint (which must be enabled), or
   * to every enabled endpoint that wants its type. Earlier deliveries are left as they are.
   */
  async function resendEvent(owner: Scope, id: string, endpointId?: string) {
    const event = await ownedEvent(owner, id);
    let targets: string[];
    if (endpointId !== undefined) {
      const endpoint = await repo.findEndpoint(db, owner.merchantId, owner.mode, endpointId);
      if (!endpoint) throw new ApiError('not_found', `No webhook endpoint ${endpointId}`, { param: 'endpointId' });
      if (!endpoint.enabled) throw new ApiError('endpoint_disabled', `Webhook endpoint ${endpointId} is disabled; enable it first`, { param: 'endpointId' });
      targets = [endpoint.id];
    } else {
      targets = (await repo.endpointsFor(db, owner.merchantId, owner.mode, event.type)).map((e) => e.id);
    }
    const rows = await enqueueDeliveries(db, { eventId: event.id, merchantId: owner.merchantId, mode: owner.mode }, targets);
    announceEvents(deps);
    return { data: rows.map((r) => deliveryView(r, [])) };
  }

  /** Every delivery of these events to any endpoint of the scope, newest first, with their attempts. */
  async function deliveriesOfEvents(owner: Scope, eventIds: string[]): Promise<DeliveryView[]> {
    const rows = await repo.deliveriesOfEvents(db, owner, eventIds);
    const attempts = await repo.attemptsOf(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => deliveryView(r, attempts));
  }

  /**
   * Retention: deletes, batch by batch of `limit`, attempts and then deliveries that reached a
   * final state before `before`. Pending deliveries stay, parked or retrying, whatever their age.
   */
  async function purgeFinished(before: Date, limit: number, drain: (batch: () => Promise<number>) => Promise<number>) {
    const deliveryAttempts = await drain(() => repo.purgeFinishedAttempts(db, before, limit));
    const deliveries = await drain(() => repo.purgeFinishedDeliveries(db, before, limit));
    return { deliveryAttempts, deliveries };
  }

  return {
    deliveriesOfEvents,
    purgeFinished,
    createEndpoint,
    listEndpoints,
    getEndpoint,
    updateEndpoint,
    deleteEndpoint,
    revealSecret,
    rollSecret,
    listDeliveries,
    endpointStats,
    listEvents,
    eventDetail,
    getEvent,
    resendEvent,
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
