/**
 * Reconciliation (docs/spec/money-out.md) against the MoMo sandbox, a real HTTP server: real top-ups made
 * over HTTP and settled by the poller, real disbursements sent through the connector, then the
 * sandbox made to disagree on purpose (overrides, a lost request, requests only it knows). The
 * CLI's exit codes are checked through its function (as a real process: reconciliation.cli.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../src/cli.ts';
import { formatReport, type ReconcileOptions, reconcileCommand } from '../src/cli/reconcile.ts';
import { createConnectorRegistry, sandboxSettings } from '../src/modules/connectors/connectors.registry.ts';
import { type Connector, newReference } from '../src/modules/connectors/index.ts';
import { type MomoSandbox, startMomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { createReconciliationService, type PayoutSource, type ReconciliationReport } from '../src/modules/reconciliation/index.ts';
import { ApiError } from '../src/platform/errors.ts';
import { ManualClock, MINUTE, SECOND } from '../src/platform/clock.ts';
import { newUser, type TestUser } from './flow.support.ts';
import { call, createMerchant, createTestContext, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: MomoSandbox;
let m: TestMerchant;
let momo: Connector;
let workDir: string;

beforeAll(async () => {
  const clock = new ManualClock('2026-11-01T10:00:00.000Z');
  // No callbacks: the poller settles every top-up, as after a lost callback.
  sandbox = await startMomoSandbox({ clock, tickMs: 0, faults: { dropCallbacks: true } });
  ctx = await createTestContext({ clock, env: { CAISSE_SANDBOX_URL: sandbox.url } });
  m = await createMerchant(ctx, 'Reconcile shop');
  momo = ctx.services.connectors.forMode('test').get('mtn_momo') as Connector;
  workDir = mkdtempSync(join(tmpdir(), 'caisse-reconcile-'));
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const OK_NUMBER = '+237650000059';
const FAILS = '+237650000103';
const NEVER_ANSWERS = '+237650000102';
const DAY_1 = { provider: 'mtn_momo', from: '2026-11-01', to: '2026-11-01', mode: 'test' as const };

async function topup(user: TestUser, amount: string, phoneNumber = OK_NUMBER): Promise<{ id: string; reference: string }> {
  const res = await call(ctx.app, 'POST', '/wallet/topups', user.creds, { amount, currency: 'XAF', provider: 'mtn_momo', phoneNumber });
  expect(res.statusCode, res.body).toBe(202);
  const { id } = res.json() as { id: string };
  await ctx.services.topups.drain();
  return { id, reference: sandbox.requests().find((r) => r.externalId === id)?.referenceId ?? '' };
}

/** A top-up's status as its module has it (no access token to keep fresh across the clock's jumps). */
const statusOf = async (id: string) =>
  (await ctx.services.topups.listForProvider('mtn_momo', new Date(0), new Date('2100-01-01'))).find((r) => r.id === id)?.status;

/** The payer approves (or the sandbox fails) and the poller learns it. */
async function settle() {
  ctx.clock.advance(2 * SECOND);
  await sandbox.tick();
  await ctx.services.callbacks.drain();
  ctx.clock.advance(5 * SECOND);
  await ctx.services.topups.pollDue();
}

/** A disbursement sent straight through the connector, around the payouts module (so the sandbox can be made to disagree freely). */
async function disburse(amount: bigint, phoneNumber = OK_NUMBER, externalId = 'po_test'): Promise<string> {
  const reference = newReference();
  expect(await momo.disburse({ reference, amount, currency: 'XAF', phoneNumber, externalId })).toMatchObject({ status: 'PENDING' });
  return reference;
}

/** Payouts as the payouts module lists them. */
const payoutRows: Awaited<ReturnType<PayoutSource['listForProvider']>> = [];
const payouts: PayoutSource = {
  listForProvider: async (provider, from, to) => payoutRows.filter((p) => provider === 'mtn_momo' && p.created_at >= from && p.created_at < to),
};
const withPayouts = () => createReconciliationService(ctx.deps, { connectors: ctx.services.connectors, topups: ctx.services.topups, payouts });
/** Top-ups alone (the disbursements above were sent around the payouts module: payouts.test.ts reconciles real ones). */
const topupsOnly = () => createReconciliationService(ctx.deps, { connectors: ctx.services.connectors, topups: ctx.services.topups });

