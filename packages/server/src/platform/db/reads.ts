/**
 * Reads beyond one database (docs/scaling.md, decision 0091): the dashboard's heavy reads go to a
 * streaming replica of the primary (DATABASE_READ_URL) while it keeps up, and to the primary
 * otherwise. Money decisions never come here: they read in their own transaction on the primary.
 *
 * Where a read goes, decided each time a read path asks (`readExecutor`):
 * - outside `onReplica` (the dashboard's read routes open it), always the primary;
 * - the replica only while its last probe found it a standby that had replayed what the primary
 *   had written at some instant `caughtUpTo` no more than `maxLagMs` ago;
 * - read-your-writes: a merchant whose dashboard wrote at `t` reads from the primary until a
 *   probe shows the replica caught up to an instant after `t` (the primary's WAL position is read
 *   at each probe, after the write's commit, and compared with the replica's replay position);
 * - a read the replica fails runs again on the primary, and the replica counts as down until a
 *   probe finds it back: the person sees an answer, never the replica's error.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
} from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { Database } from '../database.ts';
import { isDatabaseUnavailable } from '../db-unavailable.ts';
import type { Db, Executor } from './dialect.ts';

/** `up`: reads may go there; anything else sends them to the primary. */
export type ReplicaState = 'starting' | 'up' | 'lagging' | 'down' | 'not_replica';

/** Why a read went to the primary: the replica's state, or the merchant's own recent write. */
export type PrimaryReason = Exclude<ReplicaState, 'up'> | 'wrote';

export interface ReplicaPosition {
  /** pg_is_in_recovery(): false once promoted (or never a standby), and then never read from. */
  inRecovery: boolean;
  /** pg_last_wal_replay_lsn(), as a number. */
  replayLsn: bigint | null;
}

/** What a probe asks each server; tests give their own. */
export interface ReplicaProbe {
  /** The primary's current WAL position (pg_current_wal_lsn()). */
  primaryLsn(): Promise<bigint>;
  replica(): Promise<ReplicaPosition>;
}

/** Where lines about the replica go (a pino logger fits). */
export interface ReadsLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ReadRouter {
  readonly primary: Db;
  /** The executor for a read of `merchantId`'s now: the replica (the primary behind it) or the primary. */
  executorFor(merchantId: string): Executor;
  /** The merchant's dashboard wrote: its reads go to the primary until the replica has it. */
  wrote(merchantId: string): void;
  /** Reads the primary's and the replica's positions once (a timer calls it; tests call it). */
  probe(): Promise<void>;
  status(): ReadStatus;
  /** Probes every `probeEveryMs` until `close()`. */
  start(): void;
  close(): void;
}

export interface ReadStatus {
  state: ReplicaState;
  /** How far behind the primary the replica was at its last probe, in ms (undefined before one). */
  lagMs: number | undefined;
  /** Read paths sent to the replica, and to the primary by reason. */
  reads: { replica: number } & Record<PrimaryReason, number>;
  /** Queries the replica failed that the primary answered. */
  failedOver: number;
}

/** An LSN as PostgreSQL writes it (`16/B374D848`), as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  if (high === undefined || low === undefined) throw new Error(`not an LSN: ${text}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The probe of two real servers: the primary's WAL position first, then the replica's. */
export function sqlProbe(primary: Db, replica: Db): ReplicaProbe {
  return {
    async primaryLsn() {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
      return parseLsn((rows[0] as { lsn: string }).lsn);
    },
    async replica() {
      const { rows } = await sql<{ r: boolean; lsn: string | null }>`select pg_is_in_recovery() as r, pg_last_wal_replay_lsn()::text as lsn`.execute(replica);
      const row = rows[0] as { r: boolean; lsn: string | null };
      return { inRecovery: row.r, replayLsn: row.lsn === null ? null : parseLsn(row.lsn) };
    },
  };
}

