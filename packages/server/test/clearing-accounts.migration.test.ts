import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/database.ts';
import { migrate, readMigrations } from '../src/platform/migrations.ts';
import { systemClock } from '../src/platform/clock.ts';
import { newId } from '../src/platform/ids.ts';
import { createLedgerService, verifyLedger } from '../src/modules/ledger/index.ts';
import { openEmptyTestDb } from './harness.ts';

/** The schema before clearing accounts per provider account (0082). */
const before = () => readMigrations().filter((m) => m.name < '0082');

const at = new Date(Date.UTC(2026, 10, 20, 10, 0));

/**
 * A ledger as the old version left it: clearing accounts per provider name, their balances made
 * by requests of several provider accounts and merchants (and one transfer no request made),
 * every transfer balanced against a merchant's account. Foreign keys are left unchecked while
 * seeding (the requests' owners are not what is moved).
 */
async function seed(db: Kysely<Database>) {
  await db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    // The merchants themselves: the migration's transfers name them (checked then).
    await sql`insert into merchants (id, name, created_at) values ('mch_1', 'One', ${at}), ('mch_2', 'Two', ${at})`.execute(tx);
    const account = (id: string, mode: string, kind: string, currency: string, merchant: string | null, name: string | null) =>
      sql`insert into ledger_accounts (id, merchant_id, mode, kind, name, user_id, currency, balance, created_at)
        values (${id}, ${merchant}, ${mode}, ${kind}, ${name}, null, ${currency}, 0, ${at})`.execute(tx);
    await account('acc_old_test_mtn', 'test', 'provider_clearing', 'XAF', null, 'mtn_momo');
    await account('acc_old_live_mtn', 'live', 'provider_clearing', 'XAF', null, 'mtn_momo');
    await account('acc_old_live_om', 'live', 'provider_clearing', 'XOF', null, 'orange_money');
    for (const m of ['mch_1', 'mch_2'])
      for (const [mode, currency] of [
        ['test', 'XAF'],
        ['live', 'XAF'],
        ['live', 'XOF'],
      ] as const)
        await account(`acc_${m}_${mode}_${currency}`, mode, 'merchant_pending', currency, m, null);
    const request = (id: string, kind: string, mode: string, connector: string, providerAccount: string) =>
      sql`insert into provider_requests (id, kind, reference, mode, connector, provider_account, status, next_poll_at, created_at, updated_at)
        values (${id}, ${kind}, ${`ref_${id}`}, ${mode}, ${connector}, ${providerAccount}, 'SUCCEEDED', ${at}, ${at}, ${at})`.execute(tx);
    let n = 0;
    /** A transfer of `amount` into the clearing account (negative: out of it), against the merchant's pending account. */
    const move = async (merchant: string, mode: string, currency: string, clearing: string, reference: string, amount: bigint) => {
      n += 1;
      const id = `tr_seed_${n}`;
      const other = `acc_${merchant}_${mode}_${currency}`;
      await sql`insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at) values (${id}, ${merchant}, ${mode}, 'seed', ${reference}, ${at})`.execute(
        tx,
      );
      await sql`insert into ledger_postings (transfer_id, account_id, currency, amount, created_at)
        values (${id}, ${clearing}, ${currency}, ${amount}, ${at}), (${id}, ${other}, ${currency}, ${-amount}, ${at})`.execute(tx);
      await sql`update ledger_accounts set balance = balance + ${amount} where id = ${clearing}`.execute(tx);
      await sql`update ledger_accounts set balance = balance - ${amount} where id = ${other}`.execute(tx);
    };
    await request('top_1', 'topup', 'test', 'mtn_momo', 'pac_sandbox_mtn_momo');
    await request('att_1', 'attempt', 'test', 'mtn_momo', 'pac_sandbox_mtn_momo');
    await request('po_1', 'payout', 'test', 'mtn_momo', 'pac_sandbox_mtn_momo');
    await move('mch_1', 'test', 'XAF', 'acc_old_test_mtn', 'top_1', -5000n);
    await move('mch_1', 'test', 'XAF', 'acc_old_test_mtn', 'att_1', -3000n);
    await move('mch_2', 'test', 'XAF', 'acc_old_test_mtn', 'po_1', 1000n);
    // Live: a request of before 0073 (the legacy environment account), two of today's.
    await request('att_2', 'attempt', 'live', 'mtn_momo', 'pac_env_mtn_momo');
    await request('att_3', 'attempt', 'live', 'mtn_momo', 'pac_env_mtn_momo_abc123def456');
    await request('re_1', 'refund', 'live', 'mtn_momo', 'pac_env_mtn_momo_abc123def456');
    await move('mch_1', 'live', 'XAF', 'acc_old_live_mtn', 'att_2', -2000n);
    await move('mch_1', 'live', 'XAF', 'acc_old_live_mtn', 'att_3', -7000n);
    await move('mch_2', 'live', 'XAF', 'acc_old_live_mtn', 're_1', 500n);
    // No request made it: the environment's account of old.
    await move('mch_2', 'live', 'XAF', 'acc_old_live_mtn', 'by_hand_1', -100n);
    // An old account at zero whose money is in two accounts.
    await request('att_4', 'attempt', 'live', 'orange_money', 'pac_env_orange_money_ffff');
    await request('po_2', 'payout', 'live', 'orange_money', 'pac_env_orange_money_0000');
    await move('mch_1', 'live', 'XOF', 'acc_old_live_om', 'att_4', -4000n);
    await move('mch_1', 'live', 'XOF', 'acc_old_live_om', 'po_2', 4000n);
  });
}