const output = () => {
  const out = { text: '', write: (t: string) => void (out.text += t) };
  return out;
};
const day1 = () => ({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-02T00:00:00Z') });

describe('reconcile', () => {
  const t: Record<string, { id: string; reference: string }> = {};
  const p: Record<string, string> = {};

  it('all agree: settled top-ups and payouts, a failure on both sides, one never submitted; PENDING is in flight; exit 0', async () => {
    const bob = await newUser(ctx, m);
    // Never reached the provider (it answered 500), then timed out: FAILED here, NOT_FOUND there, no money moved: they agree.
    sandbox.setFaults({ answer500: true });
    t.unsent = await topup(bob, '600');
    sandbox.setFaults({ answer500: false });
    expect(t.unsent.reference).toBe('');
    ctx.clock.advance(16 * MINUTE);
    await ctx.services.topups.pollDue();
    expect(await statusOf(t.unsent.id)).toBe('FAILED');

    // Customers of their own: access tokens do not outlive the clock's jump.
    const alice = await newUser(ctx, m);
    const dan = await newUser(ctx, m);

    t.a = await topup(alice, '5000');
    t.b = await topup(alice, '1200');
    t.c = await topup(alice, '3000');
    t.failed = await topup(dan, '700', FAILS);
    t.pending = await topup(dan, '800', NEVER_ANSWERS);
    p.paid = await disburse(4000n);
    p.toFail = await disburse(900n);
    p.failed = await disburse(300n, FAILS);
    await settle();
    for (const k of ['a', 'b', 'c'] as const) expect(await statusOf(t[k]!.id)).toBe('SUCCEEDED');
    expect(await statusOf(t.failed!.id)).toBe('FAILED');
    expect(await statusOf(t.pending!.id)).toBe('PENDING');
    const at = ctx.clock.now();
    payoutRows.push(
      { id: 'po_paid', mode: 'test', reference: p.paid, amount_minor: 4000n, currency: 'XAF', status: 'PAID', created_at: at },
      { id: 'po_to_fail', mode: 'test', reference: p.toFail, amount_minor: 900n, currency: 'XAF', status: 'PAID', created_at: at },
      { id: 'po_failed', mode: 'test', reference: p.failed, amount_minor: 300n, currency: 'XAF', status: 'FAILED', created_at: at },
    );

    const report = await withPayouts().reconcile({ provider: 'mtn_momo', mode: 'test', ...day1() });
    expect(report).toMatchObject({
      result: 'agreed',
      ok: true,
      checked: { topups: 6, payouts: 3 },
      agreed: 8,
      mismatches: [],
      unverified: [],
      listing: { source: 'provider', ok: true, requests: 8 },
    });
    expect(report.inFlight).toEqual([
      expect.objectContaining({
        object: 'topup',
        id: t.pending!.id,
        ours: expect.objectContaining({ status: 'PENDING', amount: '800' }),
        provider: expect.objectContaining({ status: 'PENDING' }),
      }),
    ]);

    // Top-ups alone through the CLI's function: exit 0.
    const out = output();
    expect(await reconcileCommand(topupsOnly(), DAY_1, out.write)).toBe(0);
    expect(out.text).toContain(`IN FLIGHT topup ${t.pending!.id}`);
    expect(out.text).toContain('6 top-ups, payouts not checked (no payouts source); 5 agree, 0 mismatches, 1 in flight, 0 unverified');
    expect(out.text).toMatch(/all agree\n$/);
    expect(out.text).not.toContain('MISMATCH');
  });

  it('the sandbox disagrees on purpose: each mismatch is reported once, and the CLI exits 1', async () => {
    sandbox.override(t.b!.reference, { status: 'FAILED', reason: 'APPROVAL_REJECTED' });
    sandbox.override(t.c!.reference, { amount: '2500' });
    sandbox.override(t.failed!.reference, { status: 'SUCCESSFUL' });
    expect(sandbox.forget(t.a!.reference)).toBe(true);
    const stranger = newReference();
    expect(await momo.collect({ reference: stranger, amount: 999n, currency: 'XAF', phoneNumber: OK_NUMBER, externalId: 'top_not_ours' })).toMatchObject({
      status: 'PENDING',
    });
    sandbox.override(p.toFail!, { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' });
    const strangerPayout = await disburse(1500n, OK_NUMBER, 'po_not_ours');
    await settle();

    const report = await withPayouts().reconcile({ provider: 'mtn_momo', mode: 'test', ...day1() });
    const brief = report.mismatches.map((x) => [x.kind, x.object, x.id, x.reference]);
    expect(brief).toEqual(
      expect.arrayContaining([
        ['missing_at_provider', 'topup', t.a!.id, t.a!.reference],
        ['status', 'topup', t.b!.id, t.b!.reference],
        ['amount', 'topup', t.c!.id, t.c!.reference],
        ['status', 'topup', t.failed!.id, t.failed!.reference],
        ['status', 'payout', 'po_to_fail', p.toFail],
        ['missing_here', 'topup', null, stranger],
        ['missing_here', 'payout', null, strangerPayout],
      ]),
    );
    expect(brief).toHaveLength(7);
    // Agreeing still: the top-up never submitted, the paid payout and the failed one.
    expect(report).toMatchObject({ result: 'mismatched', ok: false, agreed: 3, checked: { topups: 6, payouts: 3 } });
    const byRef = (ref: string, kind: string) => report.mismatches.find((x) => x.reference === ref && x.kind === kind);
    expect(byRef(t.b!.reference, 'status')).toMatchObject({
      ours: { status: 'SUCCEEDED', amount: '1200' },
      provider: { status: 'FAILED', reason: 'APPROVAL_REJECTED' },
    });
    expect(byRef(t.c!.reference, 'amount')).toMatchObject({
      ours: { amount: '3000', currency: 'XAF' },
      provider: { status: 'SUCCESSFUL', amount: '2500', currency: 'XAF' },
    });
    expect(byRef(t.failed!.reference, 'status')).toMatchObject({ ours: { status: 'FAILED' }, provider: { status: 'SUCCESSFUL' } });
    expect(byRef(t.a!.reference, 'missing_at_provider')).toMatchObject({ ours: { status: 'SUCCEEDED' }, provider: { status: 'NOT_FOUND' } });
    expect(byRef(stranger, 'missing_here')).toMatchObject({ ours: null, provider: { status: 'SUCCESSFUL', amount: '999', externalId: 'top_not_ours' } });
    // Still in flight, not a mismatch.
    expect(report.inFlight.map((f) => f.id)).toEqual([t.pending!.id]);

    // The CLI: one line per mismatch (top-ups alone), a summary, exit 1; --json the same report.
    const out = output();
    expect(await reconcileCommand(topupsOnly(), DAY_1, out.write)).toBe(1);
    const lines = out.text.trimEnd().split('\n');
    // Requests made in the same millisecond come in no set order.
    expect(lines.filter((l) => l.startsWith('MISMATCH ')).sort()).toEqual(
      [
        `MISMATCH missing_at_provider topup ${t.a!.id} ${t.a!.reference}: we have SUCCEEDED 5000 XAF, the provider does not know the reference`,
        `MISMATCH status topup ${t.b!.id} ${t.b!.reference}: we have SUCCEEDED, the provider FAILED (APPROVAL_REJECTED)`,
        `MISMATCH amount topup ${t.c!.id} ${t.c!.reference}: we have 3000 XAF, the provider 2500 XAF`,
        `MISMATCH status topup ${t.failed!.id} ${t.failed!.reference}: we have FAILED, the provider SUCCESSFUL`,
        `MISMATCH missing_here topup - ${stranger}: the provider has SUCCESSFUL 999 XAF (externalId top_not_ours) from ${sandbox.requests().find((r) => r.referenceId === stranger)?.createdAt}, we have no topup with this reference`,
      ].sort(),
    );
    expect(lines.at(-1)).toBe('5 mismatches found');
    const json = output();
    expect(await reconcileCommand(topupsOnly(), { ...DAY_1, json: true }, json.write)).toBe(1);
    const parsed = JSON.parse(json.text) as ReconciliationReport;
    expect(parsed).toMatchObject({
      object: 'reconciliation',
      provider: 'mtn_momo',
      mode: 'test',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-02T00:00:00.000Z',
      result: 'mismatched',
    });
    expect(parsed.mismatches).toHaveLength(5);

    // Another day: nothing of this one is in it.
    const next = output();
    expect(await reconcileCommand(topupsOnly(), { ...DAY_1, from: '2026-11-02', to: '2026-11-02' }, next.write)).toBe(0);
    expect(next.text).toContain('0 top-ups');
  });

  it('a provider that cannot be asked leaves requests unverified, never agreed: exit 2', async () => {
    ctx.clock.set('2026-11-03T09:00:00.000Z');
    const carol = await newUser(ctx, m);
    const ok = await topup(carol, '450');
    await settle();
    expect(await statusOf(ok.id)).toBe('SUCCEEDED');
    const day3 = { ...DAY_1, from: '2026-11-03', to: '2026-11-03' };
    expect(await reconcileCommand(topupsOnly(), day3, output().write)).toBe(0);
    sandbox.setFaults({ answer500: true });
    try {
      const out = output();
      expect(await reconcileCommand(topupsOnly(), day3, out.write)).toBe(2);
      expect(out.text).toContain(
        `UNVERIFIED topup ${ok.id} ${ok.reference}: we have SUCCEEDED, the provider could not be asked (HTTP 500 INTERNAL_PROCESSING_ERROR)`,
      );
      expect(out.text).toMatch(/no mismatch found, but not everything could be checked\n$/);
    } finally {
      sandbox.setFaults({ answer500: false });
    }
  });

  it('without a listing (MTN itself) the provider is still asked per reference; a statement file lists what it has', async () => {
    // The real connector against the same sandbox, but as MTN: no listing.
    const asMtn = createConnectorRegistry(
      { mtn_momo: { ...(sandboxSettings(sandbox.url).mtn_momo as object), sandboxListing: false } },
      {
        clock: ctx.clock,
        logger: { debug() {}, info() {}, warn() {} },
        callbackKey: Buffer.alloc(32, 1),
      },
      undefined,
      // Test mode's account: the requests were made with it, so it reads them.
      'sandbox',
    );
    try {
      const service = createReconciliationService(ctx.deps, {
        connectors: { forMode: () => asMtn, byAccount: async () => undefined },
        topups: ctx.services.topups,
      });
      const report = await service.reconcile({ provider: 'mtn_momo', mode: 'test', ...day1() });
      expect(report.listing).toEqual({ source: 'none', ok: true, requests: 0 });
      // The stranger is not seen without a listing; the mismatches of our own requests are, and one
      // more: the poller of the day before timed out the top-up the provider still has PENDING.
      expect(report.mismatches.map((x) => x.kind).sort()).toEqual(['amount', 'missing_at_provider', 'status', 'status', 'status']);
      expect(report.mismatches.find((x) => x.id === t.pending!.id)).toMatchObject({ kind: 'status', detail: 'we have FAILED, the provider still PENDING' });
      expect(report.inFlight).toEqual([]);
      expect(formatReport(report)).toContain('requests unknown to us: not checked (mtn_momo cannot list its requests; pass --statement FILE)');

      const statement = join(workDir, 'statement.csv');
      const unknown = newReference();
      writeFileSync(
        statement,
        [
          'Reference,Kind,Status,Amount,Currency,Created_At,External_Id,Note',
          `${t.b!.reference.toUpperCase()},collection,FAILED,1200,XAF,2026-11-01T10:16:05Z,${t.b!.id},"known, not unknown"`,
          `${unknown},collection,SUCCESSFUL,2000,XAF,2026-11-01T23:59:59+00:00,,`,
          `${newReference()},collection,SUCCESSFUL,2000,XAF,2026-11-02T00:00:00Z,,outside the period`,
          '',
        ].join('\r\n'),
      );
      const out = output();
      expect(await reconcileCommand(service, { ...DAY_1, statement, json: true }, out.write)).toBe(1);
      const parsed = JSON.parse(out.text) as ReconciliationReport;
      expect(parsed.listing).toEqual({ source: 'statement', ok: true, requests: 2 });
      expect(parsed.mismatches.filter((x) => x.kind === 'missing_here')).toEqual([
        expect.objectContaining({ reference: unknown, provider: expect.objectContaining({ amount: '2000' }) }),
      ]);

      writeFileSync(statement, 'reference,kind,status\nx,collection,FAILED\n');
      await expect(reconcileCommand(service, { ...DAY_1, statement }, output().write)).rejects.toThrow(/missing column\(s\) amount, currency, created_at/);
    } finally {
      await asMtn.close();
    }
  });

  it("reports per provider account: another account's request is named with its account and connector, unverified, never read with this one's settings", async () => {
    ctx.clock.set('2026-11-04T09:00:00.000Z');
    const erin = await newUser(ctx, m);
    await topup(erin, '350');
    const elsewhere = await topup(erin, '360');
    await settle();
    expect(await statusOf(elsewhere.id)).toBe('SUCCEEDED');
    // As if made with another account of the connector (one an operator has since replaced).
    await ctx.deps.db.updateTable('topups').set({ provider_account: 'pac_env_mtn_momo_elsewhere' }).where('id', '=', elsewhere.id).execute();
    const report = await topupsOnly().reconcile({
      provider: 'mtn_momo',
      mode: 'test',
      from: new Date('2026-11-04T00:00:00Z'),
      to: new Date('2026-11-05T00:00:00Z'),
    });
    expect(report).toMatchObject({ result: 'unverified', checked: { topups: 2 }, agreed: 1 });
    expect(report.accounts).toEqual([
      expect.objectContaining({
        providerAccount: 'pac_sandbox_mtn_momo',
        connector: 'mtn_momo',
        readHere: true,
        result: 'agreed',
        checked: { topups: 1, payouts: null, attempts: null, refunds: null },
        agreed: 1,
        listing: { source: 'provider', ok: true, requests: 2 },
      }),
      expect.objectContaining({
        providerAccount: 'pac_env_mtn_momo_elsewhere',
        connector: 'mtn_momo',
        readHere: false,
        result: 'unverified',
        checked: { topups: 1, payouts: null, attempts: null, refunds: null },
        agreed: 0,
        listing: null,
        unverified: [
          expect.objectContaining({ id: elsewhere.id, reason: expect.stringContaining('made with the provider account pac_env_mtn_momo_elsewhere') }),
        ],
      }),
    ]);
    expect(report.unverified.map((u) => u.id)).toEqual([elsewhere.id]);
    // The listing is read with this server's account; the other account's request is still ours, not unknown.
    expect(report.mismatches).toEqual([]);

    const out = output();
    expect(await reconcileCommand(topupsOnly(), { ...DAY_1, from: '2026-11-04', to: '2026-11-04' }, out.write)).toBe(2);
    const lines = out.text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'provider account pac_sandbox_mtn_momo (connector mtn_momo): 1 top-up, payouts not checked (no payouts source); 1 agree, 0 mismatches, 0 in flight, 0 unverified',
    );
    expect(lines).toContain(
      'provider account pac_env_mtn_momo_elsewhere (connector mtn_momo, not read here): 1 top-up, payouts not checked (no payouts source); 0 agree, 0 mismatches, 0 in flight, 1 unverified',
    );
    expect(lines).toContain('  requests unknown to us: listed with the account this server calls mtn_momo with');
    expect(out.text).toContain(`UNVERIFIED topup ${elsewhere.id} ${elsewhere.reference}: we have SUCCEEDED`);
    const json = output();
    await reconcileCommand(topupsOnly(), { ...DAY_1, from: '2026-11-04', to: '2026-11-04', json: true }, json.write);
    expect((JSON.parse(json.text) as ReconciliationReport).accounts.map((a) => [a.providerAccount, a.connector])).toEqual([
      ['pac_sandbox_mtn_momo', 'mtn_momo'],
      ['pac_env_mtn_momo_elsewhere', 'mtn_momo'],
    ]);
  });

  it('bad input: unknown provider, a mode without the provider, an empty or impossible period', async () => {
    const reconcile = (q: Partial<Parameters<typeof ctx.services.reconciliation.reconcile>[0]>) =>
      ctx.services.reconciliation.reconcile({ provider: 'mtn_momo', mode: 'test', ...day1(), ...q });
    await expect(reconcile({ provider: 'airtel_money' })).rejects.toMatchObject({ code: 'provider_unsupported' });
    await expect(reconcile({ mode: 'live' })).rejects.toMatchObject({ code: 'provider_unavailable', message: expect.stringMatching(/CAISSE_MOMO_/) });
    await expect(reconcile({ to: day1().from })).rejects.toBeInstanceOf(ApiError);
    const run = (o: Partial<ReconcileOptions>) => reconcileCommand(topupsOnly(), { ...DAY_1, ...o }, output().write);
    await expect(run({ from: '2026-02-30' })).rejects.toThrow('--from expects a day as YYYY-MM-DD, got "2026-02-30"');
    await expect(run({ to: '1/11/2026' })).rejects.toThrow('--to expects a day');
    await expect(run({ from: '2026-11-02', to: '2026-11-01' })).rejects.toThrow('--from 2026-11-02 is after --to 2026-11-01');
    await expect(run({ statement: join(workDir, 'missing.csv') })).rejects.toThrow(/cannot read the statement .*ENOENT/);
  });

  it('--help shows an example', async () => {
    const command = buildCli().commands.find((c) => c.name() === 'reconcile');
    let help = '';
    command?.configureOutput({ writeOut: (s) => (help += s) }).outputHelp();
    expect(help).toContain('--provider <name>');
    expect(help).toContain('$ npx caisse reconcile --provider <name> --from 2026-11-01 --to 2026-11-30');
  });
});
