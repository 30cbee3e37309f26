import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../src/platform/migrations.ts';
import { openEmptyTestDb } from './harness.ts';

/**
 * Migration 0090 (decision 0096): before it, cards followed their route whatever a merchant's list
 * of methods said; after it, the list decides. Every list already stored gains `card`, so no
 * merchant loses cards by the change; the default (null) and the operator's cap stay as they were.
 */
describe('migration 0090: card in the lists merchants already chose', () => {
  it('adds card to each stored list, once; leaves the default and the cap alone', async () => {
    const database = await openEmptyTestDb();
    try {
      const { db } = database;
      await migrate(
        db,
        readMigrations().filter((m) => m.name < '0090'),
      );
      const at = new Date(Date.UTC(2026, 10, 29, 9, 0));
      await sql`insert into merchants (id, name, created_at) values ('mch_1', 'One', ${at}), ('mch_2', 'Two', ${at})`.execute(db);
      const row = (merchant: string, mode: string, providers: string[] | null, allowed: string[] | null) =>
        sql`insert into payment_method_settings (merchant_id, mode, wallet, providers, allowed_providers, updated_at)
          values (${merchant}, ${mode}, true, ${providers}, ${allowed}, ${at})`.execute(db);
      await row('mch_1', 'test', ['mtn_momo'], null);
      await row('mch_1', 'live', [], ['mtn_momo']);
      await row('mch_2', 'test', null, ['orange_money']);
      await row('mch_2', 'live', ['card', 'wave'], null);

      await migrate(db);

      const rows = await db
        .selectFrom('payment_method_settings')
        .select(['merchant_id', 'mode', 'providers', 'allowed_providers'])
        .orderBy('merchant_id')
        .orderBy('mode')
        .execute();
      expect(rows).toEqual([
        { merchant_id: 'mch_1', mode: 'live', providers: ['card'], allowed_providers: ['mtn_momo'] },
        { merchant_id: 'mch_1', mode: 'test', providers: ['mtn_momo', 'card'], allowed_providers: null },
        { merchant_id: 'mch_2', mode: 'live', providers: ['card', 'wave'], allowed_providers: null },
        { merchant_id: 'mch_2', mode: 'test', providers: null, allowed_providers: ['orange_money'] },
      ]);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
