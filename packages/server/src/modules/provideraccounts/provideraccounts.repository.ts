import { type ColumnType, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/** What a check answered, as stored and shown. */
export interface LastCheck {
  ok: boolean;
  at: string;
  detail: string;
}

export interface ProviderAccountsTable {
  id: string;
  connector: string;
  mode: KeyMode;
  countries: string[];
  settings: ColumnType<Record<string, string | number>, string, never>;
  credentials: Buffer;
  credentials_hint: ColumnType<Record<string, string>, string, never>;
  capabilities: string[];
  status: 'active' | 'disabled';
  last_check: ColumnType<LastCheck | null, string | null, string | null>;
  created_at: Date;
  disabled_at: Date | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    provider_accounts: ProviderAccountsTable;
  }
}

export interface ProviderAccountRow {
  id: string;
  connector: string;
  mode: KeyMode;
  countries: string[];
  settings: Record<string, string | number>;
  credentials: Buffer;
  credentials_hint: Record<string, string>;
  capabilities: string[];
  status: 'active' | 'disabled';
  last_check: LastCheck | null;
  created_at: Date;
  disabled_at: Date | null;
}

const COLUMNS = [
  'id',
  'connector',
  'mode',
  'countries',
  'settings',
  'credentials',
  'credentials_hint',
  'capabilities',
  'status',
  'last_check',
  'created_at',
  'disabled_at',
] as const;

export const providerAccountsRepository = {
  async insert(db: Executor, row: Omit<ProviderAccountRow, 'settings' | 'credentials_hint' | 'last_check'> & { settings: string; credentials_hint: string }) {
    await db
      .insertInto('provider_accounts')
      .values({ ...row, last_check: null })
      .execute();
  },

  find(db: Executor, id: string, opts: { forUpdate?: boolean } = {}): Promise<ProviderAccountRow | undefined> {
    const q = db.selectFrom('provider_accounts').select(COLUMNS).where('id', '=', id);
    return (opts.forUpdate ? q.forUpdate() : q).executeTakeFirst();
  },

  /** Every account, newest first. */
  list(db: Executor): Promise<ProviderAccountRow[]> {
    return db.selectFrom('provider_accounts').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  },

  /** The accounts of a mode that serve a country, newest first, with what the choice needs only (no credentials). */
  forCountry(db: Executor, mode: KeyMode, country: string): Promise<Pick<ProviderAccountRow, 'id' | 'connector' | 'status'>[]> {
    return (
      db
        .selectFrom('provider_accounts')
        .select(['id', 'connector', 'status'])
        .where('mode', '=', mode)
        // Containment, which the GIN index on countries serves.
        .where(sql<boolean>`countries @> array[${country}]::text[]`)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    );
  },

  async disable(db: Executor, id: string, at: Date): Promise<void> {
    await db.updateTable('provider_accounts').set({ status: 'disabled', disabled_at: at }).where('id', '=', id).where('status', '=', 'active').execute();
  },

  async setLastCheck(db: Executor, id: string, check: LastCheck): Promise<void> {
    await db
      .updateTable('provider_accounts')
      .set({ last_check: JSON.stringify(check) })
      .where('id', '=', id)
      .execute();
  },
};
