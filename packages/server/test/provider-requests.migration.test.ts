import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/database.ts';
import { migrate, readMigrations, SchemaAheadError } from '../src/platform/migrations.ts';
import { openEmptyTestDb } from './harness.ts';

/** The migrations before this (0073, 0074): the schema the old version ran on. */
const before = () => readMigrations().filter((m) => m.name < '0073');

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));

/**
 * Rows of all four kinds in every state, as the old version wrote them (its foreign keys left
 * unchecked: the parents are not what is moved), and what their requests must be after.
 */
async function seed(db: Kysely<Database>, opts: { paidAndReversed?: boolean } = {}) {
  const expected: { id: string; kind: string; status: string; mode: string; polls: number; deadline: boolean }[] = [];
  await db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    let n = 0;
    const common = (mode: string) => {
      n += 1;
      return {
        merchant_id: 'mch_1',
        mode,
        provider: 'mtn_momo',
        phone_number: '+237670000000',
        amount_minor: 1000,
        currency: 'XAF',
        reference: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        next_poll_at: at(n),
        polls: n,
        submitted_at: n % 2 === 0 ? at(n) : null,
        created_at: at(0),
        updated_at: at(n),
      };
    };
    const cols = (row: Record<string, unknown>) => sql.join(Object.keys(row).map((k) => sql.ref(k)));
    const vals = (row: Record<string, unknown>) => sql.join(Object.values(row).map((v) => sql`${v}`));
    const insert = (table: string, row: Record<string, unknown>) => sql`insert into ${sql.table(table)} (${cols(row)}) values (${vals(row)})`.execute(tx);
    for (const mode of ['test', 'live']) {
      for (const [status, late] of [
        ['PENDING', false],
        ['SUCCEEDED', false],
        ['FAILED', false],
        ['SUCCEEDED', true],
      ] as const) {
        const id = `att_${mode}_${status}_${late}`;
        const row = { id, intent_id: `pi_${mode}`, status, late, language: 'fr', approval_expires_at: at(5), ...common(mode) };
        await insert('payment_attempts', row);
        expected.push({ id, kind: 'attempt', status, mode, polls: row.polls, deadline: true });
      }
      for (const status of ['PENDING', 'SUCCEEDED', 'FAILED']) {
        const id = `top_${mode}_${status}`;
        const row = { id, user_id: 'usr_1', status, ...common(mode) };
        await insert('topups', row);
        expected.push({ id, kind: 'topup', status, mode, polls: row.polls, deadline: true });
      }
      for (const [status, reason, becomes] of [
        ['REVIEW', null, 'HELD'],
        ['PENDING', null, 'PENDING'],
        ['PAID', null, 'SUCCEEDED'],
        ['FAILED', 'PAYEE_NOT_FOUND', 'FAILED'],
        ['FAILED', 'REVIEW_REJECTED', 'CANCELED'],
      ] as const) {
        const id = `po_${mode}_${status}_${reason ?? ''}`;
        const row = { id, method: 'manual', status, failure_reason: reason, ...common(mode) };
        await insert('payouts', row);
        expected.push({ id, kind: 'payout', status: becomes, mode, polls: row.polls, deadline: false });
        if (status === 'PAID')
          await insert('ledger_transfers', { id: `tr_${id}`, merchant_id: 'mch_1', mode, kind: 'payout_paid', reference: id, created_at: at(9) });
        if (status === 'PAID' && opts.paidAndReversed)
          await insert('ledger_transfers', { id: `tr2_${id}`, merchant_id: 'mch_1', mode, kind: 'payout_reversal', reference: id, created_at: at(9) });
      }
      for (const [status, late] of [
        ['PENDING', false],
        ['SUCCEEDED', false],
        ['FAILED', false],
        ['PENDING', true],
      ] as const) {
        const id = `re_${mode}_${status}_${late}`;
        const row = { id, intent_id: `pi_${mode}`, attempt_id: `att_${mode}_SUCCEEDED_false`, status, late, ...common(mode) };
        await insert('mobile_money_refunds', row);
        expected.push({ id, kind: 'refund', status, mode, polls: row.polls, deadline: false });
      }
    }
  });
  return expected;
}

