import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createMerchant, createTestContext, onPostgres } from './harness.ts';

/**
 * A worker hands the database a file closed, reset to the template, to its next file (instead of
 * copying the template again): the next file sees nothing the last one wrote.
 */
describe('the test harness', () => {
  it("gives the next file a database without the last file's rows, its sequences back where the template left them", async () => {
    const counts = async (ctx: Awaited<ReturnType<typeof createTestContext>>) => {
      const merchants = await sql<{ n: string }>`select count(*)::text as n from merchants`.execute(ctx.deps.db);
      const sequences = await sql<{
        v: string;
      }>`select coalesce(string_agg(sequencename || '=' || coalesce(last_value::text, 'unset'), ',' order by sequencename), '') as v from pg_sequences`.execute(
        ctx.deps.db,
      );
      return { merchants: merchants.rows[0]?.n, sequences: sequences.rows[0]?.v };
    };
    const first = await createTestContext();
    const before = await counts(first);
    await createMerchant(first, 'Written');
    await sql`select nextval(format('%I.%I', schemaname, sequencename)) from pg_sequences where schemaname = 'public'`.execute(first.deps.db);
    const written = await counts(first);
    expect(written.merchants).not.toBe(before.merchants);
    expect(written.sequences).not.toBe(before.sequences);
    const url = first.database.url;
    await first.close();

    const next = await createTestContext();
    try {
      // On PostgreSQL the very database comes back (the last one closed, first out).
      if (onPostgres) expect(next.database.url).toBe(url);
      expect(await counts(next)).toEqual(before);
    } finally {
      await next.close();
    }
  });
});
