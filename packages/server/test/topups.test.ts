/**
 * Money in (docs/spec/money-in.md): wallet top-ups through the mtn_momo connector against the MoMo sandbox,
 * a real HTTP server, with the app listening for its callbacks. Time is the shared ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { callbackSigner } from '../src/modules/connectors/connectors.references.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithSandbox } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, payAt, refreshToken, registerUser, type TestUser, through } from './flow.support.ts';
import { call, createMerchant, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;
let m: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithSandbox());
  m = await createMerchant(ctx, 'Topup shop');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

const SUCCESS = '+237650000059';
const topup = (user: TestUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(ctx.app, 'POST', '/wallet/topups', { ...user.creds, headers }, { amount: '5000', currency: 'XAF', provider: 'mtn_momo', phoneNumber: SUCCESS, ...body });
const read = async (user: TestUser, id: string) =>
  (await call(ctx.app, 'GET', `/wallet/topups/${id}`, user.creds)).json() as { status: string; failureReason: string | null };
const balance = async (user: TestUser) =>
  ((await call(ctx.app, 'GET', '/wallet', user.creds)).json() as { balances: { currency: string; amount: string }[] }).balances.find(
    (b) => b.currency === 'XAF',
  )?.amount;

/** Lets the submit made after the answer finish, then the payer approve and the callback arrive. */
async function approve(ms = 2 * SECOND) {
  await ctx.services.topups.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  // Callbacks are answered once recorded; their status reads run behind the answer.
  await ctx.services.callbacks.drain();
}

