import { type ColumnType, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db.ts';
import { fieldsOf, prepareByFields } from '../../platform/prepared.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export type ChargeStatus = 'succeeded' | 'failed';

export interface ChargesTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  user_id: string;
  status: ChargeStatus;
  amount_minor: bigint;
  currency: string;
  failure_code: string | null;
  failure_message: string | null;
  transfer_id: string | null;
  /** The fee the platform took (0 for a declined attempt). */
  fee_minor: ColumnType<bigint, bigint | undefined, bigint>;
  created_at: Date;
}

export interface RefundsTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  intent_id: string;
  charge_id: string;
  amount_minor: bigint;
  currency: string;
  reason: string | null;
  transfer_id: string;
  /** The part of the payment's fee this refund returned to the merchant's balance. */
  fee_returned_minor: ColumnType<bigint, bigint | undefined, bigint>;
  created_at: Date;
}

/** Charge attempts per merchant, mode, hour and currency: the overview's rollup (migration 0024). */
export interface ChargeStatsHourlyTable {
  merchant_id: string;
  mode: KeyMode;
  hour: Date;
  currency: string;
  succeeded: bigint;
  failed: bigint;
  volume_minor: bigint;
  new_customers: bigint;
}

export interface ChargeFirstPaymentsTable {
  merchant_id: string;
  mode: KeyMode;
  user_id: string;
  first_paid_at: Date;
  currency: string;
}

export interface ChargeRollupStateTable {
  id: boolean;
  rolled_until: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    charges: ChargesTable;
    refunds: RefundsTable;
    charge_stats_hourly: ChargeStatsHourlyTable;
    charge_first_payments: ChargeFirstPaymentsTable;
    charge_rollup_state: ChargeRollupStateTable;
  }
}

/** One hour's figures of one currency; `hour` counts hours since 1970 (UTC, whatever the session's time zone). */
export interface HourFigures {
  hour: number;
  currency: string;
  succeeded: number;
  failed: number;
  volume: bigint;
  newCustomers: number;
}

/** Charges created in [from, to), found through the primary key (ids sort by creation time). */
interface ChargeWindow {
  from: Date;
  to: Date;
  /** The smallest charge id of a minute before `from` and of a minute after `to`: ids and created_at come from two reads of the clock. */
  idFrom: string;
  idTo: string;
}

const epochHour = (column: string) => sql<string>`floor(extract(epoch from ${sql.ref(column)}) / 3600)::bigint::text`;

export type ChargeRow = Selectable<ChargesTable>;
export type RefundRow = Selectable<RefundsTable>;

// On every charge: compiled once (platform/prepared.ts). Nobody reads its answer: it rides with
// the charge's next statement.
const insertChargeRow = prepareByFields((db, p: Insertable<ChargesTable>, fields) => db.insertInto('charges').values(fieldsOf(p, fields)), { deferred: true });

