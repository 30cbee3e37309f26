import { randomBytes } from 'node:crypto';
import Fastify, { type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { runAdminCommand } from '../src/admin.ts';
import { buildCli } from '../src/cli.ts';
import { SECOND } from '../src/platform/clock.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { API_RESOURCES, type AccessLevel, type ApiResource, type RouteAccess } from '../src/platform/tenancy.ts';
import { keyCeiling } from '../src/modules/dashboard/dashboard.roles.ts';
import { createPayoutsService } from '../src/modules/payouts/index.ts';
import { ApiError } from '../src/platform/errors.ts';
import { requirePermissions } from '../src/modules/dashboard/dashboard.routes.ts';
import {
  call,
  type Creds,
  createMerchant,
  createTestContext,
  type DashboardBrowser,
  dashboardBrowserOf,
  dashboardCall,
  type TestContext,
  type TestMerchant,
} from './harness.ts';

/**
 * Restricted keys (issue 30, finding 1): rk_… keys hold one access per API resource, every
 * secret-key route declares the access it needs (none declared: restricted keys refused), and
 * the dashboard lets a member create only keys within their role, live ones with a fresh TOTP
 * code; every live-mode dashboard route needs two-factor sign-in, whatever the role.
 */
let ctx: TestContext;
let m: TestMerchant;

type Browser = DashboardBrowser;
const send = (method: InjectOptions['method'], url: string, who?: Browser, body?: unknown) => dashboardCall(ctx.app, method, url, who, body);

function problem(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ status, code });
  return res.json() as { detail: string; permission?: string | null; reason?: string };
}

async function login(email: string, password: string): Promise<Browser> {
  return dashboardBrowserOf(await send('POST', '/dashboard/api/login', undefined, { email, password }));
}

/** A restricted key of the merchant, made through the service (the CLI's way). */
async function restricted(mode: 'test' | 'live', permissions: string): Promise<Creds> {
  const key = await ctx.services.merchants.createKey(m.merchantId, { kind: 'restricted', mode, name: `rk ${permissions}`, permissions });
  return { apiKey: mode === 'test' ? m.apiKey : m.live.apiKey, secretKey: key.secret };
}

/** The authenticator app's code at the ManualClock's time. */
function codeOf(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ctx.clock.now().getTime() });
}

/** To the start of the next 30-second step: a code not used yet. */
function nextStep() {
  const ms = ctx.clock.now().getTime();
  ctx.clock.set(new Date(Math.floor(ms / 30_000) * 30_000 + 30_000 + SECOND));
}

async function enrol(who: Browser): Promise<string> {
  const started = await send('POST', '/dashboard/api/account/totp', who, {});
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json() as { secret: string };
  nextStep();
  expect((await send('POST', '/dashboard/api/account/totp/confirm', who, { code: codeOf(secret) })).statusCode).toBe(200);
  nextStep();
  return secret;
}

/** A member of the team with this role, signed in. */
async function member(owner: Browser, role: 'developer' | 'analyst' | 'support'): Promise<Browser> {
  const email = `${role}-${randomBytes(3).toString('hex')}@example.com`;
  expect((await send('POST', '/dashboard/api/team/invitations', owner, { email, role })).statusCode).toBe(201);
  const mail = (await ctx.services.messaging.listForOperators({ to: email })).data[0];
  const token = /\/dashboard\/invitations\/(inv_[0-9A-Za-z]+)/.exec(mail?.body ?? '')?.[1];
  return dashboardBrowserOf(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: 'correct horse battery' }));
}

const LIVE_MOMO = {
  CAISSE_MOMO_BASE_URL: 'http://127.0.0.1:9',
  CAISSE_MOMO_API_USER: '0f6a3b2c-1d4e-4f5a-8b6c-7d8e9f0a1b2c',
  CAISSE_MOMO_API_KEY: 'live-api-key',
  CAISSE_MOMO_COLLECTION_KEY: 'live-collection-key',
  CAISSE_MOMO_DISBURSEMENT_KEY: 'live-disbursement-key',
};

