import type { Deps } from '../../platform/deps.ts';
import { SECOND } from '../../platform/clock.ts';
import { createEventsService, type EventsService, type EventType } from '../events/index.ts';
import { eventIdFloor, eventIdTime, isFloor } from '../../platform/id-cursor.ts';

/**
 * How far behind the newest event already sent each poll looks again. An event's id is made
 * when its transaction writes it, but it becomes visible only at commit: a transaction that
 * started earlier may commit after a later one. Events are at most this late (a transaction
 * running 30 s, or clocks of server processes 30 s apart, would be needed to miss one).
 */
export const LOOKBACK_MS = 30 * SECOND;
const PAGE = 500;
/** At most this many events are read in one poll; the rest come with the next. */
const MAX_PER_POLL = 5000;

export interface FeedEvent {
  id: string;
  type: string;
  /** The event's JSON exactly as webhooks deliver it (to be signed byte for byte). */
  payload: string;
}

export interface Feed {
  /** Where this feed starts: the `id` of the stream's `ready` message (an event id or a floor cursor). */
  cursor: string;
  /** The Last-Event-ID resumed after, if any. */
  resumedAfter: string | null;
  /** Events committed since the previous poll (or missed before a reconnect), oldest id first, each once. */
  poll(): Promise<FeedEvent[]>;
}

export interface FeedOptions {
  types?: readonly EventType[];
  /**
   * Resume after this position (SSE Last-Event-ID): an event id already received, or the floor
   * cursor of a `ready` message. Absent: from now.
   */
  lastEventId?: string;
}

/**
 * The event feed behind `GET /listen/stream` (docs/spec/running.md, `caisse listen`): this merchant's
 * events of one mode, as they commit. Nothing committed after the feed's start is skipped, even
 * when transactions commit out of id order; after a reconnect with Last-Event-ID, every event
 * after that id comes again, plus possibly some just before it (the client drops ids it has
 * seen, as webhook receivers do).
 */
export function createListenService(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, collaborators: { events?: Pick<EventsService, 'idsAfter' | 'payloads'> } = {}) {
  const events = collaborators.events ?? createEventsService(deps);
  function openFeed(owner: { merchantId: string; mode: 'test' | 'live' }, opts: FeedOptions = {}): Feed {
    const types = opts.types !== undefined && opts.types.length > 0 ? [...opts.types] : undefined;
    const last = opts.lastEventId;
    // Events before `floor` are never sent; `newest` is the time of the newest event sent.
    let floor: string;
    let newest: number;
    const sent = new Map<string, number>();
    if (last === undefined) {
      newest = deps.clock.now().getTime();
      floor = eventIdFloor(newest);
    } else if (isFloor(last)) {
      newest = eventIdTime(last);
      floor = last;
    } else {
      newest = eventIdTime(last);
      floor = eventIdFloor(newest - LOOKBACK_MS);
      sent.set(last, newest);
    }
    const cursor = last ?? floor;

    async function poll(): Promise<FeedEvent[]> {
      const windowStart = eventIdFloor(newest - LOOKBACK_MS);
      // A floor cursor is never the id of a real event (80 zero random bits): `>` loses nothing.
      let after = windowStart > floor ? windowStart : floor;
      const fresh: string[] = [];
      for (let read = 0; read < MAX_PER_POLL; read += PAGE) {
        const ids = await events.idsAfter(owner, after, types, PAGE);
        for (const id of ids) if (!sent.has(id)) fresh.push(id);
        if (ids.length < PAGE) break;
        after = ids[ids.length - 1] as string;
      }
      const rows = await events.payloads(fresh);
      for (const row of rows) {
        const at = eventIdTime(row.id);
        sent.set(row.id, at);
        if (at > newest) newest = at;
      }
      // Ids older than the window are never read again: forget them.
      const oldest = newest - LOOKBACK_MS;
      for (const [id, at] of sent) if (at < oldest) sent.delete(id);
      return rows;
    }

    return { cursor, resumedAfter: last ?? null, poll };
  }

  return { openFeed };
}

export type ListenService = ReturnType<typeof createListenService>;
