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

/**
 * Every payment decided in the window, whatever the method or connector, as one row each
 * (merchant_id, mode, payer, currency, status 'succeeded' | 'failed', amount_minor, decided_at): the
 * wallet's charges (the payer their user id) and the provider attempts (the payer their number),
 * at the time each was decided. A late attempt (paid after its intent could take it, returned to
 * the payer) is not a payment of the merchant.
 */
function paymentsIn(w: ChargeWindow, only?: { merchantId: string; mode: KeyMode }) {
  const of = (t: string) => (only ? sql`and ${sql.ref(`${t}.merchant_id`)} = ${only.merchantId} and ${sql.ref(`${t}.mode`)} = ${only.mode}` : sql``);
  return sql`
    select merchant_id, mode, user_id as payer, currency, status, amount_minor, created_at as decided_at from charges c
    where c.id >= ${w.idFrom} and c.id < ${w.idTo} and c.created_at >= ${w.from} and c.created_at < ${w.to} ${of('c')}
    union all
    select merchant_id, mode, phone_number, currency, case a.status when 'SUCCEEDED' then 'succeeded' else 'failed' end, amount_minor, completed_at
    from payment_attempts a
    where a.completed_at >= ${w.from} and a.completed_at < ${w.to} and a.status in ('SUCCEEDED', 'FAILED') and not a.late ${of('a')}`;
}

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

  /** Who paid each of these intents by wallet, or last tried to (charges_intent). */
  async payersOfIntents(db: Executor, intentIds: readonly string[]): Promise<{ intent_id: string; user_id: string }[]> {
    if (intentIds.length === 0) return [];
    return db
      .selectFrom('charges')
      .distinctOn('intent_id')
      .select(['intent_id', 'user_id'])
      .where('intent_id', 'in', [...intentIds])
      .orderBy('intent_id')
      .orderBy(sql`status = 'succeeded'`, 'desc')
      .orderBy('id', 'desc')
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

  /** When the first payment was decided: the oldest charge at or after the id `idFrom` (through the primary key), or the oldest decided attempt. */
  async firstPaymentAt(db: Executor, idFrom: string): Promise<Date | undefined> {
    const [charge, attempt] = await Promise.all([
      db.selectFrom('charges').select('created_at').where('id', '>=', idFrom).orderBy('id').limit(1).executeTakeFirst(),
      db.selectFrom('payment_attempts').select('completed_at').where('completed_at', 'is not', null).orderBy('completed_at').limit(1).executeTakeFirst(),
    ]);
    const times = [charge?.created_at, attempt?.completed_at ?? undefined].filter((t): t is Date => t !== undefined);
    return times.length === 0 ? undefined : new Date(Math.min(...times.map((t) => t.getTime())));
  },

  /**
   * Rolls one closed hour of every merchant up in one statement: its payers' first payments
   * (those not already recorded) and its figures per merchant, mode and currency. Returns the
   * rows written. The caller holds the rollup state's lock, so an hour is rolled once.
   */
  async rollUpHour(tx: Tx, w: ChargeWindow): Promise<number> {
    const result = await sql`
      with hour_payments as (${paymentsIn(w)}), firsts as (
        insert into charge_first_payments (merchant_id, mode, user_id, first_paid_at, currency)
        select distinct on (merchant_id, mode, payer) merchant_id, mode, payer, decided_at, currency
        from hour_payments where status = 'succeeded'
        order by merchant_id, mode, payer, decided_at
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
        from hour_payments group by merchant_id, mode, currency
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
   * The same figures read live from the payments of [from, to) (the open hour, and any hour the
   * rollup has not reached). A payer is new when not in charge_first_payments before `from`
   * and, when the rollup is behind `from` (`rolledUntil` earlier or null), with no successful
   * payment to the merchant between the two either (charges_payer; the attempts decided then).
   */
  async liveHours(db: Executor, merchantId: string, mode: KeyMode, w: ChargeWindow, rolledUntil: Date | null): Promise<HourFigures[]> {
    if (w.from >= w.to) return [];
    const payments = paymentsIn(w, { merchantId, mode });
    const since = rolledUntil ?? new Date(0);
    // Scalar subqueries, run once per payer through a primary key, charges_payer or the attempts
    // decided since the rollup's point: as NOT EXISTS the planner may join the whole table
    // instead when its statistics are stale.
    const notPaidBefore =
      rolledUntil !== null && rolledUntil >= w.from
        ? sql``
        : sql`and (select 1 from charges e where e.merchant_id = ${merchantId} and e.mode = ${mode} and e.user_id = f.payer and e.status = 'succeeded' and e.created_at >= ${since} and e.created_at < ${w.from} limit 1) is null
          and (select 1 from payment_attempts e where e.completed_at >= ${since} and e.completed_at < ${w.from} and e.merchant_id = ${merchantId} and e.mode = ${mode} and e.phone_number = f.payer and e.status = 'SUCCEEDED' and not e.late limit 1) is null`;
    const [sums, firsts] = await Promise.all([
      sql<{ hour: string; currency: string; succeeded: string; failed: string; volume: string }>`
        with p as (${payments})
        select ${epochHour('decided_at')} as hour, currency,
          count(*) filter (where status = 'succeeded') as succeeded,
          count(*) filter (where status = 'failed') as failed,
          coalesce(sum(amount_minor) filter (where status = 'succeeded'), 0) as volume
        from p group by 1, currency`.execute(db),
      sql<{ hour: string; currency: string; n: string }>`
        with p as (${payments}), f as (
          select distinct on (payer) payer, decided_at, currency from p where status = 'succeeded' order by payer, decided_at
        )
        select ${epochHour('decided_at')} as hour, currency, count(*) as n from f
        where coalesce((select c.first_paid_at from charge_first_payments c where c.merchant_id = ${merchantId} and c.mode = ${mode} and c.user_id = f.payer), 'infinity'::timestamptz) >= ${w.from}
        ${notPaidBefore}
        group by 1, currency`.execute(db),
    ]);
    const byKey = new Map<string, HourFigures>();
    for (const r of sums.rows) {
      byKey.set(`${r.hour}:${r.currency}`, {
        hour: Number(r.hour),
        currency: r.currency,
        succeeded: Number(r.succeeded),
        failed: Number(r.failed),
        volume: BigInt(r.volume),
        newCustomers: 0,
      });
    }
    for (const r of firsts.rows) {
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
