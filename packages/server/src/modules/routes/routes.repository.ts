import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/** A payment attempt's route (`payment`) or a payout's to that method (`payout`). */
export type RouteKind = 'payment' | 'payout';

/** An operator's route (migration 0081); without a row a route is the registry's default. */
export interface PaymentRoutesTable {
  mode: KeyMode;
  country: string;
  kind: RouteKind;
  method: string;
  /** The connectors in the order they are tried. */
  connectors: string[];
  /** Who set it: an operator's id, or `cli`. */
  updated_by: string | null;
  updated_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    payment_routes: PaymentRoutesTable;
  }
}

export interface RouteKey {
  mode: KeyMode;
  country: string;
  kind: RouteKind;
  method: string;
}

export type RouteRow = PaymentRoutesTable;

/** The routes module's own table. */
export const routesRepository = {
  async all(db: Executor): Promise<RouteRow[]> {
    return db.selectFrom('payment_routes').selectAll().orderBy('mode').orderBy('country').orderBy('kind').orderBy('method').execute();
  },

  async find(db: Executor, key: RouteKey): Promise<RouteRow | undefined> {
    return db
      .selectFrom('payment_routes')
      .selectAll()
      .where('mode', '=', key.mode)
      .where('country', '=', key.country)
      .where('kind', '=', key.kind)
      .where('method', '=', key.method)
      .executeTakeFirst();
  },

  /** Every override of one mode, country and kind, in one read (a merchant's whole offer). */
  async forCountry(db: Executor, mode: KeyMode, country: string, kind: RouteKind): Promise<RouteRow[]> {
    return db.selectFrom('payment_routes').selectAll().where('mode', '=', mode).where('country', '=', country).where('kind', '=', kind).execute();
  },

  async upsert(db: Executor, row: RouteRow): Promise<void> {
    await db
      .insertInto('payment_routes')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['mode', 'country', 'kind', 'method']).doUpdateSet({ connectors: row.connectors, updated_by: row.updated_by, updated_at: row.updated_at }),
      )
      .execute();
  },

  async remove(db: Executor, key: RouteKey): Promise<void> {
    await db
      .deleteFrom('payment_routes')
      .where('mode', '=', key.mode)
      .where('country', '=', key.country)
      .where('kind', '=', key.kind)
      .where('method', '=', key.method)
      .execute();
  },
};
