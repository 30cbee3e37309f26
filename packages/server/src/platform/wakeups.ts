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
 *
 * On PGlite everything stays in this process (PGlite is single-process). When the LISTEN
 * connection to PostgreSQL is lost and made again, subscribers hear `reset`: what was broadcast
 * meanwhile may have been missed.
 */
export type WakeChannel = 'webhooks' | 'api_keys' | 'user_tokens';

export type Subscriber = (message: { payload: string } | { reset: true }) => void;

export interface Wakeups {
  subscribe(channel: WakeChannel, fn: Subscriber): () => void;
  wake(channel: WakeChannel): void;
  broadcast(channel: WakeChannel, payload: string): Promise<void>;
  /** Resolves once the LISTEN connections asked for so far are in place (or have failed). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const PG_CHANNEL_PREFIX = 'caisse_';
const RECONNECT_MS = 1000;

export function createWakeups(database: Pick<OpenedDb, 'kind' | 'notify' | 'listen'>, log?: (err: unknown, what: string) => void): Wakeups {
  const subscribers = new Map<WakeChannel, Set<Subscriber>>();
  const listening = new Map<WakeChannel, Promise<void>>();
  const sending = new Map<WakeChannel, { again: boolean }>();
  const closers: (() => Promise<void>)[] = [];
  let closed = false;
  const remote = database.kind === 'postgres' && database.notify !== undefined && database.listen !== undefined;

  function deliver(channel: WakeChannel, message: Parameters<Subscriber>[0]) {
    for (const fn of subscribers.get(channel) ?? []) {
      try {
        fn(message);
      } catch (err) {
        log?.(err, `a ${channel} subscriber failed`);
      }
    }
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
          (payload) => deliver(channel, { payload }),
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
