import { randomBytes } from 'node:crypto';
import Fastify, { type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePermissions } from '../src/modules/dashboard/dashboard.routes.ts';
import { can, type Permission, permissionsOf, ROLES, type Role } from '../src/modules/dashboard/dashboard.roles.ts';
import { DAY } from '../src/platform/clock.ts';
import { authorize, charge, createIntent, newUser } from './flow.support.ts';
import { createMerchant, createTestContext, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Dashboard team roles (issue 22): the server refuses what a role lacks (every dashboard API route
 * × every role, from the app's own route list), invitations and their single use, the guard rails
 * of the last owner, sessions ending with a removal, and the audit log.
 */
let ctx: TestContext;
let m: TestMerchant;

interface Browser {
  cookie: string;
  csrf: string;
}

function send(method: InjectOptions['method'], url: string, who?: Browser, body?: unknown) {
  const headers: Record<string, string> = {};
  if (who) {
    headers.cookie = who.cookie;
    headers['x-csrf-token'] = who.csrf;
  }
  return ctx.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}) });
}

function browserOf(res: LightMyRequestResponse): Browser {
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken };
}

async function login(email: string, password: string): Promise<Browser> {
  return browserOf(await send('POST', '/dashboard/api/login', undefined, { email, password }));
}

function expectProblem(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ status, code });
  return res.json() as Record<string, unknown>;
}

/**
 * The token of the newest invitation e-mail to `email`, read from the operator outbox: never from
 * the inviter's test outbox, or the inviter could accept it (issue 52).
 */
async function invitationToken(merchantId: string, email: string): Promise<string> {
  const inviters = await ctx.services.messaging.list({ merchantId, mode: 'test', limit: 100 });
  expect(inviters.data.some((msg) => msg.to === email)).toBe(false);
  const mail = (await ctx.services.messaging.listForOperators({ to: email, limit: 100 })).data[0];
  const token = /\/dashboard\/invitations\/(inv_[0-9A-Za-z]+)/.exec(mail?.body ?? '')?.[1];
  expect(token, `no invitation e-mail to ${email}`).toBeDefined();
  return token as string;
}

const PASSWORD = 'correct horse battery';
let owner: Browser;
const sessions = {} as Record<Role, Browser>;
const emails = {} as Record<Role, string>;

async function invite(by: Browser, email: string, role: Role) {
  return send('POST', '/dashboard/api/team/invitations', by, { email, role });
}

/** Invites `email` as `role` and accepts: the new member's signed-in browser. */
async function member(role: Role, email = `${role}-${randomBytes(3).toString('hex')}@example.com`): Promise<Browser> {
  expect((await invite(owner, email, role)).statusCode).toBe(201);
  const token = await invitationToken(m.merchantId, email);
  return browserOf(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: PASSWORD }));
}

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Team');
  owner = await login(m.dashboard.email, m.dashboard.password);
  sessions.owner = owner;
  emails.owner = m.dashboard.email;
  for (const role of ['developer', 'analyst', 'support'] as const) {
    emails[role] = `${role}-${randomBytes(3).toString('hex')}@example.com`;
    sessions[role] = await member(role, emails[role]);
  }
}, 60_000);
afterAll(() => ctx.close());

