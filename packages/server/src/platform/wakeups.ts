import type { OpenedDb } from './db.ts';

/**
 * Wake-ups between the parts of Caisse, in this process and across processes.
 *
 * - `wake(channel)`: "there is work": the webhook dispatcher is woken the moment a transaction that
 *   recorded an event has committed, instead of at its next poll. Subscribers in this process are
 *   called at once; when none listens here (an API process of `caisse start --workers`, whose
 *   dispatcher runs in another process) the wake-up goes to the other processes through
 *   PostgreSQL's NOTIFY, sent after the commit and outside the business transaction (a NOTIFY
 *   inside it would serialise every charge's commit on PostgreSQL's notification lock), and
 *   coalesced: at most one in flight per channel. A lost wake-up only costs latency: the
 *   dispatcher still polls.
 * - `broadcast(channel, payload)`: "forget what you know": every subscriber of every process hears
 *   it (an API key revoked, rolled or given other origins drops out of every process's key cache;
 *   a customer's password changed, their token version out of every process's cache).
 * - `publish(channel, item)`: "this changed", many times a second: every subscriber of every
 *   process hears `item` (an intent whose status changed, for the payers waiting on it). Heard
 *   here at once; to the others, batched into one NOTIFY (items joined by commas, at most one
 *   NOTIFY in flight per channel) and never heard twice by the process that published it.
 *
 * On PGlite everything stays in this process (PGlite is single-process). When the LISTEN
 * connection to PostgreSQL is lost and made again, subscribers hear `reset`: what was broadcast
 * meanwhile may have been missed.
 */
export type WakeChannel = 'webhooks' | 'api_keys' | 'user_tokens' | 'intent_status';

export type Subscriber = (message: { payload: string } | { reset: true }) => void;

export interface Wakeups {
  subscribe(channel: WakeChannel, fn: Subscriber): () => void;
  wake(channel: WakeChannel): void;
  broadcast(channel: WakeChannel, payload: string): Promise<void>;
  /** `item` must hold no comma; a subscriber hears `{ payload: item }` once per item. */
  publish(channel: WakeChannel, item: string): void;
  /** Resolves once the LISTEN connections asked for so far are in place (or have failed). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const PG_CHANNEL_PREFIX = 'caisse_';
/** The channels whose NOTIFY payloads are batches of `publish`. */
const publishedChannels = new Set<WakeChannel>(['intent_status']);
const RECONNECT_MS = 1000;
/** NOTIFY's payload limit is 8000 bytes: a batch stays under it, the rest goes in the next. */
const MAX_BATCH_BYTES = 7000;

export function createWakeups(database: Pick<OpenedDb, 'kind' | 'notify' | 'listen'>, log?: (err: unknown, what: string) => void): Wakeups {
  const subscribers = new Map<WakeChannel, Set<Subscriber>>();
  const listening = new Map<WakeChannel, Promise<void>>();
  const sending = new Map<WakeChannel, { again: boolean }>();
  const closers: (() => Promise<void>)[] = [];
  let closed = false;
  const remote = database.kind === 'postgres' && database.notify !== undefined && database.listen !== undefined;
  /** Marks this process's published batches, so that their echo from PostgreSQL is dropped. */
  const origin = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  const outbox = new Map<WakeChannel, string[]>();
  const publishing = new Set<WakeChannel>();

  function deliver(channel: WakeChannel, message: Parameters<Subscriber>[0]) {
    for (const fn of subscribers.get(channel) ?? []) {
      try {
        fn(message);
      } catch (err) {
        log?.(err, `a ${channel} subscriber failed`);
      }
    }
  }

  /** A batch of `publish` (`origin|a,b,c`) comes apart into its items; other payloads go whole. */
  function receive(channel: WakeChannel, payload: string): void {
    if (!publishedChannels.has(channel)) return deliver(channel, { payload });
    const bar = payload.indexOf('|');
    if (bar < 0 || payload.slice(0, bar) === origin) return;
    for (const item of payload.slice(bar + 1).split(',')) if (item !== '') deliver(channel, { payload: item });
  }

  /** Sends what was published meanwhile, one NOTIFY after another, until nothing is left. */
  function sendPublished(channel: WakeChannel): void {
    const items = outbox.get(channel) ?? [];
    if (items.length === 0 || closed) {
      publishing.delete(channel);
      return;
    }
    publishing.add(channel);
    let bytes = 0;
    let n = 0;
    while (n < items.length && bytes + (items[n] as string).length + 1 <= MAX_BATCH_BYTES) bytes += (items[n++] as string).length + 1;
    const batch = items.splice(0, Math.max(n, 1));
    database.notify!(PG_CHANNEL_PREFIX + channel, `${origin}|${batch.join(',')}`).then(
      () => sendPublished(channel),
      (err) => {
        log?.(err, `could not NOTIFY ${channel}`);
        sendPublished(channel);
      },
    );
  }

  /** One LISTEN connection per channel, made again after a loss (subscribers then hear `reset`). */
  function listen(channel: WakeChannel): void {
    if (!remote || listening.has(channel)) return;
    let lost = false;
    const connect = async (): Promise<void> => {
      if (closed) return;
      try {
        const handle = await database.listen!(
          PG_CHANNEL_PREFIX + channel,
          (payload) => receive(channel, payload),
          () => {
            if (closed || lost) return;
            lost = true;
            setTimeout(() => void connect(), RECONNECT_MS).unref();
          },
        );
        closers.push(handle.close);
        if (lost) {
          lost = false;
          deliver(channel, { reset: true });
        }
      } catch (err) {
        log?.(err, `could not LISTEN on ${channel}; trying again`);
        lost = true;
        setTimeout(() => void connect(), RECONNECT_MS).unref();
      }
    };
    listening.set(channel, connect());
  }

  /** NOTIFY, at most one in flight per channel; one more after it when asked meanwhile. */
  function sendWake(channel: WakeChannel): void {
    const state = sending.get(channel);
    if (state) {
      state.again = true;
      return;
    }
    const mine = { again: false };
    sending.set(channel, mine);
    const send = (): void => {
      database.notify!(PG_CHANNEL_PREFIX + channel, '').then(
        () => {
          if (mine.again && !closed) {
            mine.again = false;
            send();
          } else sending.delete(channel);
        },
        (err) => {
          sending.delete(channel);
          log?.(err, `could not NOTIFY ${channel}`);
        },
      );
    };
    send();
  }

  return {
    subscribe(channel, fn) {
      let set = subscribers.get(channel);
      if (!set) {
        set = new Set();
        subscribers.set(channel, set);
      }
      set.add(fn);
      listen(channel);
      return () => set.delete(fn);
    },

    wake(channel) {
      if (closed) return;
      if ((subscribers.get(channel)?.size ?? 0) > 0) queueMicrotask(() => deliver(channel, { payload: '' }));
      else if (remote) sendWake(channel);
    },

    async broadcast(channel, payload) {
      deliver(channel, { payload });
      if (remote && !closed) await database.notify!(PG_CHANNEL_PREFIX + channel, payload);
    },

    publish(channel, item) {
      if (closed) return;
      deliver(channel, { payload: item });
      if (!remote) return;
      const items = outbox.get(channel);
      if (items) items.push(item);
      else outbox.set(channel, [item]);
      if (!publishing.has(channel)) sendPublished(channel);
    },

    async ready() {
      await Promise.allSettled([...listening.values()]);
    },

    async close() {
      closed = true;
      await Promise.allSettled([...listening.values()]);
      await Promise.allSettled(closers.map((c) => c()));
    },
  };
}