describe('top-ups', () => {
  it('202 PENDING at once; the callback credits the wallet once; the customer then pays an intent with it', async () => {
    const user = await newUser(ctx, m);
    const res = await topup(user, {});
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json() as { id: string; status: string; object: string };
    expect(created).toMatchObject({
      object: 'topup',
      status: 'PENDING',
      amount: '5000',
      currency: 'XAF',
      provider: 'mtn_momo',
      connector: 'mtn_momo',
      providerAccount: 'pac_sandbox_mtn_momo',
    });
    expect(created.id).toMatch(/^top_/);
    expect(await balance(user)).toBe('0');

    await approve();
    await expect.poll(async () => (await read(user, created.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    expect(await balance(user)).toBe('5000');
    const wallet = (await call(ctx.app, 'GET', '/wallet', user.creds)).json() as { movements: { kind: string; reference: string; amount: string }[] };
    expect(wallet.movements).toContainEqual(expect.objectContaining({ kind: 'topup', reference: created.id, amount: '5000' }));
    // From the clearing account of the top-up's provider account, which names its connector.
    const from = await ctx.deps.db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['a.name', 'a.connector', 'p.amount'])
      .where('t.reference', '=', created.id)
      .where('a.kind', '=', 'provider_clearing')
      .execute();
    expect(from).toEqual([{ name: 'pac_sandbox_mtn_momo', connector: 'mtn_momo', amount: -5000n }]);

    // A later poll of the one poller (or any duplicate) changes nothing.
    ctx.clock.advance(MINUTE);
    await ctx.services.callbacks.pollDue();
    expect(await balance(user)).toBe('5000');

    // The customer is told once by SMS, in their language (none chosen, none asked: the merchant's French).
    const outbox = (await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m))).json() as { data: { channel: string; body: string }[] };
    expect(outbox.data.filter((x) => x.body.includes('rechargé'))).toEqual([
      expect.objectContaining({ channel: 'sms', body: 'Votre portefeuille Caisse a été rechargé de 5 000 FCFA par MTN MoMo.' }),
    ]);

    const intent = await createIntent(ctx, m, { amount: '5000' });
    const paid = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balance(user)).toBe('0');
    await expectLedgerClean(ctx);

    // The merchant's dashboard shows the top-up on the customer's page, with the payment; never a wallet.
    const login = await call(ctx.app, 'POST', '/dashboard/api/login', {}, m.dashboard);
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const page = await call(ctx.app, 'GET', `/dashboard/api/test/customers/${user.id}`, { headers: { cookie } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({
      customer: { id: user.id, payments: 1 },
      payments: [{ intentId: intent.id, amount: '5000', status: 'succeeded' }],
      topups: [{ id: created.id, status: 'SUCCEEDED', amount: '5000' }],
    });
    expect(page.body).not.toMatch(/balance/i);
    expect(page.body).not.toContain(SUCCESS);
    expect((await call(ctx.app, 'GET', '/dashboard/api/test/customers/usr_unknown', { headers: { cookie } })).statusCode).toBe(404);
  });

  it('a callback sent twice credits once; a forged callback changes nothing', async () => {
    const user = await newUser(ctx, m);
    sandbox.setFaults({ duplicateCallbacks: true });
    try {
      const { id } = (await topup(user, { amount: '700' })).json() as { id: string };
      await approve();
      await expect.poll(async () => (await read(user, id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
      expect(await balance(user)).toBe('700');
    } finally {
      sandbox.setFaults({ duplicateCallbacks: false });
    }
    const { id } = (await topup(user, { amount: '300' })).json() as { id: string };
    await ctx.services.topups.drain();
    const row = await ctx.deps.db.selectFrom('topups').select('reference').where('id', '=', id).executeTakeFirstOrThrow();
    const forged = await ctx.app.inject({
      method: 'PUT',
      url: `/callbacks/mtn_momo/collection/${row.reference}/not-the-token`,
      headers: { 'content-type': 'application/json' },
      payload: { status: 'SUCCESSFUL', amount: '300', currency: 'XAF', externalId: id },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'callback_invalid' });
    expect((await read(user, id)).status).toBe('PENDING');
    expect(await balance(user)).toBe('700');
    await expectLedgerClean(ctx);
  });

  it('a callback is recorded before its answer and read behind it; news a process left unread is read by the next round, once', async () => {
    const user = await newUser(ctx, m);
    const { id } = (await topup(user, { amount: '400' })).json() as { id: string };
    await ctx.services.topups.drain();
    const { reference } = await ctx.deps.db.selectFrom('topups').select('reference').where('id', '=', id).executeTakeFirstOrThrow();
    const news = async () =>
      (await ctx.deps.db.selectFrom('provider_requests').select('callback_at').where('id', '=', id).executeTakeFirstOrThrow()).callback_at;
    const url = `/callbacks/mtn_momo/collection/${reference}/${callbackSigner(ctx.deps.config.masterKey, 'mtn_momo').sign('collection', reference)}`;
    // The payer has not approved yet: the callback is answered, its read finds PENDING, the news is cleared.
    const early = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: { 'content-type': 'application/json' },
      payload: { status: 'SUCCESSFUL' },
    });
    expect(early.statusCode, early.body).toBe(204);
    await ctx.services.callbacks.drain();
    expect(await news()).toBeNull();
    expect((await read(user, id)).status).toBe('PENDING');
    // The payer approves; the process that recorded the sandbox's callback died before reading it.
    sandbox.setFaults({ dropCallbacks: true });
    try {
      await approve();
    } finally {
      sandbox.setFaults({ dropCallbacks: false });
    }
    await ctx.deps.db.updateTable('provider_requests').set({ callback_at: ctx.clock.now() }).where('id', '=', id).execute();
    expect(await ctx.services.callbacks.readCallbacks()).toBe(1);
    expect(await read(user, id)).toMatchObject({ status: 'SUCCEEDED' });
    expect(await news()).toBeNull();
    expect(await ctx.services.callbacks.readCallbacks()).toBe(0);
    // Sent again later: answered, read, nothing more credited.
    const again = await ctx.app.inject({ method: 'PUT', url, headers: { 'content-type': 'application/json' }, payload: { status: 'SUCCESSFUL' } });
    expect(again.statusCode).toBe(204);
    await ctx.services.callbacks.drain();
    expect(await balance(user)).toBe('400');
    await expectLedgerClean(ctx);
  });

  it('a dropped callback is made up by the poller; a refusal and a timeout fail with their reason, never credited', async () => {
    const user = await newUser(ctx, m);
    sandbox.setFaults({ dropCallbacks: true });
    try {
      const ok = (await topup(user, { amount: '1200' })).json() as { id: string };
      const rejected = (await topup(user, { amount: '1300', phoneNumber: '+237650000105' })).json() as { id: string };
      const silent = (await topup(user, { amount: '1400', phoneNumber: '+237650000102' })).json() as { id: string };
      await approve();
      expect((await read(user, ok.id)).status).toBe('PENDING');
      ctx.clock.advance(5 * SECOND);
      await ctx.services.topups.pollDue();
      expect(await read(user, ok.id)).toMatchObject({ status: 'SUCCEEDED' });
      expect(await read(user, rejected.id)).toMatchObject({ status: 'FAILED', failureReason: 'APPROVAL_REJECTED' });
      expect((await read(user, silent.id)).status).toBe('PENDING');
      ctx.clock.advance(15 * MINUTE);
      await ctx.services.topups.pollDue();
      await refreshToken(ctx, m, user);
      expect(await read(user, silent.id)).toMatchObject({ status: 'FAILED', failureReason: 'TIMEOUT' });
      expect(await balance(user)).toBe('1200');
    } finally {
      sandbox.setFaults({ dropCallbacks: false });
    }
    await expectLedgerClean(ctx);
  });

  it('a provider that fails or answers nonsense when asked leaves the top-up PENDING; the poller sends it again and it is credited once', async () => {
    const user = await newUser(ctx, m);
    sandbox.setFaults({ answer500: true });
    const { id } = (await topup(user, { amount: '900' })).json() as { id: string };
    await ctx.services.topups.drain();
    // The provider never took it: the reference is unknown to it.
    expect(sandbox.requests().some((r) => r.externalId === id)).toBe(false);
    sandbox.setFaults({ answer500: false, badJson: true });
    ctx.clock.advance(5 * SECOND);
    await ctx.services.topups.pollDue();
    expect((await read(user, id)).status).toBe('PENDING');
    sandbox.setFaults({ badJson: false });
    ctx.clock.advance(MINUTE);
    await ctx.services.topups.pollDue();
    expect(sandbox.requests().filter((r) => r.externalId === id)).toHaveLength(1);
    await approve();
    ctx.clock.advance(MINUTE);
    await ctx.services.topups.pollDue();
    expect((await read(user, id)).status).toBe('SUCCEEDED');
    expect(await balance(user)).toBe('900');
    await expectLedgerClean(ctx);
  });

  it('an Idempotency-Key replays the answer and asks the payer once', async () => {
    const user = await newUser(ctx, m);
    const first = await topup(user, { amount: '450' }, { 'idempotency-key': 'topup-once' });
    const again = await topup(user, { amount: '450' }, { 'idempotency-key': 'topup-once' });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    await ctx.services.topups.drain();
    expect(sandbox.requests().filter((r) => r.externalId === (first.json() as { id: string }).id)).toHaveLength(1);
  });

  it("a number as the payer writes it is read in the merchant's country and stored in E.164", async () => {
    const user = await newUser(ctx, m);
    for (const [typed, stored] of [
      ['650 00 01 23', '+237650000123'],
      ['6.50.00.01.24', '+237650000124'],
      ['00237 650-00-01-25', '+237650000125'],
    ]) {
      const res = await topup(user, { phoneNumber: typed, amount: '300' });
      expect(res.statusCode, res.body).toBe(202);
      const { id } = res.json() as { id: string };
      expect((await ctx.deps.db.selectFrom('topups').select('phone_number').where('id', '=', id).executeTakeFirstOrThrow()).phone_number).toBe(stored);
    }
    await ctx.services.topups.drain();
  });

  it("bad input: provider, phone number, amount, currency; at most 5 pending; another customer's top-up is 404", async () => {
    const user = await newUser(ctx, m);
    const problem = async (body: Record<string, unknown>, status: number, code: string) => {
      const res = await topup(user, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ code });
    };
    await problem({ provider: 'airtel_money' }, 400, 'provider_unsupported');
    await problem({ phoneNumber: '65000000' }, 400, 'phone_invalid');
    await problem({ phoneNumber: '+237 2 22 12 34 56' }, 400, 'phone_invalid'); // a landline
    await problem({ amount: '50.5' }, 400, 'amount_invalid');
    await problem({ amount: '0' }, 400, 'amount_invalid');
    await problem({ currency: 'GBP' }, 400, 'currency_unsupported');
    await problem({ extra: true }, 400, 'parameter_unknown');
    // What the provider itself cannot take is refused before anything is stored, as for a charge:
    // a number it does not serve (too short, another network), a currency or amount outside its bounds.
    await problem({ phoneNumber: '+2376701' }, 400, 'phone_invalid');
    await problem({ provider: 'orange_money', phoneNumber: '+237690000059' }, 400, 'provider_unsupported');
    await problem({ provider: 'wave', phoneNumber: '+221770000059', currency: 'XOF' }, 400, 'provider_unsupported');
    await problem({ phoneNumber: '+237690000059' }, 400, 'phone_invalid');
    await problem({ currency: 'XOF', amount: '1000' }, 400, 'currency_unsupported');
    await problem({ currency: 'EUR', amount: '10.00' }, 400, 'currency_unsupported');
    await problem({ amount: '99' }, 400, 'amount_out_of_bounds');
    await problem({ amount: '500001' }, 400, 'amount_out_of_bounds');
    expect(await ctx.deps.db.selectFrom('topups').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(
      (await call(ctx.app, 'POST', '/wallet/topups', { apiKey: m.apiKey }, { amount: '1', currency: 'XAF', provider: 'mtn_momo', phoneNumber: SUCCESS }))
        .statusCode,
    ).toBe(401);
    const silent = '+237650000102';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(((await topup(user, { amount: '100', phoneNumber: silent })).json() as { id: string }).id);
    await problem({ amount: '100', phoneNumber: silent }, 422, 'limit_exceeded');
    const other = await newUser(ctx, m);
    expect((await call(ctx.app, 'GET', `/wallet/topups/${ids[0]}`, other.creds)).statusCode).toBe(404);
    const list = (await call(ctx.app, 'GET', '/wallet/topups?limit=2', user.creds)).json() as { data: { id: string }[]; hasMore: boolean };
    // Newest first: ids sort by creation time.
    expect(list.data.map((t) => t.id)).toEqual([...ids].sort().reverse().slice(0, 2));
    expect(list.hasMore).toBe(true);
    await ctx.services.topups.drain();
  });

  it('live mode without a configured provider: 503 provider_unavailable, nothing recorded', async () => {
    const phoneNumber = '+237677001122';
    const id = await registerUser(ctx, { apiKey: m.live.apiKey }, { phoneNumber, password: 'live-customer-2026' }, 'live');
    await ctx.deps.db.updateTable('users').set({ phone_verified_at: ctx.clock.now() }).where('id', '=', id).execute();
    const { token } = (await call(ctx.app, 'POST', '/auth/web', { apiKey: m.live.apiKey }, { phoneNumber, password: 'live-customer-2026' })).json() as {
      token: string;
    };
    const live = await call(
      ctx.app,
      'POST',
      '/wallet/topups',
      { apiKey: m.live.apiKey, token },
      { amount: '1', currency: 'XAF', provider: 'mtn_momo', phoneNumber: SUCCESS },
    );
    expect(live.statusCode, live.body).toBe(503);
    expect(live.json()).toMatchObject({ code: 'provider_unavailable' });
    expect(await ctx.deps.db.selectFrom('topups').select('id').where('user_id', '=', id).execute()).toEqual([]);
  });
});

describe("what a merchant's key shows of its customer's wallet", () => {
  it("balances in full, but only the movements and top-ups made with that merchant; another merchant's top-up is a 404 like an unknown id", async () => {
    const other = await createMerchant(ctx, 'Other shop');
    const user = await newUser(ctx, m, { balance: '2000' });
    const made = (await topup(user, { amount: '3000' })).json() as { id: string };
    await approve();
    await expect.poll(async () => (await read(user, made.id)).status, { interval: 20, timeout: 5000 }).toBe('SUCCEEDED');
    // The SMS saying so goes after the commit: let it arrive before the payment's code.
    const messages = async () => (await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m))).body;
    await expect.poll(messages, { interval: 20, timeout: 5000 }).toMatch(/3 000/);
    ctx.clock.advance(SECOND);
    const atM = await payAt(ctx, m, user, '1000');
    expect((await call(ctx.app, 'POST', `/gateway/${atM.id}/refunds`, sk(m), { amount: '400' })).statusCode).toBe(201);

    // The same customer signs in through the other merchant and pays it (a minute later: one code per 30 s).
    ctx.clock.advance(MINUTE);
    const viaOther = await through(ctx, other, user);
    const atOther = await payAt(ctx, other, viaOther, '500');

    type WalletBody = { balances: { currency: string; amount: string }[]; movements: { kind: string; reference: string }[] };
    const seenByOther = (await call(ctx.app, 'GET', '/wallet', viaOther.creds)).json() as WalletBody;
    expect(seenByOther.balances).toEqual([{ currency: 'XAF', amount: '3900' }]);
    expect(seenByOther.movements.map((x) => [x.kind, x.reference])).toEqual([['charge', atOther.id]]);
    const raw = JSON.stringify(seenByOther);
    for (const leaked of [made.id, atM.id]) expect(raw).not.toContain(leaked);

    const seenByM = (await call(ctx.app, 'GET', '/wallet', user.creds)).json() as WalletBody;
    expect(seenByM.balances).toEqual(seenByOther.balances);
    expect(seenByM.movements.map((x) => x.kind).sort()).toEqual(['charge', 'funding', 'refund', 'topup']);
    expect(JSON.stringify(seenByM)).not.toContain(atOther.id);

    // Top-ups: the list and a read through the other merchant know nothing of m's.
    expect((await call(ctx.app, 'GET', '/wallet/topups', viaOther.creds)).json()).toMatchObject({ data: [], hasMore: false });
    const foreign = await call(ctx.app, 'GET', `/wallet/topups/${made.id}`, viaOther.creds);
    const unknownId = `top_${'0'.repeat(made.id.length - 4)}`;
    const unknown = await call(ctx.app, 'GET', `/wallet/topups/${unknownId}`, viaOther.creds);
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    const withoutId = (res: { json(): unknown }, id: string) => JSON.stringify({ ...(res.json() as object), requestId: null }).replaceAll(id, 'ID');
    expect(withoutId(foreign, made.id)).toBe(withoutId(unknown, unknownId));
    expect(((await call(ctx.app, 'GET', '/wallet/topups', user.creds)).json() as { data: { id: string }[] }).data.map((t) => t.id)).toEqual([made.id]);
    await expectLedgerClean(ctx);
  });
});
