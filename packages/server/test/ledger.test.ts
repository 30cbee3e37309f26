import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/platform/errors.ts';
import { minorUnits } from '../src/platform/money.ts';
import { call, createMerchant, createTestContext, onPostgres, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * The double-entry ledger: balanced transfers under row locks, wallets that the database keeps
 * at or above zero, the verification that recomputes balances from postings (its command: ledger.cli.test.ts),
 * the wallet over HTTP, and 1,000 concurrent transfers on PostgreSQL.
 */
let ctx: TestContext;
let m: TestMerchant;
let seq = 300000;
const phone = () => `+237680${String(seq++).padStart(6, '0')}`;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Alpha');
});
afterAll(() => ctx.close());

const scope = () => ({ merchantId: m.merchantId, mode: 'test' as const });

async function testUser(balance = '0', currency = 'XAF'): Promise<string> {
  const res = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password: 'douala-rain-2026', balance, currency });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function accounts(userId: string) {
  const ledger = ctx.services.ledger;
  return ctx.deps.db.transaction().execute(async (tx) => ({
    wallet: await ledger.userWallet(tx, { ...scope(), userId, currency: 'XAF' }),
    merchant: await ledger.merchantBalance(tx, { ...scope(), currency: 'XAF' }),
  }));
}

describe('transfers', () => {
  it('move money between accounts with postings that sum to zero, and update balances', async () => {
    const userId = await testUser('5000');
    const { wallet, merchant } = await accounts(userId);
    const result = await ctx.deps.db.transaction().execute((tx) =>
      ctx.services.ledger.transfer(tx, {
        ...scope(),
        kind: 'charge',
        reference: 'pi_test1',
        from: wallet.id,
        to: merchant.id,
        amount: minorUnits(1200n),
        currency: 'XAF',
      }),
    );
    expect(result.id).toMatch(/^tr_/);
    expect(result.postings.map((p) => p.amount)).toEqual([-1200n, 1200n]);
    expect(result.postings[0]?.balanceAfter).toBe(3800n);
    const view = await ctx.services.ledger.wallet({ userId, mode: 'test' });
    expect(view.balances).toEqual([{ currency: 'XAF', amount: '3800' }]);
    expect(view.movements.map((x) => [x.kind, x.amount, x.reference])).toEqual([
      ['charge', '-1200', 'pi_test1'],
      ['funding', '5000', null],
    ]);
    expect(await ctx.services.ledger.transfersByReference('pi_test1')).toHaveLength(1);
    expect((await ctx.services.ledger.verify()).ok).toBe(true);
  });

  it('402 insufficient_funds when a wallet would go below zero; nothing is written', async () => {
    const userId = await testUser('1000');
    const { wallet, merchant } = await accounts(userId);
    const before = await ctx.services.ledger.verify();
    const attempt = ctx.deps.db
      .transaction()
      .execute((tx) => ctx.services.ledger.transfer(tx, { ...scope(), kind: 'charge', from: wallet.id, to: merchant.id, amount: minorUnits(1001n) }));
    await expect(attempt).rejects.toMatchObject({ code: 'insufficient_funds', status: 402 });
    const after = await ctx.services.ledger.verify();
    expect(after.transfers).toBe(before.transfers);
    expect((await ctx.services.ledger.wallet({ userId, mode: 'test' })).balances).toEqual([{ currency: 'XAF', amount: '1000' }]);
  });

  it('refuses unbalanced postings, accounts of another merchant or currency, and a repeated account', async () => {
    const userId = await testUser('1000');
    const { wallet, merchant } = await accounts(userId);
    const other = await createMerchant(ctx, 'Other');
    const foreign = await ctx.services.ledger.merchantBalance(ctx.deps.db, { merchantId: other.merchantId, mode: 'test', currency: 'XAF' });
    const eur = await ctx.services.ledger.merchantBalance(ctx.deps.db, { ...scope(), currency: 'EUR' });
    const run = (input: Parameters<typeof ctx.services.ledger.transfer>[1]) =>
      ctx.deps.db.transaction().execute((tx) => ctx.services.ledger.transfer(tx, input));
    const base = { ...scope(), kind: 'test' };
    await expect(
      run({
        ...base,
        postings: [
          { accountId: wallet.id, amount: -10n },
          { accountId: merchant.id, amount: 9n },
        ],
      }),
    ).rejects.toThrow(/sum to -1/);
    await expect(run({ ...base, from: wallet.id, to: foreign.id, amount: minorUnits(10n) })).rejects.toThrow(/another merchant/);
    await expect(run({ ...base, from: wallet.id, to: eur.id, amount: minorUnits(10n) })).rejects.toThrow(/sum to/);
    await expect(run({ ...base, from: wallet.id, to: merchant.id, amount: minorUnits(10n), currency: 'EUR' })).rejects.toThrow(/not in EUR/);
    await expect(run({ ...base, from: wallet.id, to: wallet.id, amount: minorUnits(10n) })).rejects.toThrow(/twice/);
    await expect(run({ ...base, from: wallet.id, to: merchant.id, amount: minorUnits(0n) })).rejects.toThrow(/non-zero/);
    expect((await ctx.services.ledger.verify()).ok).toBe(true);
  });
});