describe('migration 0074: provider_requests', () => {
  it('moves rows of all four kinds in every state in place, none lost or doubled, and refuses the old version after it', async () => {
    const database = await openEmptyTestDb();
    try {
      const { db } = database;
      await migrate(db, before());
      const expected = await seed(db);
      const owners = async () =>
        (
          await sql<{ n: string }>`select (select count(*) from payment_attempts) + (select count(*) from topups)
            + (select count(*) from payouts) + (select count(*) from mobile_money_refunds) as n`.execute(db)
        ).rows[0]?.n;
      const ownersBefore = await owners();
      const timings = await sql<{ id: string; next_poll_at: Date; submitted_at: Date | null; reference: string }>`
        select id, next_poll_at, submitted_at, reference from payment_attempts union all select id, next_poll_at, submitted_at, reference from topups
        union all select id, next_poll_at, submitted_at, reference from payouts union all select id, next_poll_at, submitted_at, reference from mobile_money_refunds`.execute(
        db,
      );

      await migrate(db);

      expect(await owners()).toBe(ownersBefore);
      const requests = await db.selectFrom('provider_requests').selectAll().orderBy('id').execute();
      expect(requests).toHaveLength(expected.length);
      for (const e of expected) {
        const r = requests.find((q) => q.id === e.id);
        const old = timings.rows.find((t) => t.id === e.id);
        expect(r, e.id).toMatchObject({
          kind: e.kind,
          status: e.status,
          mode: e.mode,
          connector: 'mtn_momo',
          provider_account: e.mode === 'test' ? 'pac_sandbox_mtn_momo' : 'pac_env_mtn_momo',
          polls: e.polls,
          reference: old?.reference,
          next_poll_at: old?.next_poll_at,
          submitted_at: old?.submitted_at,
        });
        expect(r?.deadline_at === null, e.id).toBe(!e.deadline);
      }
      // The owners keep their business fields; the request's are gone from them: the old
      // version's claim and its inserts fail on them.
      await expect(sql`select next_poll_at from topups`.execute(db)).rejects.toThrow(/next_poll_at/);
      await expect(sql`update payouts set polls = polls + 1 where status = 'PENDING'`.execute(db)).rejects.toThrow(/polls/);
      // And an old version started now is refused before it touches anything.
      await expect(migrate(db, before())).rejects.toThrow(SchemaAheadError);

      // A request follows its owner's decision in the owner's transaction.
      await sql`update topups set status = 'SUCCEEDED', completed_at = ${at(30)}, updated_at = ${at(30)} where id = 'top_test_PENDING'`.execute(db);
      await sql`update payouts set status = 'PENDING', updated_at = ${at(31)} where id = 'po_test_REVIEW_'`.execute(db);
      const followed = await db
        .selectFrom('provider_requests')
        .select(['id', 'status', 'finished_at'])
        .where('id', 'in', ['top_test_PENDING', 'po_test_REVIEW_'])
        .orderBy('id')
        .execute();
      expect(followed).toEqual([
        { id: 'po_test_REVIEW_', status: 'PENDING', finished_at: null },
        { id: 'top_test_PENDING', status: 'SUCCEEDED', finished_at: at(30) },
      ]);
    } finally {
      await database.drop();
    }
  });

  it('stops, changing nothing, on a request that settled twice', async () => {
    const database = await openEmptyTestDb();
    try {
      const { db } = database;
      await migrate(db, before());
      await seed(db, { paidAndReversed: true });
      await expect(migrate(db)).rejects.toThrow(/settled twice/);
      expect((await sql<{ t: string | null }>`select to_regclass('provider_requests')::text as t`.execute(db)).rows[0]?.t).toBeNull();
      expect((await sql`select next_poll_at from topups`.execute(db)).rows).toHaveLength(6);
    } finally {
      await database.drop();
    }
  });
});
