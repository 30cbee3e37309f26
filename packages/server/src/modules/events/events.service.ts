import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { firstIdAt } from '../../platform/ids.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';
import { type EventRow, eventsRepository as repo, type ListOptions, type OutboxSubscriber } from './events.repository.ts';
import type { EventType } from './events.schema.ts';

export type { OutboxSubscriber };

/** An event to write: its envelope's facts, and its data as the emitting module describes it. */
export interface NewEvent<Data extends Record<string, unknown>> {
  merchantId: string;
  mode: KeyMode;
  type: EventType;
  apiVersion: string;
  /** The intent the event is about, if any (the dashboard lists an intent's events by it). */
  intentId: string | null;
  data: Data;
}

/** The envelope as delivered (docs/spec/webhooks.md). */
export interface EventEnvelope<Data> {
  id: string;
  object: 'event';
  type: EventType;
  createdAt: string;
  livemode: boolean;
  apiVersion: string;
  data: Data;
}

/**
 * Call once the transaction that recorded events has committed: every process's webhook
 * dispatcher (through PostgreSQL for the others) claims their deliveries at once instead of at
 * its next poll.
 */
export function announceEvents(deps: Pick<Deps, 'wakeups'>): void {
  deps.wakeups?.wake('webhooks');
}

/**
 * The transactional outbox: events are written in the transaction of the change they report,
 * and fanned out in the same statement to the subscriber (the webhooks module's deliveries).
 */
export function createEventsService(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'wakeups'>, opts: { subscriber?: OutboxSubscriber } = {}) {
  const { db, clock, ids } = deps;
  const { subscriber } = opts;

  return {
    /**
     * Writes an event into the outbox. Call it inside the transaction that makes the state
     * change, so the change, its event and its fan-out commit together or not at all.
     */
    async record<Data extends Record<string, unknown>>(tx: Tx, input: NewEvent<Data>): Promise<EventEnvelope<Data>> {
      const createdAt = clock.now();
      const body: EventEnvelope<Data> = {
        id: ids('event'),
        object: 'event',
        type: input.type,
        createdAt: createdAt.toISOString(),
        livemode: input.mode === 'live',
        apiVersion: input.apiVersion,
        data: input.data,
      };
      const row: EventRow = {
        id: body.id,
        merchant_id: input.merchantId,
        mode: input.mode,
        type: input.type,
        intent_id: input.intentId,
        api_version: input.apiVersion,
        payload: JSON.stringify(body),
        created_at: createdAt,
      };
      await repo.insert(tx, row, subscriber);
      return body;
    },

    /** See `announceEvents`. */
    announce: () => announceEvents(deps),

    find: (scope: Scope, id: string) => repo.find(db, scope, id),
    list: (scope: Scope, opts: ListOptions) => repo.list(db, scope, opts),
    listForIntent: (scope: Scope, intentId: string) => repo.listForIntent(db, scope, intentId),
    idsAfter: (scope: Scope, afterId: string, types: readonly string[] | undefined, limit: number) => repo.idsAfter(db, scope, afterId, types, limit),
    payloads: (ids: readonly string[]) => repo.payloads(db, ids),

    /** Retention: deletes up to `limit` events older than `before` that no subscriber needs. */
    purgeBefore: (before: Date, limit: number) => repo.purgeUnneeded(db, before, firstIdAt('event', before), limit, subscriber),
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