describe('the database enforces the rules too', () => {
  it('a user wallet cannot be set below zero, even by hand', async () => {
    const userId = await testUser('10');
    const { wallet } = await accounts(userId);
    await expect(sql`update ledger_accounts set balance = -1 where id = ${wallet.id}`.execute(ctx.deps.db)).rejects.toMatchObject({
      code: '23514',
      constraint: 'ledger_wallet_not_negative',
    });
  });

  it('postings that do not sum to zero cannot be committed', async () => {
    const userId = await testUser('10');
    const { wallet, merchant } = await accounts(userId);
    const commit = ctx.deps.db.transaction().execute(async (tx) => {
      const now = ctx.clock.now();
      await tx
        .insertInto('ledger_transfers')
        .values({ id: 'tr_unbalanced', merchant_id: m.merchantId, mode: 'test', kind: 'manual', reference: null, created_at: now })
        .execute();
      await tx
        .insertInto('ledger_postings')
        .values([
          { transfer_id: 'tr_unbalanced', account_id: wallet.id, currency: 'XAF', amount: -5n, created_at: now },
          { transfer_id: 'tr_unbalanced', account_id: merchant.id, currency: 'XAF', amount: 4n, created_at: now },
        ])
        .execute();
    });
    await expect(commit).rejects.toMatchObject({ code: '23514' });
    expect(await ctx.deps.db.selectFrom('ledger_transfers').select('id').where('id', '=', 'tr_unbalanced').executeTakeFirst()).toBeUndefined();
  });

  it('two transfers in one transaction: the second sees the balance the first left', async () => {
    const userId = await testUser('100');
    const { wallet, merchant } = await accounts(userId);
    const run = ctx.deps.db.transaction().execute(async (tx) => {
      await ctx.services.ledger.transfer(tx, { ...scope(), kind: 'charge', from: wallet.id, to: merchant.id, amount: minorUnits(60n) });
      await ctx.services.ledger.transfer(tx, { ...scope(), kind: 'charge', from: wallet.id, to: merchant.id, amount: minorUnits(60n) });
    });
    await expect(run).rejects.toBeInstanceOf(ApiError);
    await expect(run).rejects.toMatchObject({ code: 'insufficient_funds' });
  });
});

describe('verifyLedger', () => {
  it('reports a balance that differs from its postings', async () => {
    const userId = await testUser('700');
    const { merchant } = await accounts(userId);
    await sql`update ledger_accounts set balance = balance + 3 where id = ${merchant.id}`.execute(ctx.deps.db);
    const report = await ctx.services.ledger.verify();
    expect(report.ok).toBe(false);
    expect(report.differences).toEqual([expect.objectContaining({ type: 'balance', id: merchant.id, detail: expect.stringContaining('difference 3') })]);
    await sql`update ledger_accounts set balance = balance - 3 where id = ${merchant.id}`.execute(ctx.deps.db);
    expect((await ctx.services.ledger.verify()).ok).toBe(true);
  });
});