describe('roles enforced by the server', () => {
  it('a session route without a permission cannot be registered: the app does not build', async () => {
    const app = Fastify();
    requirePermissions(app);
    app.get('/public', { config: { dashboard: 'public' } }, async () => 'ok');
    app.get('/fine', { config: { permission: 'keys:read' } }, async () => 'ok');
    await expect(
      (async () => {
        app.get('/forgotten', { config: {} }, async () => 'oops');
        await app.ready();
      })(),
    ).rejects.toThrow(/GET \/forgotten has no permission/);
    const typo = Fastify();
    requirePermissions(typo);
    await expect(
      (async () => {
        typo.post('/typo', { config: { permission: 'keys:wirte' as Permission } }, async () => 'oops');
        await typo.ready();
      })(),
    ).rejects.toThrow(/has no permission/);
    await app.close().catch(() => {});
  });

  it('the session answers the role and its permissions', async () => {
    for (const role of ROLES) {
      const res = await send('GET', '/dashboard/api/session', sessions[role]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: emails[role], role, permissions: permissionsOf(role) });
    }
    expect(permissionsOf('analyst')).not.toContain('keys:write');
  });

  it('every dashboard API route × every role: allowed, or 403 permission_denied, as dashboard.roles.ts says', async () => {
    const routes = ctx.app.registeredRoutes.filter((r) => r.url.startsWith('/dashboard/api/') && r.config.dashboard !== 'public');
    // Every session route declares a permission (the build would have failed otherwise).
    expect(routes.length).toBeGreaterThan(40);
    for (const r of routes) expect(r.config.permission, `${r.method} ${r.url}`).toBeDefined();
    // Signing out ends the session: last.
    const ordered = [...routes.filter((r) => !r.url.endsWith('/logout')), ...routes.filter((r) => r.url.endsWith('/logout'))];
    let checked = 0;
    for (const role of ROLES) {
      const who = await login(emails[role], role === 'owner' ? m.dashboard.password : PASSWORD);
      for (const r of ordered) {
        const url = r.url.replace(':mode', 'test').replace(/:id|:token/g, 'x_00000000000000000000000000');
        const body = ['POST', 'PUT', 'PATCH'].includes(r.method) ? {} : undefined;
        const res = await send(r.method as InjectOptions['method'], url, who, body);
        const permission = r.config.permission as Permission;
        const where = `${role} ${r.method} ${r.url} (${permission}) → ${res.statusCode} ${res.body.slice(0, 160)}`;
        const denied = res.statusCode === 403 && res.json().code === 'permission_denied';
        expect(denied, where).toBe(!can(role, permission));
        if (denied) expect(res.json().detail, where).toContain(`(${role})`);
        expect(res.statusCode, where).toBeLessThan(500);
        checked++;
      }
    }
    expect(checked).toBe(routes.length * ROLES.length);
    // Some of those calls ended the members' other sessions (revoke-others): sign them in again.
    for (const role of ROLES) sessions[role] = await login(emails[role], role === 'owner' ? m.dashboard.password : PASSWORD);
    owner = sessions.owner;
  }, 120_000);

  it('an analyst cannot create a key (403); a developer can (not a secret key: it may do everything), and cannot pay out', async () => {
    const denied = expectProblem(await send('POST', '/dashboard/api/test/keys', sessions.analyst, { name: 'x', kind: 'secret' }), 403, 'permission_denied');
    expect(denied.detail).toMatch(/analyst.*keys:write/);
    expect((await send('POST', '/dashboard/api/test/keys', sessions.developer, { name: 'dev key', kind: 'publishable' })).statusCode).toBe(201);
    expect(
      (await send('POST', '/dashboard/api/test/keys', sessions.developer, { name: 'dev key', kind: 'restricted', permissions: { payments: 'read' } }))
        .statusCode,
    ).toBe(201);
    expectProblem(await send('POST', '/dashboard/api/test/keys', sessions.developer, { name: 'dev key', kind: 'secret' }), 403, 'permission_denied');
    expectProblem(
      await send('POST', '/dashboard/api/test/payouts', sessions.developer, {
        amount: '100',
        currency: 'XAF',
        destination: { provider: 'mtn_momo', phoneNumber: '+237650000000' },
      }),
      403,
      'permission_denied',
    );
  });
});

