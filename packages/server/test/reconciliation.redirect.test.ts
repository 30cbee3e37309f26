/**
 * Reconciliation of payment attempts with the redirect providers (Orange Money Web Payment, Wave
 * Checkout) against the providers' sandbox over real HTTP: each provider is asked through the
 * connector interface (status by reference, with the stored provider reference, amount and
 * currency), by a registry of its own, as `caisse reconcile` does in another process than the
 * server that made the requests (so the connector remembers nothing of them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectorRegistry, sandboxSettings } from '../src/modules/connectors/connectors.registry.ts';
import {
  type Connector,
  type ModeConnectors,
  newReference,
  ORANGE_MONEY_CONNECTOR,
  platformAccountConnector,
  type Sandbox,
  startSandbox,
  WAVE_CONNECTOR,
} from '../src/modules/connectors/index.ts';
import { type AttemptSource, createReconciliationService, type OurRequest } from '../src/modules/reconciliation/index.ts';
import { ManualClock, SECOND } from '../src/platform/clock.ts';

const clock = new ManualClock('2026-11-01T10:00:00.000Z');
const deps = { clock, logger: { debug() {}, info() {}, warn() {} }, callbackKey: Buffer.alloc(32, 7) };
let sandbox: Sandbox;
let server: ModeConnectors;
let reconciler: ModeConnectors;

beforeAll(async () => {
  sandbox = await startSandbox({ clock, tickMs: 0 });
  const settings = sandboxSettings(sandbox.url, { callbacksUrl: 'http://127.0.0.1:9/callbacks', timeoutMs: 2000 });
  // The server's connectors make the requests; the reconciler's own registry asks about them.
  const make = () => {
    const registry = createConnectorRegistry(settings, deps);
    const source = { forMode: () => registry };
    return { ...source, forMerchant: async () => registry, byAccount: async (a: string) => platformAccountConnector(source, a), close: () => registry.close() };
  };
  server = make();
  reconciler = make();
});
afterAll(async () => {
  await server?.close();
  await reconciler?.close();
  await sandbox?.close();
});

type Row = OurRequest<'PENDING' | 'SUCCEEDED' | 'FAILED'>;

/** An attempt started with the provider (its page opened), then what the payer does on it. */
async function attempt(provider: 'orange_money' | 'wave', act: 'approve' | 'decline', ours: Row['status'], amount = 5000n): Promise<Row> {
  const connector = server.forMode('test').get(provider) as Connector;
  const reference = newReference();
  const started = await connector.collect({
    reference,
    amount,
    currency: 'XOF',
    phoneNumber: '+221770000000',
    externalId: `att_${reference.slice(0, 8)}`,
    payerMessage: 'Order',
    returnUrl: 'https://shop.example/return',
  });
  expect(started, JSON.stringify(started)).toMatchObject({ status: 'PENDING' });
  const providerReference = 'providerReference' in started ? started.providerReference : undefined;
  expect(providerReference).toBeDefined();
  const page = provider === 'orange_money' ? sandbox.of(ORANGE_MONEY_CONNECTOR) : sandbox.of(WAVE_CONNECTOR);
  expect(page.act(providerReference as string, act, '+221770000000')).toMatchObject({ ok: true });
  return {
    id: `att_${reference.slice(0, 8)}`,
    mode: 'test',
    reference,
    amount_minor: amount,
    currency: 'XOF',
    status: ours,
    created_at: clock.now(),
    provider_reference: providerReference,
  };
}

function service(rows: Row[]) {
  const attempts: AttemptSource = { listForProvider: async () => rows };
  return createReconciliationService({ clock }, { connectors: reconciler, topups: { listForProvider: async () => [] }, attempts });
}

const DAY = { mode: 'test' as const, from: new Date('2026-11-01T00:00:00.000Z'), to: new Date('2026-11-02T00:00:00.000Z') };

describe('reconcile: redirect providers through the connector interface', () => {
  it('orange_money: asked by pay_token, amount and currency from our rows; a decline we recorded as paid, and the reverse, are status mismatches', async () => {
    const agreed = await attempt('orange_money', 'approve', 'SUCCEEDED');
    const paidHere = await attempt('orange_money', 'decline', 'SUCCEEDED');
    const failedHere = await attempt('orange_money', 'approve', 'FAILED');
    clock.advance(2 * SECOND);
    await sandbox.tick();
    const report = await service([agreed, paidHere, failedHere]).reconcile({ ...DAY, provider: 'orange_money' });
    expect(report.unverified).toEqual([]);
    expect(report.agreed).toBe(1);
    expect(report.checked.attempts).toBe(3);
    expect(report.mismatches.map((m) => [m.kind, m.reference, m.provider?.status])).toEqual([
      ['status', paidHere.reference, 'FAILED'],
      ['status', failedHere.reference, 'SUCCESSFUL'],
    ]);
    expect(report.mismatches[0]?.detail).toMatch(/we have SUCCEEDED, the provider FAILED/);
    expect(report.result).toBe('mismatched');
  });

  it('orange_money: without the stored pay_token Orange cannot be asked: unverified, never agreed', async () => {
    const row = await attempt('orange_money', 'approve', 'SUCCEEDED');
    clock.advance(2 * SECOND);
    await sandbox.tick();
    const report = await service([{ ...row, provider_reference: null }]).reconcile({ ...DAY, provider: 'orange_money' });
    expect(report.agreed).toBe(0);
    expect(report.unverified).toHaveLength(1);
    expect(report.result).toBe('unverified');
  });

  it('wave: a session declined on its page that we recorded as paid, and one Wave never saw, are mismatches', async () => {
    const agreed = await attempt('wave', 'approve', 'SUCCEEDED');
    const paidHere = await attempt('wave', 'decline', 'SUCCEEDED');
    const never: Row = { ...agreed, id: 'att_nevers', reference: newReference(), provider_reference: null };
    clock.advance(2 * SECOND);
    await sandbox.tick();
    const report = await service([agreed, paidHere, never]).reconcile({ ...DAY, provider: 'wave' });
    expect(report.agreed).toBe(1);
    expect(report.mismatches.map((m) => [m.kind, m.reference])).toEqual([
      ['status', paidHere.reference],
      ['missing_at_provider', never.reference],
    ]);
    expect(report.result).toBe('mismatched');
  });
});

describe('a redirect page lost in a crash', () => {
  it("wave: a process that never heard the session's answer reads it back by our reference, page and session id included", async () => {
    const reference = newReference();
    const started = await (server.forMode('test').get('wave') as Connector).collect({
      reference,
      amount: 2500n,
      currency: 'XOF',
      phoneNumber: '+221770000000',
      externalId: 'att_lost',
      returnUrl: 'https://shop.example/return',
    });
    expect(started).toMatchObject({ status: 'PENDING', redirectUrl: expect.any(String), providerReference: expect.any(String) });
    // Another process (the one restarted after the crash) knows only the committed reference.
    const read = await (reconciler.forMode('test').get('wave') as Connector).status('collection', reference);
    expect(read).toMatchObject({
      status: 'PENDING',
      amount: 2500n,
      redirectUrl: 'redirectUrl' in started ? started.redirectUrl : '',
      providerReference: 'providerReference' in started ? started.providerReference : '',
    });
  });
});