/** Each merchant's money in clearing accounts, per mode and currency: what its transfers put there. */
async function perMerchant(db: Kysely<Database>) {
  const r = await sql<{ merchant_id: string; mode: string; currency: string; total: string }>`
    select t.merchant_id, a.mode, a.currency, sum(p.amount)::text as total
    from ledger_postings p join ledger_transfers t on t.id = p.transfer_id join ledger_accounts a on a.id = p.account_id
    where a.kind = 'provider_clearing' group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  return r.rows;
}

describe('migration 0082: clearing accounts per provider account', () => {
  it('moves every old clearing balance by transfers into the accounts of the requests that made it, none lost or doubled', async () => {
    const database = await openEmptyTestDb();
    try {
      const { db } = database;
      await migrate(db, before());
      await seed(db);
      const verifiedBefore = await verifyLedger(db);
      expect(verifiedBefore.differences).toEqual([]);
      const merchantsBefore = await perMerchant(db);

      await migrate(db);

      const verified = await verifyLedger(db);
      expect(verified.differences).toEqual([]);
      expect(verified.ok).toBe(true);
      const clearing = await db
        .selectFrom('ledger_accounts')
        .select(['id', 'mode', 'name', 'connector', 'currency', 'balance'])
        .where('kind', '=', 'provider_clearing')
        .orderBy('mode')
        .orderBy('name')
        .execute();
      const byName = Object.fromEntries(clearing.map((a) => [`${a.mode}:${a.name}:${a.currency}`, a]));
      // The old accounts stay, emptied, with their connector.
      expect(byName['test:mtn_momo:XAF']).toMatchObject({ balance: 0n, connector: 'mtn_momo' });
      expect(byName['live:mtn_momo:XAF']).toMatchObject({ balance: 0n, connector: 'mtn_momo' });
      expect(byName['live:orange_money:XOF']).toMatchObject({ balance: 0n, connector: 'orange_money' });
      expect(byName['test:pac_sandbox_mtn_momo:XAF']).toMatchObject({ balance: -7000n, connector: 'mtn_momo' });
      expect(byName['live:pac_env_mtn_momo:XAF']).toMatchObject({ balance: -2100n, connector: 'mtn_momo' });
      expect(byName['live:pac_env_mtn_momo_abc123def456:XAF']).toMatchObject({ balance: -6500n, connector: 'mtn_momo' });
      expect(byName['live:pac_env_orange_money_ffff:XOF']).toMatchObject({ balance: -4000n, connector: 'orange_money' });
      expect(byName['live:pac_env_orange_money_0000:XOF']).toMatchObject({ balance: 4000n, connector: 'orange_money' });
      expect(clearing).toHaveLength(8);

      // One transfer per old account and merchant, each naming the old account; each merchant's
      // money at the providers is what it was.
      const moves = await db.selectFrom('ledger_transfers').select(['merchant_id', 'reference']).where('kind', '=', 'clearing_per_account').execute();
      expect(moves.map((m) => `${m.reference}:${m.merchant_id}`).sort()).toEqual([
        'acc_old_live_mtn:mch_1',
        'acc_old_live_mtn:mch_2',
        'acc_old_live_om:mch_1',
        'acc_old_test_mtn:mch_1',
        'acc_old_test_mtn:mch_2',
      ]);
      expect(await perMerchant(db)).toEqual(merchantsBefore);

      // The code posts to the migrated account of a request's provider account.
      const ledger = createLedgerService({ db, clock: systemClock, ids: (kind) => newId(kind, systemClock) });
      const found = await ledger.providerClearing(db, {
        mode: 'live',
        providerAccount: 'pac_env_mtn_momo_abc123def456',
        connector: 'mtn_momo',
        currency: 'XAF',
      });
      expect(found.id).toBe(byName['live:pac_env_mtn_momo_abc123def456:XAF']?.id);
      const made = await ledger.providerClearing(db, { mode: 'live', providerAccount: 'pac_env_mtn_momo_other', connector: 'mtn_momo', currency: 'XAF' });
      expect(made).toMatchObject({ name: 'pac_env_mtn_momo_other', connector: 'mtn_momo', balance: 0n });
    } finally {
      await database.drop();
    }
  });

  it('stops, changing nothing, on a clearing account that differs from its postings', async () => {
    const database = await openEmptyTestDb();
    try {
      const { db } = database;
      await migrate(db, before());
      await seed(db);
      await sql`update ledger_accounts set balance = balance + 1 where id = 'acc_old_test_mtn'`.execute(db);
      await expect(migrate(db)).rejects.toThrow(/differ from their postings/);
      const row = await db.selectFrom('ledger_accounts').select('balance').where('id', '=', 'acc_old_test_mtn').executeTakeFirstOrThrow();
      expect(row.balance).toBe(-6999n);
      expect(await db.selectFrom('ledger_transfers').select('id').where('kind', '=', 'clearing_per_account').execute()).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