describe('team and invitations', () => {
  it('the invitation link starts with CAISSE_PUBLIC_URL when it is set', async () => {
    const pub = await createTestContext({ env: { CAISSE_PUBLIC_URL: 'https://pay.example.com' } });
    try {
      const boss = await createMerchant(pub, 'Public team');
      const signIn = await pub.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: boss.dashboard });
      const headers = { cookie: String(signIn.headers['set-cookie']).split(';')[0] as string, 'x-csrf-token': signIn.json().csrfToken as string };
      const email = `public-${randomBytes(3).toString('hex')}@example.com`;
      const res = await pub.app.inject({ method: 'POST', url: '/dashboard/api/team/invitations', headers, payload: { email, role: 'analyst' } });
      expect(res.statusCode, res.body).toBe(201);
      const mail = (await pub.services.messaging.listForOperators({ to: email })).data[0];
      expect(mail?.body).toMatch(/https:\/\/pay\.example\.com\/dashboard\/invitations\/inv_[0-9A-Za-z]+/);
    } finally {
      await pub.close();
    }
  });

  it("lists members with roles and pending invitations; the invitation e-mail is in the inviter's language with a 7-day link", async () => {
    const email = `pending-${randomBytes(3).toString('hex')}@example.com`;
    const created = await invite(owner, email, 'support');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ object: 'dashboard_invitation', email, role: 'support', invitedBy: m.dashboard.email });
    expect(Date.parse(created.json().expiresAt) - ctx.clock.now().getTime()).toBe(7 * DAY);
    const team = (await send('GET', '/dashboard/api/team', sessions.analyst)).json();
    const roleOf = (list: { email: string; role: string }[]) => list.map((x) => `${x.email} ${x.role}`).sort();
    expect(roleOf(team.members)).toEqual(roleOf(ROLES.map((role) => ({ email: emails[role], role }))));
    expect(team.invitations.map((i: { email: string }) => i.email)).toContain(email);
    // The merchant's language is French by default: the e-mail is French; only the token's hash is stored.
    const mail = (await ctx.services.messaging.listForOperators({ to: email })).data[0];
    expect(mail?.body).toMatch(/vous invite à rejoindre l'équipe de Team.*support/s);
    const token = await invitationToken(m.merchantId, email);
    const rows = await ctx.deps.db.selectFrom('dashboard_invitations').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(ctx.logs.join('')).not.toContain(token);
  });

  it('refuses an e-mail that already has an account, from any merchant, and a bad role or address', async () => {
    expectProblem(await invite(owner, emails.analyst.toUpperCase(), 'developer'), 409, 'already_exists');
    const other = await createMerchant(ctx, 'Elsewhere');
    expectProblem(await invite(owner, other.dashboard.email, 'developer'), 409, 'already_exists');
    expectProblem(await invite(owner, 'x@example.com', 'admin' as Role), 400, 'validation_error');
    expectProblem(await invite(owner, 'not an address', 'analyst'), 400, 'validation_error');
  });

  it('an invitation is single use: accepted once, then 410 invitation_used; an unknown link 404', async () => {
    const email = `once-${randomBytes(3).toString('hex')}@example.com`;
    await invite(owner, email, 'analyst');
    const token = await invitationToken(m.merchantId, email);
    const preview = await send('GET', `/dashboard/api/invitations/${token}`);
    expect(preview.json()).toMatchObject({ email, role: 'analyst', merchant: { name: 'Team' } });
    expectProblem(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: 'short' }), 400, 'password_weak');
    expectProblem(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: 'password123' }), 400, 'password_weak');
    const session = browserOf(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: PASSWORD, language: 'en' }));
    expect((await send('GET', '/dashboard/api/session', session)).json()).toMatchObject({ email, role: 'analyst', language: 'en' });
    expectProblem(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: PASSWORD }), 410, 'invitation_used');
    expectProblem(await send('GET', `/dashboard/api/invitations/${token}`), 410, 'invitation_used');
    expectProblem(await send('GET', '/dashboard/api/invitations/inv_nothingnothingnothingnothingnothingnothing1'), 404, 'invitation_not_found');
    expectProblem(await send('POST', '/dashboard/api/invitations/whatever/accept', undefined, { password: PASSWORD }), 404, 'invitation_not_found');
  });

  it('two acceptances of one link at once: one account, the other 410 invitation_used', async () => {
    const email = `race-${randomBytes(3).toString('hex')}@example.com`;
    await invite(owner, email, 'support');
    const token = await invitationToken(m.merchantId, email);
    const both = await Promise.all([1, 2].map(() => send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: PASSWORD })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 410]);
    expect(both.find((r) => r.statusCode === 410)?.json().code).toBe('invitation_used');
    const accounts = await ctx.deps.db.selectFrom('dashboard_users').select('id').where('email', '=', email).execute();
    expect(accounts).toHaveLength(1);
  });

  it('an invitation expires after 7 days (410 invitation_expired), on the injected clock', async () => {
    const email = `late-${randomBytes(3).toString('hex')}@example.com`;
    await invite(owner, email, 'analyst');
    const token = await invitationToken(m.merchantId, email);
    ctx.clock.advance(7 * DAY - 1000);
    expect((await send('GET', `/dashboard/api/invitations/${token}`)).statusCode).toBe(200);
    ctx.clock.advance(1000);
    expectProblem(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: PASSWORD }), 410, 'invitation_expired');
    // The team's sessions were idle for 7 days: sign in again.
    owner = await login(m.dashboard.email, m.dashboard.password);
    sessions.owner = owner;
    for (const role of ['developer', 'analyst', 'support'] as const) sessions[role] = await login(emails[role], PASSWORD);
    const team = (await send('GET', '/dashboard/api/team', owner)).json();
    expect(team.invitations.map((i: { email: string }) => i.email)).not.toContain(email);
  });

  it('a revoked invitation answers 410 invitation_revoked; a new invitation replaces the old link', async () => {
    const email = `revoked-${randomBytes(3).toString('hex')}@example.com`;
    const created = (await invite(owner, email, 'developer')).json();
    const token = await invitationToken(m.merchantId, email);
    expectProblem(await send('DELETE', `/dashboard/api/team/invitations/${created.id}`, sessions.developer), 403, 'permission_denied');
    expect((await send('DELETE', `/dashboard/api/team/invitations/${created.id}`, owner)).statusCode).toBe(200);
    expectProblem(await send('POST', `/dashboard/api/invitations/${token}/accept`, undefined, { password: PASSWORD }), 410, 'invitation_revoked');
    expectProblem(await send('DELETE', '/dashboard/api/team/invitations/dinv_unknown', owner), 404, 'invitation_not_found');

    await invite(owner, email, 'analyst');
    const first = await invitationToken(m.merchantId, email);
    ctx.clock.advance(1000);
    await invite(owner, email, 'support');
    const second = await invitationToken(m.merchantId, email);
    expect(second).not.toBe(first);
    expectProblem(await send('GET', `/dashboard/api/invitations/${first}`), 410, 'invitation_revoked');
    expect((await send('GET', `/dashboard/api/invitations/${second}`)).json().role).toBe('support');
  });

  it('changes roles at once; the last owner can be neither demoted nor removed', async () => {
    const team = (await send('GET', '/dashboard/api/team', owner)).json();
    const ownerId = team.members.find((x: { role: string }) => x.role === 'owner').id as string;
    expectProblem(await send('PATCH', `/dashboard/api/team/members/${ownerId}`, owner, { role: 'analyst' }), 409, 'last_owner');
    expectProblem(await send('DELETE', `/dashboard/api/team/members/${ownerId}`, owner), 409, 'last_owner');
    expectProblem(await send('PATCH', '/dashboard/api/team/members/du_unknown', owner, { role: 'analyst' }), 404, 'not_found');

    const dev = await member('developer');
    const devId = (await send('GET', '/dashboard/api/session', dev)).json().email as string;
    const devRow = (await send('GET', '/dashboard/api/team', owner)).json().members.find((x: { email: string }) => x.email === devId);
    expect((await send('GET', '/dashboard/api/test/keys', dev)).statusCode).toBe(200);
    const changed = await send('PATCH', `/dashboard/api/team/members/${devRow.id}`, owner, { role: 'support' });
    expect(changed.json()).toMatchObject({ id: devRow.id, role: 'support' });
    // The same session, its next request: the new role's rights.
    expectProblem(await send('GET', '/dashboard/api/test/keys', dev), 403, 'permission_denied');
    // A second owner: now the first may step down.
    expect((await send('PATCH', `/dashboard/api/team/members/${devRow.id}`, owner, { role: 'owner' })).statusCode).toBe(200);
    expect((await send('PATCH', `/dashboard/api/team/members/${ownerId}`, owner, { role: 'developer' })).statusCode).toBe(200);
    expect((await send('PATCH', `/dashboard/api/team/members/${ownerId}`, dev, { role: 'owner' })).statusCode).toBe(200);
    expect((await send('DELETE', `/dashboard/api/team/members/${devRow.id}`, owner)).statusCode).toBe(204);
  });

  it('removing a member ends their sessions at once: their next request is 401', async () => {
    const email = `removed-${randomBytes(3).toString('hex')}@example.com`;
    const gone = await member('support', email);
    const second = await login(email, PASSWORD);
    const id = (await send('GET', '/dashboard/api/team', owner)).json().members.find((x: { email: string }) => x.email === email).id as string;
    expect((await send('DELETE', `/dashboard/api/team/members/${id}`, owner)).statusCode).toBe(204);
    expectProblem(await send('GET', '/dashboard/api/test/payments', gone), 401, 'session_required');
    expectProblem(await send('GET', '/dashboard/api/session', second), 401, 'session_required');
    expect(await ctx.deps.db.selectFrom('dashboard_sessions').selectAll().where('dashboard_user_id', '=', id).execute()).toEqual([]);
    expectProblem(await send('POST', '/dashboard/api/login', undefined, { email, password: PASSWORD }), 401, 'invalid_credentials');
    // Another merchant's owner cannot touch this team.
    const other = await createMerchant(ctx, 'Stranger');
    const stranger = await login(other.dashboard.email, other.dashboard.password);
    const analystId = (await send('GET', '/dashboard/api/team', owner)).json().members.find((x: { role: string }) => x.role === 'analyst').id as string;
    expectProblem(await send('DELETE', `/dashboard/api/team/members/${analystId}`, stranger), 404, 'not_found');
  });
});

