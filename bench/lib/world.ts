/**
 * The bench's data: a fresh PostgreSQL database (or PGlite directory), one merchant with test
 * keys, and many verified test users with funded wallets. Users are bulk-inserted with SQL (one
 * argon2 hash shared by all: creating 100 000 users through POST /test/users would spend minutes
 * hashing passwords), each with a balanced funding transfer so the ledger verifies. Access tokens
 * are signed with the server's own token service and signing keys, as POST /auth/web would sign
 * them (users are "logged in beforehand"; login itself is not on the payment path).
 */
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../../packages/server/src/config.ts';
import { createMerchantsService } from '../../packages/server/src/modules/merchants/merchants.service.ts';
import { createTokenService } from '../../packages/server/src/modules/users/users.tokens.ts';
import { systemClock } from '../../packages/server/src/platform/clock.ts';
import { systemRandom } from '../../packages/server/src/platform/crypto.ts';
import { type OpenedDb, openPglite, openPostgres } from '../../packages/server/src/platform/db.ts';
import type { Deps } from '../../packages/server/src/platform/deps.ts';
import { idFactory } from '../../packages/server/src/platform/ids.ts';
import { migrate } from '../../packages/server/src/platform/migrations.ts';
import { hashPassword } from '../../packages/server/src/platform/passwords.ts';

/** A fixed master key: the bench's databases are throwaway. */
export const BENCH_MASTER_KEY = Buffer.alloc(32, 42).toString('base64');
/** Every seeded wallet holds this many XAF: enough for any number of bench payments. */
export const WALLET_BALANCE = 1_000_000_000_000n;
export const PAYMENT_AMOUNT = '5000';

const pad = (k: number) => String(k).padStart(8, '0');
/** The bench merchant's dashboard user. */
export const BENCH_DASHBOARD = { email: 'bench@caisse.local', password: 'bench-dashboard-2026' };

export const userIdOf = (k: number) => `usr_bench${pad(k)}`;

export interface Merchant {
  merchantId: string;
  apiKey: string;
  secretKey: string;
}

export interface BenchUser {
  k: number;
  id: string;
  token: string;
  tokenAt: number;
}

export function configFor(dataDir: string, databaseUrl?: string) {
  return loadConfig({
    CAISSE_MASTER_KEY: BENCH_MASTER_KEY,
    CAISSE_DATA_DIR: dataDir,
    CAISSE_RATE_LIMIT_TEST: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}

export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

/** The bench's own connection to the database, with the server's types (int8 as bigint) and migrations applied. */
export class World {
  readonly deps: Deps;
  private readonly tokens: ReturnType<typeof createTokenService>;
  private nextK = 1;
  seeded = 0;
  merchant!: Merchant;

  private constructor(
    readonly database: OpenedDb,
    dataDir: string,
    databaseUrl: string | undefined,
  ) {
    this.deps = { config: configFor(dataDir, databaseUrl), db: database.db, clock: systemClock, random: systemRandom, ids: idFactory(systemClock) };
    // Seeded users never changed their password: token version 0.
    this.tokens = createTokenService(this.deps, async () => 0);
  }

  static async open(opts: { databaseUrl?: string; dataDir: string }): Promise<World> {
    const database = opts.databaseUrl ? openPostgres(opts.databaseUrl, 4) : await openPglite(opts.dataDir);
    await migrate(database.db);
    return new World(database, opts.dataDir, opts.databaseUrl);
  }

  get db() {
    return this.deps.db;
  }

  async createMerchant(): Promise<Merchant> {
    // A dashboard login too: the bigtable phase times the dashboard's overview and search through HTTP.
    const created = await createMerchantsService(this.deps).createMerchant({
      name: 'Bench shop',
      email: BENCH_DASHBOARD.email,
      dashboardPassword: BENCH_DASHBOARD.password,
    });
    this.merchant = { merchantId: created.merchantId, apiKey: created.test.apiKey, secretKey: created.test.secretKey };
    return this.merchant;
  }

  /** Users k = seeded+1 … seeded+count, verified, each with a funded XAF wallet. */
  async seedUsers(count: number): Promise<void> {
    const from = this.seeded + 1;
    const to = this.seeded + count;
    const m = this.merchant.merchantId;
    const hash = await hashPassword('bench-password-2026');
    const balance = WALLET_BALANCE.toString();
    await this.db.transaction().execute(async (tx) => {
      await sql`insert into users (id, merchant_id, mode, phone_number, email, password_hash, phone_verified_at, created_at)
        select 'usr_bench' || lpad(g::text, 8, '0'), ${m}, 'test', '+2376' || lpad(g::text, 8, '0'), null, ${hash}, now(), now()
        from generate_series(${from}::int, ${to}::int) g`.execute(tx);
      await sql`insert into ledger_accounts (id, merchant_id, mode, kind, user_id, currency, balance, created_at)
        values ('acc_bench_external', ${m}, 'test', 'external', null, 'XAF', 0, now())
        on conflict do nothing`.execute(tx);
      await sql`insert into ledger_accounts (id, merchant_id, mode, kind, user_id, currency, balance, created_at)
        select 'acc_bw' || lpad(g::text, 8, '0'), ${m}, 'test', 'user_wallet', 'usr_bench' || lpad(g::text, 8, '0'), 'XAF', ${balance}::bigint, now()
        from generate_series(${from}::int, ${to}::int) g`.execute(tx);
      await sql`insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at)
        select 'tr_bfund' || lpad(g::text, 8, '0'), ${m}, 'test', 'funding', null, now() from generate_series(${from}::int, ${to}::int) g`.execute(tx);
      await sql`insert into ledger_postings (transfer_id, account_id, currency, amount, created_at)
        select 'tr_bfund' || lpad(g::text, 8, '0'), a.account_id, 'XAF', a.amount, now()
        from generate_series(${from}::int, ${to}::int) g,
          lateral (values ('acc_bw' || lpad(g::text, 8, '0'), ${balance}::bigint), ('acc_bench_external', -${balance}::bigint)) a(account_id, amount)`.execute(
        tx,
      );
      await sql`update ledger_accounts set balance = balance - ${balance}::bigint * ${count}::bigint where id = 'acc_bench_external'`.execute(tx);
    });
    this.seeded = to;
    await sql`analyze`.execute(this.db);
  }

  /** The next `count` unused users, with fresh access tokens (signed now: they live 15 minutes). */
  async takeUsers(count: number): Promise<BenchUser[]> {
    if (this.nextK + count - 1 > this.seeded) await this.seedUsers(Math.max(count, 20_000));
    const users: BenchUser[] = [];
    for (let i = 0; i < count; i++) {
      const k = this.nextK++;
      const id = userIdOf(k);
      const { token } = await this.tokens.sign({ userId: id, merchantId: this.merchant.merchantId, mode: 'test', roles: ['USER'], version: 0 });
      users.push({ k, id, token, tokenAt: Date.now() });
    }
    return users;
  }

  close(): Promise<void> {
    return this.database.close();
  }
}

/** Hands out users one payment each (the OTP send limits allow one code per user per 30 s). */
export class UserQueue {
  private i = 0;
  constructor(private readonly users: BenchUser[]) {}
  next(): BenchUser {
    const u = this.users[this.i++];
    if (!u) throw new Error(`the bench ran out of prepared users (${this.users.length})`);
    return u;
  }
  get used(): number {
    return this.i;
  }
}