/** A driver whose every query runs through `run`, and which opens no transaction. */
class DelegatingDriver implements Driver {
  constructor(private readonly run: (query: CompiledQuery) => Promise<QueryResult<unknown>>) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const run = this.run;
    return {
      executeQuery: <R>(query: CompiledQuery) => run(query) as Promise<QueryResult<R>>,
      streamQuery: () => {
        throw new Error('the read executor does not stream: page through the rows');
      },
    };
  }
  async beginTransaction(): Promise<void> {
    throw new Error('the read executor runs no transaction: what writes, or decides on money, uses the primary');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

const PROBE_EVERY_MS = 1000;
/** Primary positions kept: enough to place a replica up to twice the bound behind. */
const MAX_SAMPLES = 1000;

export function createReadRouter(o: {
  primary: Db;
  replica: Db;
  clock: Clock;
  maxLagMs: number;
  probe?: ReplicaProbe;
  log?: ReadsLog;
  probeEveryMs?: number;
}): ReadRouter {
  const { primary, replica, clock, maxLagMs } = o;
  const probe = o.probe ?? sqlProbe(primary, replica);
  const probeEveryMs = o.probeEveryMs ?? PROBE_EVERY_MS;
  const samples: { at: number; lsn: bigint }[] = [];
  let caughtUpTo: number | undefined;
  let state: ReplicaState = 'starting';
  let probing = false;
  let timer: NodeJS.Timeout | undefined;
  const lastWrites = new Map<string, number>();
  const reads: ReadStatus['reads'] = { replica: 0, starting: 0, lagging: 0, down: 0, not_replica: 0, wrote: 0 };
  let failedOver = 0;

  const now = () => clock.now().getTime();
  const lagMs = () => (caughtUpTo === undefined ? undefined : Math.max(0, now() - caughtUpTo));

  function become(next: ReplicaState, detail: object = {}): void {
    if (next === state) return;
    const was = state;
    state = next;
    if (next === 'up') o.log?.info({ was, lagMs: lagMs() }, 'read replica in use again: dashboard reads go to DATABASE_READ_URL');
    else o.log?.warn({ was, state: next, lagMs: lagMs(), ...detail }, `read replica ${next.replace('_', ' ')}: dashboard reads go to the primary`);
  }

  /** The replica's query; on its failure the primary's, and the replica is down until a probe finds it back. */
  async function run(query: CompiledQuery): Promise<QueryResult<unknown>> {
    try {
      return await replica.executeQuery(query);
    } catch (err) {
      failedOver += 1;
      if (isDatabaseUnavailable(err)) become('down', { err: (err as Error).message });
      else o.log?.warn({ err: (err as Error).message }, 'a read on the replica failed: answered by the primary');
      return primary.executeQuery(query);
    }
  }
  const viaReplica: Db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DelegatingDriver(run),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });

  const router: ReadRouter = {
    primary,
    executorFor(merchantId) {
      let reason: PrimaryReason | undefined;
      const lag = lagMs();
      if (state !== 'up') reason = state;
      // Between probes too: a replica whose probe hangs falls behind the bound by itself.
      else if (lag === undefined || lag > maxLagMs) reason = 'lagging';
      else if ((lastWrites.get(merchantId) ?? -Infinity) >= (caughtUpTo as number)) reason = 'wrote';
      if (reason === undefined) {
        reads.replica += 1;
        return viaReplica;
      }
      reads[reason] += 1;
      return primary;
    },
    wrote(merchantId) {
      lastWrites.set(merchantId, now());
    },
    async probe() {
      if (probing) return;
      probing = true;
      try {
        // The instant first, then the primary's position: whatever committed before `at` is in it.
        const at = now();
        let lsn: bigint;
        try {
          lsn = await probe.primaryLsn();
        } catch {
          // No primary to compare with: the replica's lag grows past the bound by itself.
          return;
        }
        samples.push({ at, lsn });
        while (samples.length > MAX_SAMPLES || (samples.length > 1 && (samples[0] as { at: number }).at < at - 2 * maxLagMs)) samples.shift();
        let position: ReplicaPosition;
        try {
          position = await probe.replica();
        } catch (err) {
          become('down', { err: (err as Error).message });
          return;
        }
        const replayed = position.replayLsn;
        if (!position.inRecovery || replayed === null) {
          become('not_replica');
          return;
        }
        for (let i = samples.length - 1; i >= 0; i--) {
          const s = samples[i] as { at: number; lsn: bigint };
          if (s.lsn <= replayed) {
            if (caughtUpTo === undefined || s.at > caughtUpTo) caughtUpTo = s.at;
            break;
          }
        }
        // A merchant's write the replica has now is no longer a reason to read from the primary.
        for (const [merchantId, t] of lastWrites) if (caughtUpTo !== undefined && t < caughtUpTo) lastWrites.delete(merchantId);
        const lag = lagMs();
        become(lag !== undefined && lag <= maxLagMs ? 'up' : 'lagging');
      } finally {
        probing = false;
      }
    },
    status: () => ({ state, lagMs: lagMs(), reads: { ...reads }, failedOver }),
    start() {
      if (timer) return;
      void router.probe();
      timer = setInterval(() => void router.probe(), probeEveryMs);
      timer.unref();
    },
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return router;
}

const scope = new AsyncLocalStorage<{ router: ReadRouter; merchantId: string }>();

/**
 * Runs `fn`, a dashboard read of `merchantId`'s, where the read paths it reaches may be answered
 * by the replica (`readExecutor`). Without a router (no DATABASE_READ_URL), just runs it.
 */
export function onReplica<T>(router: ReadRouter | undefined, merchantId: string, fn: () => T): T {
  return router === undefined ? fn() : scope.run({ router, merchantId }, fn);
}

/**
 * What a read path reads through instead of `db`: inside `onReplica`, the replica when the rules
 * allow it; everywhere else (the API, workers, money decisions), `db` itself.
 */
export function readExecutor(db: Db): Executor {
  const current = scope.getStore();
  if (current === undefined || current.router.primary !== db) return db;
  return current.router.executorFor(current.merchantId);
}

/**
 * `caisse_replica_up` (1 while dashboard reads may go to the replica), `caisse_replica_lag_seconds`
 * (at the last probe), `caisse_dashboard_reads_total{target, reason}` and
 * `caisse_replica_reads_failed_over_total`, read from the router when scraped.
 */
export function registerReadMetrics(registry: Registry, router: ReadRouter): void {
  new Gauge({
    name: 'caisse_replica_up',
    help: 'Whether dashboard reads may go to the read replica (DATABASE_READ_URL): 1 when it answers as a standby within the lag bound',
    registers: [registry],
    collect() {
      this.set(router.status().state === 'up' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'caisse_replica_lag_seconds',
    help: "How far the read replica was behind the primary at its last probe (the primary's WAL position it had replayed, as time)",
    registers: [registry],
    collect() {
      const lag = router.status().lagMs;
      if (lag === undefined) this.reset();
      else this.set(lag / 1000);
    },
  });
  new Counter({
    name: 'caisse_dashboard_reads_total',
    help: 'Dashboard read paths by where they went: the replica, or the primary and why (starting, lagging, down, not_replica, wrote)',
    labelNames: ['target', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const { replica, ...primary } = router.status().reads;
      this.inc({ target: 'replica', reason: 'ok' }, replica);
      for (const [reason, n] of Object.entries(primary)) this.inc({ target: 'primary', reason }, n);
    },
  });
  new Counter({
    name: 'caisse_replica_reads_failed_over_total',
    help: 'Queries the read replica failed that the primary then answered',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(router.status().failedOver);
    },
  });
}