beforeAll(async () => {
  ctx = await createTestContext({
    // Live mode has an MTN MoMo account (never reached): a live payout of an approved merchant is
    // judged on its merits, not refused for want of a provider.
    env: LIVE_MOMO,
    // A secret-key route that declares no access: restricted keys must be refused there.
    beforeReady: (app) => {
      app.get('/undeclared', { config: { auth: 'sk' }, schema: { hide: true } }, async () => ({ ok: true }));
    },
  });
  m = await createMerchant(ctx, 'Keys');
}, 60_000);
afterAll(() => ctx.close());

function commandOf(root: Command, path: string[]): Command {
  return path.reduce((c, name) => c.commands.find((sub) => sub.name() === name) as Command, root);
}

const sampleUrl = (url: string) => url.replace(/:[A-Za-z]+/g, 'x_00000000000000000000000000');
const LOWER: Record<'read' | 'write', AccessLevel> = { read: 'none', write: 'read' };

describe('restricted keys on the API', () => {
  it('every secret-key route declares the access it needs', () => {
    const sk = ctx.app.registeredRoutes.filter((r) => r.auth === 'sk' && r.url !== '/undeclared');
    expect(sk.length).toBeGreaterThan(30);
    for (const r of sk) expect(r.config.access, `${r.method} ${r.url} declares no config.access`).toMatch(/^[a-z_]+:(read|write)$/);
  });

  it('per route: the declared access passes, one level less is 403 permission_denied naming it; secret keys pass everywhere', async () => {
    const routes = ctx.app.registeredRoutes.filter((r) => r.auth === 'sk' && r.config.access !== undefined);
    const keys = new Map<string, Creds>();
    const keyFor = async (spec: string) => {
      if (!keys.has(spec)) keys.set(spec, await restricted('test', spec));
      return keys.get(spec) as Creds;
    };
    for (const r of routes) {
      const access = r.config.access as RouteAccess;
      const [resource, level] = access.split(':') as [ApiResource, 'read' | 'write'];
      const url = sampleUrl(r.url);
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
      const where = `${r.method} ${r.url} (${access})`;
      // Exactly this access (and every other resource at write: only this one can matter).
      const others = API_RESOURCES.filter((x) => x !== resource).map((x) => `${x}:write`);
      const enough = await call(ctx.app, r.method as InjectOptions['method'], url, await keyFor(access), body);
      expect(enough.statusCode, `${where} → ${enough.body.slice(0, 200)}`).toBeLessThan(500);
      expect(enough.statusCode === 403 && enough.json().code === 'permission_denied', `${where} refused its own access`).toBe(false);
      const lowerLevel = LOWER[level];
      const spec = lowerLevel === 'none' ? others.join(',') : [...others, `${resource}:${lowerLevel}`].join(',');
      const refused = problem(await call(ctx.app, r.method as InjectOptions['method'], url, await keyFor(spec), body), 403, 'permission_denied');
      expect(refused.detail, where).toContain(access);
      expect(refused.permission, where).toBe(access);
      const secret = await call(ctx.app, r.method as InjectOptions['method'], url, { apiKey: m.apiKey, secretKey: m.secretKey }, body);
      expect(secret.statusCode === 403 && secret.json().code === 'permission_denied', `${where}: a secret key was refused`).toBe(false);
    }
  }, 120_000);

  it('a route that declares no access refuses every restricted key (deny by default), even one with every write', async () => {
    const all = await restricted('test', API_RESOURCES.map((r) => `${r}:write`).join(','));
    const refused = problem(await call(ctx.app, 'GET', '/undeclared', all), 403, 'permission_denied');
    expect(refused.detail).toMatch(/secret key/);
    expect((await call(ctx.app, 'GET', '/undeclared', { apiKey: m.apiKey, secretKey: m.secretKey })).statusCode).toBe(200);
  });

  it('a read-only key reads and cannot move money: no payout, no refund, no intent, no payout schedule', async () => {
    const reader = await restricted('test', 'payments:read,balance:read,payouts:read');
    expect((await call(ctx.app, 'GET', '/balance', reader)).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/gateway', reader)).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/payouts', reader)).statusCode).toBe(200);
    const payout = { amount: '100', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: '+237650000000' } };
    expect(problem(await call(ctx.app, 'POST', '/payouts', reader, payout), 403, 'permission_denied').detail).toContain('payouts:write');
    problem(await call(ctx.app, 'PUT', '/payout-schedule', reader, { interval: 'daily' }), 403, 'permission_denied');
    problem(await call(ctx.app, 'POST', '/gateway', reader, { amount: '5000', currency: 'XAF' }), 403, 'permission_denied');
    problem(await call(ctx.app, 'POST', '/gateway/pi_x/refunds', reader, {}), 403, 'permission_denied');
    problem(await call(ctx.app, 'GET', '/users', reader), 403, 'permission_denied');
  });

  it('is stored as a hash, shown once, named; last use recorded; same merchant and mode rules; revoked and rolled like secret keys', async () => {
    const created = await ctx.services.merchants.createKey(m.merchantId, { kind: 'restricted', mode: 'test', name: 'Reporting', permissions: 'balance:read' });
    expect(created.secret).toMatch(/^rk_test_[0-9A-Za-z]{30,}$/);
    expect(created).toMatchObject({ kind: 'restricted', name: 'Reporting', permissions: { balance: 'read', payouts: 'none', payments: 'none' } });
    const row = await ctx.deps.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.key_hash.equals(sha256(created.secret))).toBe(true);
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(8));
    const creds = { apiKey: m.apiKey, secretKey: created.secret };
    expect((await call(ctx.app, 'GET', '/balance', creds)).statusCode).toBe(200);
    expect((await ctx.services.merchants.listKeys(m.merchantId)).find((k) => k.id === created.id)?.lastUsedAt).not.toBeNull();
    // Other merchant's API key, other mode, misplaced.
    const other = await createMerchant(ctx, 'Other');
    expect(problem(await call(ctx.app, 'GET', '/balance', { apiKey: other.apiKey, secretKey: created.secret }), 401, 'secret_key_required').reason).toBe(
      'other_merchant',
    );
    expect(problem(await call(ctx.app, 'GET', '/balance', { apiKey: m.live.apiKey, secretKey: created.secret }), 401, 'secret_key_required').reason).toBe(
      'other_mode',
    );
    expect(problem(await call(ctx.app, 'GET', '/balance', { apiKey: created.secret }), 401, 'api_key_invalid').detail).toMatch(/rk_/);
    // Rolled: the new key has the same permissions; the old one ends with its grace.
    const rolled = await ctx.services.merchants.rollKey(m.merchantId, created.id, 0);
    expect(rolled.new).toMatchObject({ kind: 'restricted', permissions: created.permissions });
    expect(rolled.new.secret).toMatch(/^rk_test_/);
    expect(problem(await call(ctx.app, 'GET', '/balance', creds), 401, 'secret_key_invalid').reason).toBe('expired');
    const fresh = { apiKey: m.apiKey, secretKey: rolled.new.secret };
    expect((await call(ctx.app, 'GET', '/balance', fresh)).statusCode).toBe(200);
    problem(await call(ctx.app, 'GET', '/payouts', fresh), 403, 'permission_denied');
    await ctx.services.merchants.revokeKey(m.merchantId, rolled.new.id);
    expect(problem(await call(ctx.app, 'GET', '/balance', fresh), 401, 'secret_key_invalid').reason).toBe('revoked');
  });

  it('the CLI creates one: keys create --kind restricted --permissions payments:read,balance:read', async () => {
    const created = await runAdminCommand(ctx.services, 'keys.create', {
      merchantId: m.merchantId,
      kind: 'restricted',
      mode: 'live',
      name: 'Reporting',
      allowedOrigins: [],
      permissions: 'payments:read,balance:read',
    });
    expect(created).toMatchObject({ kind: 'restricted', mode: 'live', permissions: { payments: 'read', balance: 'read', payouts: 'none' } });
    const secret = (created as { secret: string }).secret;
    expect(secret).toMatch(/^rk_live_/);
    expect((await call(ctx.app, 'GET', '/balance', { apiKey: m.live.apiKey, secretKey: secret })).statusCode).toBe(200);
    problem(await call(ctx.app, 'GET', '/payouts', { apiKey: m.live.apiKey, secretKey: secret }), 403, 'permission_denied');
    // The other kinds work as before.
    const pair = await runAdminCommand(ctx.services, 'keys.create', { merchantId: m.merchantId, kind: 'both', mode: 'test', name: 'Pair', allowedOrigins: [] });
    expect(pair).toMatchObject({ apiKey: { kind: 'publishable', permissions: null }, secretKey: { kind: 'secret', permissions: null } });
    const create = commandOf(buildCli(), ['keys', 'create']);
    expect(create.options.find((o) => o.long === '--kind')?.argChoices).toContain('restricted');
    expect(create.options.some((o) => o.long === '--permissions')).toBe(true);
  });

  it('refuses permissions that make no sense: unknown resource or level, none at all, on another kind', async () => {
    const make = (kind: 'restricted' | 'secret', permissions?: string) =>
      ctx.services.merchants.createKey(m.merchantId, { kind, mode: 'test', name: 'x', permissions });
    await expect(make('restricted', 'money:write')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(make('restricted', '__proto__:read,payments:read')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(make('restricted', 'payouts:all')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(make('restricted', 'payouts:none')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(make('restricted')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(make('secret', 'payouts:read')).rejects.toMatchObject({ code: 'validation_error' });
  });
});

describe('keys from the dashboard', () => {
  let owner: Browser;
  let developer: Browser;
  let analyst: Browser;
  let ownerSecret: string;
  let developerSecret: string;

  beforeAll(async () => {
    owner = await login(m.dashboard.email, m.dashboard.password);
    developer = await member(owner, 'developer');
    analyst = await member(owner, 'analyst');
  }, 60_000);

  it('a member creates only keys within their role: a secret key takes an owner', async () => {
    const ceiling = keyCeiling('developer');
    expect(ceiling).toMatchObject({ payouts: 'none', customers: 'none', payments: 'read', refunds: 'read', balance: 'write', webhooks: 'write' });
    const create = (who: Browser, body: Record<string, unknown>) => send('POST', '/dashboard/api/test/keys', who, { name: 'k', ...body });
    expect(problem(await create(developer, { kind: 'secret' }), 403, 'permission_denied').detail).toMatch(/only an owner/);
    for (const [resource, level] of [
      ['payouts', 'read'],
      ['payments', 'write'],
      ['refunds', 'write'],
      ['customers', 'read'],
      ['payment_links', 'write'],
    ]) {
      const refused = problem(await create(developer, { kind: 'restricted', permissions: { [resource as string]: level } }), 403, 'permission_denied');
      expect(refused.detail).toContain(`${resource}:${level}`);
    }
    const ok = await create(developer, { kind: 'restricted', permissions: { payments: 'read', balance: 'read', webhooks: 'write' } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ kind: 'restricted', permissions: { payments: 'read', balance: 'read', webhooks: 'write', payouts: 'none' } });
    expect(ok.json().secret).toMatch(/^rk_test_/);
    // An analyst has no keys:write at all; an owner may create anything.
    problem(await create(analyst, { kind: 'restricted', permissions: { payments: 'read' } }), 403, 'permission_denied');
    expect((await create(owner, { kind: 'secret' })).statusCode).toBe(201);
    expect((await create(owner, { kind: 'restricted', permissions: { payouts: 'write', customers: 'read' } })).statusCode).toBe(201);
    // The list shows each key's permissions.
    const list = (await send('GET', '/dashboard/api/test/keys', developer)).json().data as { id: string; permissions: unknown }[];
    expect(list.find((k) => k.id === ok.json().id)?.permissions).toMatchObject({ payments: 'read', webhooks: 'write' });
  });

  it('every live-mode dashboard route needs two-factor sign-in, for a developer too', async () => {
    for (const url of ['/dashboard/api/live/payments', '/dashboard/api/live/keys', '/dashboard/api/live/webhook-endpoints', '/dashboard/api/live/events']) {
      problem(await send('GET', url, developer), 403, 'totp_required');
    }
    problem(
      await send('POST', '/dashboard/api/live/keys', developer, { name: 'x', kind: 'restricted', permissions: { payments: 'read' } }),
      403,
      'totp_required',
    );
    expect((await send('GET', '/dashboard/api/test/payments', developer)).statusCode).toBe(200);
    developerSecret = await enrol(developer);
    expect((await send('GET', '/dashboard/api/live/payments', developer)).statusCode).toBe(200);
  });

  it('a live secret or restricted key needs a fresh TOTP code; a code already used is refused', async () => {
    ownerSecret = await enrol(owner);
    const body = { name: 'Live reporting', kind: 'restricted', permissions: { payments: 'read', balance: 'read' } };
    problem(await send('POST', '/dashboard/api/live/keys', developer, body), 403, 'totp_code_required');
    problem(
      await send('POST', '/dashboard/api/live/keys', developer, { ...body, code: '000000' === codeOf(developerSecret) ? '111111' : '000000' }),
      401,
      'totp_code_invalid',
    );
    const code = codeOf(developerSecret);
    const created = await send('POST', '/dashboard/api/live/keys', developer, { ...body, code });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().secret).toMatch(/^rk_live_/);
    problem(await send('POST', '/dashboard/api/live/keys', developer, { ...body, code }), 401, 'totp_code_reused');
    // The key reads live data and is refused a payout.
    const creds = { apiKey: m.live.apiKey, secretKey: created.json().secret as string };
    expect((await call(ctx.app, 'GET', '/balance', creds)).statusCode).toBe(200);
    problem(
      await call(ctx.app, 'POST', '/payouts', creds, { amount: '100', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: '+237650000000' } }),
      403,
      'permission_denied',
    );
    // An owner's live secret key takes a code as well; a publishable key does not.
    problem(await send('POST', '/dashboard/api/live/keys', owner, { name: 'Live server', kind: 'secret' }), 403, 'totp_code_required');
    nextStep();
    const secret = await send('POST', '/dashboard/api/live/keys', owner, { name: 'Live server', kind: 'secret', code: codeOf(ownerSecret) });
    expect(secret.statusCode, secret.body).toBe(201);
    expect((await send('POST', '/dashboard/api/live/keys', developer, { name: 'Live shop', kind: 'publishable' })).statusCode).toBe(201);
    // Rolling issues the same key again: a developer cannot roll the owner's secret key; the owner needs a code.
    nextStep();
    problem(
      await send('POST', `/dashboard/api/live/keys/${secret.json().id}/roll`, developer, { graceSeconds: 0, code: codeOf(developerSecret) }),
      403,
      'permission_denied',
    );
    problem(await send('POST', `/dashboard/api/live/keys/${secret.json().id}/roll`, owner, { graceSeconds: 0 }), 403, 'totp_code_required');
    const rolled = await send('POST', `/dashboard/api/live/keys/${secret.json().id}/roll`, owner, { graceSeconds: 0, code: codeOf(ownerSecret) });
    expect(rolled.statusCode, rolled.body).toBe(200);
  });

  it('the audit log names the permissions each key was given', async () => {
    const entries = (await send('GET', '/dashboard/api/audit-log?action=key.created&limit=100', owner)).json().data as {
      mode: string;
      details: Record<string, unknown>;
    }[];
    const live = entries.find((e) => e.mode === 'live' && e.details.name === 'Live reporting');
    expect(live?.details).toMatchObject({ kind: 'restricted', permissions: { payments: 'read', balance: 'read', payouts: 'none', refunds: 'none' } });
    const secret = entries.find((e) => e.mode === 'live' && e.details.name === 'Live server');
    expect(secret?.details.permissions).toEqual(Object.fromEntries(API_RESOURCES.map((r) => [r, 'write'])));
    const rolled = (await send('GET', '/dashboard/api/audit-log?action=key.rolled', owner)).json().data as { details: Record<string, unknown> }[];
    expect(rolled[0]?.details).toMatchObject({ kind: 'secret', permissions: { payouts: 'write' } });
  });
});

/**
 * Live mode needs the operator's approval (issue 52): every way a request or a job comes to act in
 * live mode refuses a merchant that is not approved, with 403 `merchant_not_approved`, reads
 * included (docs/decisions/0062-live-mode-gated-by-approval.md). The routes are enumerated from
 * the app, so a route added later is covered without a line here.
 */
describe('live mode needs the approval of the merchant (issue 52)', () => {
  const PASSWORD = 'correct horse battery';
  interface Shop {
    merchantId: string;
    email: string;
    browser: Browser;
    /** Live keys, made while approved (an unapproved merchant cannot make one): approval withdrawn since. */
    live: Creds;
  }
  let unapproved: Shop;
  let approved: Shop;

  /** Signs in as a person with an authenticator app does: password, then a fresh code (POST /login/totp). */
  async function signInWithTotp(email: string): Promise<Browser> {
    const first = await send('POST', '/dashboard/api/login', undefined, { email, password: PASSWORD });
    const secret = await enrol(dashboardBrowserOf(first));
    const step = await send('POST', '/dashboard/api/login', undefined, { email, password: PASSWORD });
    expect(step.json(), step.body).toMatchObject({ mfaRequired: true });
    return dashboardBrowserOf(await send('POST', '/dashboard/api/login/totp', undefined, { challenge: step.json().challenge, code: codeOf(secret) }));
  }

  async function shop(name: string, approval: boolean): Promise<Shop> {
    const email = `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`;
    const { merchantId } = await ctx.services.merchants.createMerchant({ name, email, dashboardPassword: PASSWORD, approved: approval });
    const setApproved = (at: Date | null) => ctx.deps.db.transaction().execute((tx) => ctx.services.merchants.setApproved(tx, merchantId, at));
    if (!approval) await setApproved(ctx.clock.now());
    const pk = await ctx.services.merchants.createKey(merchantId, { kind: 'publishable', mode: 'live', name: 'live' });
    const skLive = await ctx.services.merchants.createKey(merchantId, { kind: 'secret', mode: 'live', name: 'live secret' });
    if (!approval) await setApproved(null);
    return { merchantId, email, browser: await signInWithTotp(email), live: { apiKey: pk.secret, secretKey: skLive.secret } };
  }

  const liveRows = async (table: 'intents' | 'payment_links' | 'webhook_endpoints' | 'payouts', merchantId: string) =>
    (await ctx.deps.db.selectFrom(table).select('id').where('merchant_id', '=', merchantId).where('mode', '=', 'live').execute()).length;

  const LINK = { amount: '2500', currency: 'XAF', description: 'Tote bag' };
  const ENDPOINT = { url: 'https://shop.example.com/hooks' };
  const METHODS = { wallet: false };
  const PAYOUT = { amount: '100', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: '+237650000000' } };

  beforeAll(async () => {
    unapproved = await shop('Pending', false);
    approved = await shop('Approved', true);
  }, 60_000);

  it('every API route under live keys: 403 merchant_not_approved, whatever the route asks', async () => {
    const routes = ctx.app.registeredRoutes.filter((r) => r.auth !== 'none');
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const creds: Creds =
        route.auth === 'sk'
          ? unapproved.live
          : route.auth === 'user'
            ? { apiKey: unapproved.live.apiKey, token: 'not-a-token' }
            : { apiKey: unapproved.live.apiKey };
      const res = await call(
        ctx.app,
        route.method as InjectOptions['method'],
        sampleUrl(route.url),
        creds,
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      );
      expect(`${route.method} ${route.url} → ${res.statusCode} ${res.json().code}`).toBe(`${route.method} ${route.url} → 403 merchant_not_approved`);
    }
    // The same keys' mode, once approved, opens these routes.
    expect((await call(ctx.app, 'GET', '/balance', approved.live)).statusCode).toBe(200);
  });

  it('every /dashboard/api/live/… route, to an owner signed in with two-factor: 403 merchant_not_approved; test mode is open', async () => {
    const routes = ctx.app.registeredRoutes.filter((r) => r.url.startsWith('/dashboard/api/') && r.url.split('/').includes(':mode'));
    // Payments, customers, keys, webhooks, events, payouts, balance, links, methods, messages…
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const url = sampleUrl(route.url.replace(':mode', 'live'));
      const res = await send(
        route.method as InjectOptions['method'],
        url,
        unapproved.browser,
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      );
      expect(`${route.method} ${url} → ${res.statusCode} ${res.json().code}`).toBe(`${route.method} ${url} → 403 merchant_not_approved`);
    }
    for (const url of [
      '/dashboard/api/test/payments',
      '/dashboard/api/test/balance',
      '/dashboard/api/test/payment-links',
      '/dashboard/api/test/webhook-endpoints',
    ]) {
      expect((await send('GET', url, unapproved.browser)).statusCode, url).toBe(200);
    }
    // Routes without a mode (the account, the team, the profile) are not live mode.
    expect((await send('GET', '/dashboard/api/session', unapproved.browser)).statusCode).toBe(200);
  });

  it('a dashboard route that names its mode, or leaves :mode unchecked, cannot be registered: the app does not build', async () => {
    for (const [url, schema, error] of [
      ['/live/thing', undefined, /names a mode/],
      ['/:mode/thing', undefined, /params schema does not check/],
    ] as const) {
      const app = Fastify();
      requirePermissions(app);
      await expect(
        (async () => {
          app.get(url, { config: { permission: 'payments:read' }, ...(schema ? { schema } : {}) }, async () => 'oops');
          await app.ready();
        })(),
      ).rejects.toThrow(error);
      await app.close().catch(() => {});
    }
  });

  it('a live payment link: not created from the dashboard; one that exists opens nothing, and no path makes a live intent', async () => {
    problem(await send('POST', '/dashboard/api/live/payment-links', unapproved.browser, LINK), 403, 'merchant_not_approved');
    problem(await call(ctx.app, 'POST', '/payment-links', unapproved.live, LINK), 403, 'merchant_not_approved');
    expect(await liveRows('payment_links', unapproved.merchantId)).toBe(0);

    // A live link of the merchant (made before the approval was withdrawn): its visits, by a
    // person or a preview robot, answer the unavailable page and create no intent.
    const link = await ctx.services.paymentLinks.create({ merchantId: unapproved.merchantId, mode: 'live' }, LINK, 'http://localhost');
    for (let i = 0; i < 3; i++) {
      const visit = await ctx.app.inject({ method: 'GET', url: `/pay/${link.id}`, headers: { 'accept-language': 'en' } });
      expect(visit.statusCode).toBe(410);
      expect(visit.headers.location).toBeUndefined();
    }
    expect((await ctx.app.inject({ method: 'HEAD', url: `/pay/${link.id}` })).statusCode).toBe(410);
    expect((await ctx.app.inject({ method: 'GET', url: `/pay/${link.id}`, headers: { 'user-agent': 'WhatsApp/2.23' } })).statusCode).toBe(410);
    expect(await liveRows('intents', unapproved.merchantId)).toBe(0);

    // Below the routes, intent creation itself refuses: a path added later cannot make one either.
    await expect(
      ctx.services.intents.create(
        { merchantId: unapproved.merchantId, mode: 'live', intentExpiresIn: 1800, approved: false, merchantCountry: 'CM' },
        { amount: '100', currency: 'XAF' },
      ),
    ).rejects.toMatchObject({ code: 'merchant_not_approved' });
    expect(await liveRows('intents', unapproved.merchantId)).toBe(0);
  });

  it('a live webhook endpoint and live method settings: 403 merchant_not_approved, nothing stored', async () => {
    problem(await send('POST', '/dashboard/api/live/webhook-endpoints', unapproved.browser, ENDPOINT), 403, 'merchant_not_approved');
    expect(await liveRows('webhook_endpoints', unapproved.merchantId)).toBe(0);
    problem(await send('PUT', '/dashboard/api/live/payment-methods/settings', unapproved.browser, METHODS), 403, 'merchant_not_approved');
    expect(await ctx.services.methods.walletAllowed({ merchantId: unapproved.merchantId, mode: 'live' })).toBe(true);
  });

  it('a live payout: refused as not approved (not 503), from the dashboard, the API and the service alike', async () => {
    problem(await send('POST', '/dashboard/api/live/payouts', unapproved.browser, PAYOUT), 403, 'merchant_not_approved');
    problem(await send('PUT', '/dashboard/api/live/payout-schedule', unapproved.browser, { interval: 'daily' }), 403, 'merchant_not_approved');
    problem(await call(ctx.app, 'POST', '/payouts', unapproved.live, PAYOUT), 403, 'merchant_not_approved');
    await expect(
      ctx.services.payouts.create({ merchantId: unapproved.merchantId, mode: 'live', pinnedVersion: '2026-11-01', merchantCountry: 'CM' }, PAYOUT),
    ).rejects.toMatchObject({
      code: 'merchant_not_approved',
    });
    expect(await liveRows('payouts', unapproved.merchantId)).toBe(0);
  });

  it('the hosted checkout page of a live intent of a merchant no longer approved shows nothing and makes no key', async () => {
    const other = await shop('Withdrawn', true);
    const intent = await call(ctx.app, 'POST', '/gateway', other.live, { amount: '1000', currency: 'XAF' });
    expect(intent.statusCode, intent.body).toBe(201);
    await ctx.deps.db.transaction().execute((tx) => ctx.services.merchants.setApproved(tx, other.merchantId, null));
    expect(await ctx.services.dashboard.checkoutPage(intent.json().sessionToken)).toBeNull();
    problem(await call(ctx.app, 'GET', `/gateway/${intent.json().id}`, other.live), 403, 'merchant_not_approved');
  });

  it('an approved merchant (the CLI makes them approved) keeps live mode: link, visit, endpoint, settings, payout', async () => {
    const link = await send('POST', '/dashboard/api/live/payment-links', approved.browser, LINK);
    expect(link.statusCode, link.body).toBe(201);
    const visit = await ctx.app.inject({ method: 'GET', url: `/pay/${link.json().id}` });
    expect(visit.statusCode, visit.body).toBe(303);
    expect(await liveRows('intents', approved.merchantId)).toBe(1);
    const endpoint = await send('POST', '/dashboard/api/live/webhook-endpoints', approved.browser, ENDPOINT);
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const settings = await send('PUT', '/dashboard/api/live/payment-methods/settings', approved.browser, METHODS);
    expect(settings.statusCode, settings.body).toBe(200);
    expect((await send('GET', '/dashboard/api/live/balance', approved.browser)).statusCode).toBe(200);
    // Past the approval and the provider: judged on its money (this test has no live funds).
    problem(await send('POST', '/dashboard/api/live/payouts', approved.browser, PAYOUT), 409, 'balance_insufficient');
    problem(await call(ctx.app, 'POST', '/payouts', approved.live, PAYOUT), 409, 'balance_insufficient');
  });

  // Last: it moves the clock a day on, past the sessions' lives.
  it('the payout scheduler makes no live payout for a merchant not approved, and does for an approved one', async () => {
    const daily = { interval: 'daily' as const, destination: PAYOUT.destination };
    // Saved before the approval was withdrawn (the routes refuse it now): the service's way.
    await ctx.services.payouts.setSchedule({ merchantId: unapproved.merchantId, mode: 'live', merchantCountry: 'CM' }, daily);
    problem(await send('PUT', '/dashboard/api/live/payout-schedule', unapproved.browser, daily), 403, 'merchant_not_approved');
    expect((await send('PUT', '/dashboard/api/live/payout-schedule', approved.browser, daily)).statusCode).toBe(200);
    // Balances that always hold 50 000 XAF; a debit records who was paid, then gives up as a race
    // lost would (the scheduler's own way to skip), so no provider is called.
    const paid: string[] = [];
    const balances = {
      ...ctx.services.balances,
      availableMinor: async () => [{ currency: 'XAF' as const, amount: 50_000n }],
      debitForPayout: async (_tx: unknown, scope: { merchantId: string }) => {
        paid.push(scope.merchantId);
        throw new ApiError('balance_insufficient', 'taken meanwhile');
      },
    };
    const scheduler = createPayoutsService(ctx.deps, {
      balances,
      connectors: ctx.services.connectors,
      events: ctx.services.events,
      pinnedVersions: ctx.services.merchants.pinnedVersions,
      isApproved: ctx.services.merchants.isApproved,
    });
    ctx.clock.advance(25 * 60 * 60 * SECOND);
    await scheduler.runDueSchedules();
    expect(paid).toContain(approved.merchantId);
    expect(paid).not.toContain(unapproved.merchantId);
  });
});