export const chargesRepository = {
  async insertCharge(tx: Tx, row: Insertable<ChargesTable>): Promise<void> {
    await insertChargeRow(row).execute(tx, row);
  },

  /** The charge that paid the intent, if any (there is at most one). */
  async findSucceeded(db: Executor, intentId: string): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('intent_id', '=', intentId).where('status', '=', 'succeeded').executeTakeFirst();
  },

  async listCharges(db: Executor, intentId: string): Promise<ChargeRow[]> {
    return db.selectFrom('charges').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },

  /** Succeeded charges of these customers to one merchant and mode, per customer and currency. */
  async statsByCustomer(db: Executor, merchantId: string, mode: KeyMode, userIds: readonly string[]) {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('charges')
      .select((eb) => [
        'user_id',
        'currency',
        eb.fn.min('created_at').as('first_at'),
        eb.fn.max('created_at').as('last_at'),
        eb.fn.countAll<string>().as('count'),
        eb.fn.sum<string>('amount_minor').as('volume'),
      ])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('status', '=', 'succeeded')
      .where('user_id', 'in', [...userIds])
      .groupBy(['user_id', 'currency'])
      .execute();
  },

  /** A customer's charge attempts at one merchant and mode, newest first. */
  async listForCustomer(db: Executor, merchantId: string, mode: KeyMode, userId: string, limit: number): Promise<ChargeRow[]> {
    return db
      .selectFrom('charges')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Who last tried to pay the intent (its latest charge, succeeded or not). */
  async lastPayer(db: Executor, intentId: string): Promise<string | undefined> {
    const row = await db.selectFrom('charges').select('user_id').where('intent_id', '=', intentId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row?.user_id;
  },

  /** The declined charges of one customer on one intent (issue 20: attempts count per intent and customer). */
  async countDeclined(tx: Tx, intentId: string, userId: string): Promise<number> {
    const row = await tx
      .selectFrom('charges')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('intent_id', '=', intentId)
      .where('user_id', '=', userId)
      .where('status', '=', 'failed')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertRefund(tx: Tx, row: Insertable<RefundsTable>): Promise<RefundRow> {
    return tx.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async listRefunds(db: Executor, intentId: string): Promise<RefundRow[]> {
    return db.selectFrom('refunds').selectAll().where('intent_id', '=', intentId).orderBy('id').execute();
  },

  // ---- the overview's rollup (migration 0024) ----------------------------------------------

  /** Where the rollup is, its one row locked for this transaction. */
  async lockRollupState(tx: Tx): Promise<Date | null> {
    const row = await tx.selectFrom('charge_rollup_state').select('rolled_until').where('id', '=', true).forUpdate().executeTakeFirstOrThrow();
    return row.rolled_until;
  },

  async readRollupState(db: Executor): Promise<Date | null> {
    const row = await db.selectFrom('charge_rollup_state').select('rolled_until').where('id', '=', true).executeTakeFirst();
    return row?.rolled_until ?? null;
  },

  async setRolledUntil(tx: Tx, at: Date): Promise<void> {
    await tx.updateTable('charge_rollup_state').set({ rolled_until: at }).where('id', '=', true).execute();
  },

  /** When the first charge at or after the id `idFrom` was made (the oldest through the primary key). */
  async firstChargeAt(db: Executor, idFrom: string): Promise<Date | undefined> {
    const row = await db.selectFrom('charges').select('created_at').where('id', '>=', idFrom).orderBy('id').limit(1).executeTakeFirst();
    return row?.created_at;
  },

  /**
   * Rolls one closed hour of every merchant up in one statement: its customers' first payments
   * (those not already recorded) and its figures per merchant, mode and currency. Returns the
   * rows written. The caller holds the rollup state's lock, so an hour is rolled once.
   */
  async rollUpHour(tx: Tx, w: ChargeWindow): Promise<number> {
    const result = await sql`
      with hour_charges as (
        select merchant_id, mode, user_id, currency, status, amount_minor, created_at from charges
        where id >= ${w.idFrom} and id < ${w.idTo} and created_at >= ${w.from} and created_at < ${w.to}
      ), firsts as (
        insert into charge_first_payments (merchant_id, mode, user_id, first_paid_at, currency)
        select distinct on (merchant_id, mode, user_id) merchant_id, mode, user_id, created_at, currency
        from hour_charges where status = 'succeeded'
        order by merchant_id, mode, user_id, created_at
        on conflict do nothing
        returning merchant_id, mode, currency
      )
      insert into charge_stats_hourly (merchant_id, mode, hour, currency, succeeded, failed, volume_minor, new_customers)
      select s.merchant_id, s.mode, ${w.from}, s.currency, s.succeeded, s.failed, s.volume, coalesce(f.n, 0)
      from (
        select merchant_id, mode, currency,
          count(*) filter (where status = 'succeeded') as succeeded,
          count(*) filter (where status = 'failed') as failed,
          coalesce(sum(amount_minor) filter (where status = 'succeeded'), 0) as volume
        from hour_charges group by merchant_id, mode, currency
      ) s
      left join (select merchant_id, mode, currency, count(*) as n from firsts group by merchant_id, mode, currency) f
        on f.merchant_id = s.merchant_id and f.mode = s.mode and f.currency = s.currency`.execute(tx);
    return Number(result.numAffectedRows ?? 0n);
  },

  /** The rolled-up hours of one merchant and mode in [from, to). */
  async rolledHours(db: Executor, merchantId: string, mode: KeyMode, from: Date, to: Date): Promise<HourFigures[]> {
    if (from >= to) return [];
    const rows = await db
      .selectFrom('charge_stats_hourly')
      .select([epochHour('hour').as('hour'), 'currency', 'succeeded', 'failed', 'volume_minor', 'new_customers'])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('hour', '>=', from)
      .where('hour', '<', to)
      .execute();
    return rows.map((r) => ({
      hour: Number(r.hour),
      currency: r.currency,
      succeeded: Number(r.succeeded),
      failed: Number(r.failed),
      volume: BigInt(r.volume_minor),
      newCustomers: Number(r.new_customers),
    }));
  },

  /**
   * The same figures read live from the charges of [from, to) (the open hour, and any hour the
   * rollup has not reached). A customer is new when not in charge_first_payments before `from`
   * and, when the rollup is behind `from` (`rolledUntil` earlier or null), with no successful
   * payment to the merchant between the two either (charges_payer).
   */
  async liveHours(db: Executor, merchantId: string, mode: KeyMode, w: ChargeWindow, rolledUntil: Date | null): Promise<HourFigures[]> {
    if (w.from >= w.to) return [];
    const scoped = db
      .selectFrom('charges')
      .where('id', '>=', w.idFrom)
      .where('id', '<', w.idTo)
      .where('created_at', '>=', w.from)
      .where('created_at', '<', w.to)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode);
    const [sums, firsts] = await Promise.all([
      scoped
        .select([
          epochHour('created_at').as('hour'),
          'currency',
          sql<string>`count(*) filter (where status = 'succeeded')`.as('succeeded'),
          sql<string>`count(*) filter (where status = 'failed')`.as('failed'),
          sql<string>`coalesce(sum(amount_minor) filter (where status = 'succeeded'), 0)`.as('volume'),
        ])
        .groupBy([sql`1`, 'currency'])
        .execute(),
      db
        .selectFrom(
          scoped
            .where('status', '=', 'succeeded')
            .distinctOn('user_id')
            .select(['user_id', 'created_at', 'currency'])
            .orderBy('user_id')
            .orderBy('created_at')
            .as('f'),
        )
        // Scalar subqueries, run once per customer through a primary key or charges_payer: as
        // NOT EXISTS the planner may join the whole table instead when its statistics are stale.
        .where(
          sql<boolean>`coalesce((select p.first_paid_at from charge_first_payments p where p.merchant_id = ${merchantId} and p.mode = ${mode} and p.user_id = f.user_id), 'infinity'::timestamptz) >= ${w.from}`,
        )
        .$if(rolledUntil === null || rolledUntil < w.from, (q) =>
          q.where(
            sql<boolean>`(select 1 from charges e where e.merchant_id = ${merchantId} and e.mode = ${mode} and e.user_id = f.user_id and e.status = 'succeeded' and e.created_at >= ${rolledUntil ?? new Date(0)} and e.created_at < ${w.from} limit 1) is null`,
          ),
        )
        .select((eb) => [epochHour('f.created_at').as('hour'), 'f.currency', eb.fn.countAll<string>().as('n')])
        .groupBy([sql`1`, 'f.currency'])
        .execute(),
    ]);
    const byKey = new Map<string, HourFigures>();
    for (const r of sums) {
      byKey.set(`${r.hour}:${r.currency}`, {
        hour: Number(r.hour),
        currency: r.currency,
        succeeded: Number(r.succeeded),
        failed: Number(r.failed),
        volume: BigInt(r.volume),
        newCustomers: 0,
      });
    }
    for (const r of firsts) {
      const row = byKey.get(`${r.hour}:${r.currency}`);
      if (row) row.newCustomers = Number(r.n);
    }
    return [...byKey.values()];
  },

  /** The intents these customers paid (or tried to pay) to one merchant and mode, newest charge first. */
  async intentsOfPayers(db: Executor, merchantId: string, mode: KeyMode, userIds: readonly string[], limit: number): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await db
      .selectFrom('charges')
      .select(['intent_id', 'id'])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('user_id', 'in', [...userIds])
      .orderBy('id', 'desc')
      .limit(limit * 3)
      .execute();
    return [...new Set(rows.map((r) => r.intent_id))].slice(0, limit);
  },
};