describe('wallet over HTTP', () => {
  it('POST /test/wallets/fund adds money and answers the wallet; GET /wallet shows it to the user', async () => {
    const userId = await testUser();
    const res = await call(ctx.app, 'POST', '/test/wallets/fund', sk(m), { userId, amount: '2500', currency: 'XAF' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object: 'wallet', userId, livemode: false, balances: [{ currency: 'XAF', amount: '2500' }] });
    await call(ctx.app, 'POST', '/test/wallets/fund', sk(m), { userId, amount: '10.25', currency: 'USD' });
    const phoneNumber = (await ctx.deps.db.selectFrom('users').select('phone_number').where('id', '=', userId).executeTakeFirstOrThrow()).phone_number;
    const login = await call(ctx.app, 'POST', '/auth/web', { apiKey: m.apiKey }, { phoneNumber, password: 'douala-rain-2026' });
    const wallet = await call(ctx.app, 'GET', '/wallet', { apiKey: m.apiKey, token: login.json().token });
    expect(wallet.statusCode).toBe(200);
    const body = wallet.json();
    expect(body.balances).toEqual([
      { currency: 'USD', amount: '10.25' },
      { currency: 'XAF', amount: '2500' },
    ]);
    expect(body.movements).toHaveLength(2);
    expect(body.movements[0]).toMatchObject({ kind: 'funding', currency: 'USD', amount: '10.25', createdAt: '2026-11-01T10:00:00.000Z' });
    expect(body.movements[0].transferId).toMatch(/^tr_/);
  });

  it('POST /test/wallets/fund: bad input', async () => {
    const userId = await testUser();
    const expectCode = async (body: unknown, status: number, code: string) => {
      const res = await call(ctx.app, 'POST', '/test/wallets/fund', sk(m), body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
    };
    await expectCode({ userId, amount: '-5', currency: 'XAF' }, 400, 'amount_invalid');
    await expectCode({ userId, amount: '0', currency: 'XAF' }, 400, 'amount_invalid');
    await expectCode({ userId, amount: '1.5', currency: 'XAF' }, 400, 'amount_invalid');
    await expectCode({ userId, amount: 5, currency: 'XAF' }, 400, 'amount_invalid');
    await expectCode({ userId, amount: '5', currency: 'BTC' }, 400, 'currency_unsupported');
    await expectCode({ userId: 'usr_nobody', amount: '5', currency: 'XAF' }, 404, 'not_found');
    await expectCode({ userId, amount: '5', currency: 'XAF', note: 'x' }, 400, 'parameter_unknown');
    const other = await createMerchant(ctx, 'Gamma');
    const res = await call(ctx.app, 'POST', '/test/wallets/fund', sk(other), { userId, amount: '5', currency: 'XAF' });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /balance', () => {
  it("shows the merchant's balance per currency in the key's mode only, to the secret key", async () => {
    const own = await createMerchant(ctx, 'Delta');
    const empty = await call(ctx.app, 'GET', '/balance', sk(own));
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ object: 'balance', livemode: false, available: [], pending: [], reserved: [], balances: [] });
    const userId = (await call(ctx.app, 'POST', '/test/users', sk(own), { phoneNumber: '+237650001122', password: 'douala-rain-2026', balance: '900' })).json()
      .id;
    await ctx.deps.db.transaction().execute(async (tx) => {
      const q = { merchantId: own.merchantId, mode: 'test' as const, currency: 'XAF' as const };
      const wallet = await ctx.services.ledger.userWallet(tx, { ...q, userId });
      const balance = await ctx.services.ledger.merchantBalance(tx, q);
      await ctx.services.ledger.transfer(tx, { ...q, kind: 'charge', from: wallet.id, to: balance.id, amount: minorUnits(700n) });
    });
    expect((await call(ctx.app, 'GET', '/balance', sk(own))).json().available).toEqual([{ currency: 'XAF', amount: '700' }]);
    const live = await call(ctx.app, 'GET', '/balance', { apiKey: own.live.apiKey, secretKey: own.live.secretKey });
    expect(live.json()).toEqual({ object: 'balance', livemode: true, available: [], pending: [], reserved: [], balances: [] });
    expect((await call(ctx.app, 'GET', '/balance', { apiKey: own.apiKey })).json().code).toBe('secret_key_required');
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  it('1,000 random concurrent transfers leave the ledger verified and no wallet negative', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => testUser(String(1000 + Math.floor(Math.random() * 4000)))));
    const ledger = ctx.services.ledger;
    const wallets = await Promise.all(users.map((userId) => ledger.userWallet(ctx.deps.db, { ...scope(), userId, currency: 'XAF' })));
    const merchant = await ledger.merchantBalance(ctx.deps.db, { ...scope(), currency: 'XAF' });
    const external = await ledger.externalAccount(ctx.deps.db, { ...scope(), currency: 'XAF' });
    const pool = [...wallets.map((w) => w.id), merchant.id];
    const pick = () => pool[Math.floor(Math.random() * pool.length)] as string;

    let ok = 0;
    let refused = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 1000 }, async () => {
        let from = pick();
        let to = pick();
        while (to === from) to = pick();
        // Some three-legged transfers too: two wallets pay the merchant at once.
        const three = Math.random() < 0.2;
        const amount = minorUnits(1 + Math.floor(Math.random() * 900));
        try {
          await ctx.deps.db.transaction().execute(async (tx) => {
            if (three) {
              let second = pick();
              while (second === from || second === merchant.id) second = pick();
              if (from === merchant.id) from = external.id;
              await ledger.transfer(tx, {
                ...scope(),
                kind: 'split',
                postings: [
                  { accountId: from, amount: -amount },
                  { accountId: second, amount: -amount },
                  { accountId: merchant.id === from ? external.id : merchant.id, amount: 2n * amount },
                ],
              });
            } else {
              await ledger.transfer(tx, { ...scope(), kind: 'random', from, to, amount });
            }
          });
          ok++;
        } catch (err) {
          if (!(err instanceof ApiError) || err.code !== 'insufficient_funds') throw err;
          // Refused by the check made under the row lock, not by the database's last-resort CHECK:
          // without the locks, concurrent transfers would read stale balances and reach the CHECK.
          expect(err.message).toMatch(/^The wallet holds/);
          refused++;
        }
      }),
    );
    const ms = performance.now() - started;
    console.log(`1000 concurrent transfers: ${ok} committed, ${refused} refused for funds, ${ms.toFixed(0)} ms`);
    expect(ok + refused).toBe(1000);
    expect(ok).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(0);
    const report = await ledger.verify();
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);
    const negative = await ctx.deps.db.selectFrom('ledger_accounts').select('id').where('kind', '=', 'user_wallet').where('balance', '<', 0n).execute();
    expect(negative).toEqual([]);
    // Money is conserved: every account of the merchant's test XAF ledger sums to zero.
    const total = await sql<{
      total: string;
    }>`select sum(balance)::text as total from ledger_accounts where merchant_id = ${m.merchantId} and mode = 'test' and currency = 'XAF'`.execute(ctx.deps.db);
    expect(total.rows[0]?.total).toBe('0');
  });
});