describe('refund from the dashboard and the audit log', () => {
  it('refunds (support may, analyst may not) and writes who did what, newest first, with paging and a filter', async () => {
    const user = await newUser(ctx, m, { balance: '100000' });
    const intent = await createIntent(ctx, m, { amount: '5000' });
    const token = await authorize(ctx, m, user, intent.id);
    expect((await charge(ctx, user, intent.id, token)).statusCode).toBe(200);

    expectProblem(await send('POST', `/dashboard/api/test/payments/${intent.id}/refund`, sessions.analyst, { amount: '1000' }), 403, 'permission_denied');
    const refund = await send('POST', `/dashboard/api/test/payments/${intent.id}/refund`, sessions.support, { amount: '1000' });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(refund.json()).toMatchObject({ object: 'refund', amount: '1000', intentId: intent.id });
    expectProblem(await send('POST', `/dashboard/api/test/payments/${intent.id}/refund`, sessions.support, { amount: '9000' }), 422, 'refund_exceeds_amount');

    const key = (await send('POST', '/dashboard/api/test/keys', owner, { name: 'audited', kind: 'publishable' })).json();
    await send('POST', `/dashboard/api/test/keys/${key.id}/revoke`, owner, {});

    const log = await send('GET', '/dashboard/api/audit-log?limit=100', sessions.analyst);
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json().data as {
      id: string;
      action: string;
      actor: { email: string };
      targetId: string;
      mode: string | null;
      details: Record<string, unknown>;
    }[];
    expect(entries.slice(0, 3).map((e) => e.action)).toEqual(['key.revoked', 'key.created', 'payment.refunded']);
    expect(entries[2]).toMatchObject({ actor: { email: emails.support }, mode: 'test', targetId: intent.id, details: { amount: '1000', currency: 'XAF' } });
    const actions = new Set(entries.map((e) => e.action));
    for (const a of ['member.invited', 'invitation.accepted', 'invitation.revoked', 'member.role_changed', 'member.removed']) expect(actions).toContain(a);
    expect(JSON.stringify(entries)).not.toMatch(/\binv_[0-9A-Za-z]{20}|pk_test_[0-9A-Za-z]{20}/);

    const page1 = (await send('GET', '/dashboard/api/audit-log?limit=2', owner)).json();
    expect(page1.hasMore).toBe(true);
    const page2 = (await send('GET', `/dashboard/api/audit-log?limit=2&startingAfter=${page1.data[1].id}`, owner)).json();
    expect(page2.data[0].id).toBe(entries[2]?.id);
    const filtered = (await send('GET', '/dashboard/api/audit-log?action=member.removed', owner)).json().data as { action: string }[];
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((e) => e.action === 'member.removed')).toBe(true);
    expectProblem(await send('GET', '/dashboard/api/audit-log', sessions.support), 403, 'permission_denied');
    expectProblem(await send('GET', '/dashboard/api/audit-log?action=DROP%20TABLE', owner), 400, 'validation_error');
  });

  it('a failed action writes no entry; each audited action writes one', async () => {
    const count = async () =>
      (
        await ctx.deps.db
          .selectFrom('dashboard_audit_log')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await count());
    expectProblem(await send('POST', '/dashboard/api/test/payments/pi_00000000000000000000000000/cancel', owner, {}), 404, 'not_found');
    expectProblem(await send('POST', '/dashboard/api/test/keys/key_unknown/roll', owner, { graceSeconds: 0 }), 404, 'not_found');
    expect(Number(await count())).toBe(before);
    const intent = await createIntent(ctx, m, { amount: '700' });
    expect((await send('POST', `/dashboard/api/test/payments/${intent.id}/cancel`, sessions.support, {})).statusCode).toBe(200);
    const endpoint = (
      await send('POST', '/dashboard/api/test/webhook-endpoints', sessions.developer, { url: 'https://shop.example.com/hooks', enabledEvents: ['*'] })
    ).json();
    await send('POST', `/dashboard/api/test/webhook-endpoints/${endpoint.id}/reveal-secret`, sessions.developer, {});
    await send('DELETE', `/dashboard/api/test/webhook-endpoints/${endpoint.id}`, sessions.developer);
    const latest = (await send('GET', '/dashboard/api/audit-log?limit=4', owner)).json().data.map((e: { action: string }) => e.action);
    expect(latest).toEqual(['webhook_endpoint.deleted', 'webhook_endpoint.secret_revealed', 'webhook_endpoint.created', 'payment.canceled']);
    expect(Number(await count())).toBe(before + 4);
  });
});
