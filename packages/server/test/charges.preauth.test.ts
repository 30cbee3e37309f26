/**
 * pawaPay's pre-authorisation code (docs/spec/mobile-money-payments.md, "Pre-authorisation
 * codes"; decision 0086): Orange in Burkina Faso prompts nobody, the payer makes a one-time code
 * in Orange's USSD menu and types it in checkout. `GET /payment-methods` says so, `POST /charge`
 * requires the code and passes it to pawaPay once, a wrong or expired code fails the attempt with
 * its own code, and the code is never stored nor logged.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { PAWAPAY_CONNECTOR, type Sandbox } from '../src/modules/connectors/index.ts';
import { PREAUTH_EXPIRED_CODE, PREAUTH_WRONG_CODE } from '../src/modules/connectors/pawapay/index.ts';
import type { PawapaySandbox } from '../src/modules/connectors/pawapay/pawapay.sandbox.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, expectLedgerClean } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let pawapay: PawapaySandbox;
let m: TestMerchant;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes({ start: new Date('2026-11-29T09:00:00.000Z') }));
  pawapay = sandbox.of(PAWAPAY_CONNECTOR);
  m = await createMerchant(ctx, 'Ouaga shop');
  await runAdminCommand(ctx.services, 'merchants.country', { merchantId: m.merchantId, country: 'BF' });
  // Orange Money in Burkina Faso through pawaPay alone, whatever else reaches it.
  await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'BF', kind: 'payment', method: 'orange_money', connectors: ['pawapay'] });
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

let numbers = 0;
/** A new Orange Burkina Faso number (each test its own, so the prompt limits stay apart). */
const orange = () => `+2260770${String(++numbers).padStart(2, '0')}00`;

type Attempt = { provider: string; connector: string; status: string; failureCode: string | null };
type Intent = { status: string; attempts: Attempt[] };
const read = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Intent;
const pay = (intent: { id: string; sessionToken: string }, phoneNumber: string, preAuthorisationCode?: string) =>
  call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    {
      intentionId: intent.id,
      paymentMethod: { type: 'mobile_money', provider: 'orange_money', phoneNumber, ...(preAuthorisationCode !== undefined ? { preAuthorisationCode } : {}) },
    },
  );

async function later(ms = 2 * SECOND) {
  await ctx.services.callbacks.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.pollDue();
  await ctx.services.callbacks.drain();
}

describe('pre-authorisation codes (Orange in Burkina Faso through pawaPay)', () => {
  it('GET /payment-methods says the approval is a code, with what the payer dials to make it', async () => {
    const intent = await createIntent(ctx, m, { amount: '2000', currency: 'XOF' });
    const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(m));
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: { provider?: string; approval?: string; preAuthorisationUssd?: string | null }[] }).data;
    expect(data.find((d) => d.provider === 'orange_money')).toMatchObject({ approval: 'pre_authorisation_code', preAuthorisationUssd: '*144*4*6#' });
    // A method that prompts on the phone has no such field.
    for (const d of data.filter((d) => d.provider !== undefined && d.provider !== 'orange_money')) expect(d).not.toHaveProperty('preAuthorisationUssd');
  });

  it('a charge without the code is refused before anything is stored or sent: 400 pre_authorisation_code_required', async () => {
    const intent = await createIntent(ctx, m, { amount: '2000', currency: 'XOF' });
    const before = pawapay.stats().deposits;
    const res = await pay(intent, orange());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'pre_authorisation_code_required', param: 'paymentMethod.preAuthorisationCode' });
    expect(pawapay.stats().deposits).toBe(before);
    expect(await read(intent.id)).toMatchObject({ status: 'PENDING', attempts: 0 });
    // Not a code at all: the schema refuses it.
    const malformed = await pay(intent, orange(), '12 34');
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'validation_error' });
  });

  it('the code the payer typed goes to pawaPay, and the payment succeeds; it is never stored nor logged', async () => {
    const code = '7315942';
    const logsBefore = ctx.logs.length;
    const intent = await createIntent(ctx, m, { amount: '2000', currency: 'XOF' });
    const res = await pay(intent, orange(), code);
    expect(res.statusCode, res.body).toBe(202);
    expect((res.json() as Intent).attempts).toEqual([expect.objectContaining({ provider: 'orange_money', connector: 'pawapay', status: 'PENDING' })]);
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED' });
    const deposit = pawapay.payments('deposit').at(-1);
    expect(deposit?.provider.code).toBe('ORANGE_BFA');
    // Nowhere in the database: every table of the schema, read whole.
    const tables = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(ctx.deps.db);
    expect(tables.rows.length).toBeGreaterThan(10);
    for (const { table_name } of tables.rows) {
      const rows = await sql`select * from ${sql.table(table_name)}`.execute(ctx.deps.db);
      expect(
        JSON.stringify(rows.rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
        table_name,
      ).not.toContain(code);
    }
    expect(ctx.logs.slice(logsBefore).join('')).not.toContain(code);
    await expectLedgerClean(ctx);
  });

  it('a wrong code fails the attempt pre_authorisation_code_invalid; a new code pays on the same route', async () => {
    const intent = await createIntent(ctx, m, { amount: '2000', currency: 'XOF' });
    const phone = orange();
    const wrong = await pay(intent, phone, PREAUTH_WRONG_CODE);
    expect(wrong.statusCode, wrong.body).toBe(202);
    await later();
    expect(await read(intent.id)).toMatchObject({
      status: 'PENDING',
      attempts: [expect.objectContaining({ status: 'FAILED', failureCode: 'pre_authorisation_code_invalid' })],
    });
    const again = await pay(intent, phone, '482913');
    expect(again.statusCode, again.body).toBe(202);
    await later();
    await later();
    const paid = await read(intent.id);
    expect(paid).toMatchObject({ status: 'SUCCEEDED' });
    expect(paid.attempts.map((a) => [a.connector, a.status])).toEqual([
      ['pawapay', 'FAILED'],
      ['pawapay', 'SUCCEEDED'],
    ]);
  });

  it('an expired code fails the attempt pre_authorisation_code_expired', async () => {
    const intent = await createIntent(ctx, m, { amount: '2000', currency: 'XOF' });
    const res = await pay(intent, orange(), PREAUTH_EXPIRED_CODE);
    expect(res.statusCode, res.body).toBe(202);
    await later();
    expect(await read(intent.id)).toMatchObject({
      status: 'PENDING',
      attempts: [expect.objectContaining({ status: 'FAILED', failureCode: 'pre_authorisation_code_expired' })],
    });
    await expectLedgerClean(ctx);
  });

  it('a method that prompts on the phone takes no code: one sent along is not passed on', async () => {
    const cm = await createMerchant(ctx, 'Douala shop');
    await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CM', kind: 'payment', method: 'mtn_momo', connectors: ['pawapay'] });
    try {
      const intent = await createIntent(ctx, cm);
      const res = await call(
        ctx.app,
        'POST',
        '/charge',
        { ...pk(cm), headers: { 'x-session-token': intent.sessionToken } },
        { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237677300000', preAuthorisationCode: '1234' } },
      );
      // pawaPay refuses a code for an operator that takes none: it was not sent.
      expect(res.statusCode, res.body).toBe(202);
      await later();
      await later();
      expect(((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(cm))).json() as Intent).status).toBe('SUCCEEDED');
    } finally {
      await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CM', kind: 'payment', method: 'mtn_momo', connectors: null });
    }
  });
});
