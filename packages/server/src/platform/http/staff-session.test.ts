import Fastify, { type FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ManualClock, MINUTE, SECOND } from '../clock.ts';
import { systemRandom } from '../crypto.ts';
import { ApiError } from '../errors.ts';
import {
  assertPermission,
  assertTwoFactor,
  createStaffSessions,
  type NewStaffSession,
  type StaffSessionRecord,
  type StaffSessionStore,
  staffSessionHook,
} from './staff-session.ts';

const IDLE = 30 * MINUTE;
const ABSOLUTE = 12 * 60 * MINUTE;

/** A sessions table in memory, as a module's repository adapter would be. */
function memoryStore() {
  const rows = new Map<string, NewStaffSession & { stage: string }>();
  const key = (h: Buffer) => h.toString('hex');
  const store: StaffSessionStore<StaffSessionRecord & { stage: string }, { stage: string }> = {
    insert: async (s, extra) => void rows.set(key(s.tokenHash), { ...s, stage: extra.stage }),
    find: async (h) => rows.get(key(h)),
    touch: async (h, seenAt, expiresAt) => {
      const row = rows.get(key(h));
      if (row) Object.assign(row, { lastSeenAt: seenAt, expiresAt });
    },
    rekey: async (oldHash, newHash, seenAt, expiresAt) => {
      const row = rows.get(key(oldHash));
      rows.delete(key(oldHash));
      if (row) rows.set(key(newHash), { ...row, tokenHash: newHash, lastSeenAt: seenAt, expiresAt });
    },
    remove: async (h) => void rows.delete(key(h)),
    removeExpired: async (subjectId, now) => {
      for (const [k, r] of rows) if (r.subjectId === subjectId && r.expiresAt <= now) rows.delete(k);
    },
  };
  return { rows, store };
}

function setUp(opts: { prefix?: string; purpose?: string } = {}) {
  const clock = new ManualClock();
  const { rows, store } = memoryStore();
  const opened: unknown[] = [];
  const sessions = createStaffSessions({
    cookieName: 'staff_test',
    tokenPrefix: opts.prefix ?? 'ts',
    csrfPurpose: opts.purpose ?? 'test-csrf',
    idleMs: IDLE,
    absoluteMs: ABSOLUTE,
    store,
    clock,
    random: systemRandom,
    masterKey: Buffer.alloc(32, 7),
    production: false,
    messages: { sessionRequired: 'sign in', csrfInvalid: 'send the token', crossSite: 'not from here' },
    onOpened: async (event) => void opened.push(event),
  });
  const load = async (r: StaffSessionRecord) => ({ id: r.subjectId });
  return { clock, rows, sessions, opened, load };
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as ApiError).code;
  }
}

describe('staff session expiry (injected clock)', () => {
  it('slides with use up to the idle timeout, and is refused once idle that long', async () => {
    const { clock, sessions, load } = setUp();
    const { sessionToken } = await sessions.open('u1', { address: '10.0.0.1' }, { stage: 'full' });
    clock.advance(IDLE - SECOND);
    expect((await sessions.authenticate(sessionToken, load)).subject).toEqual({ id: 'u1' });
    // The request above pushed the idle expiry forward.
    clock.advance(IDLE - SECOND);
    await sessions.authenticate(sessionToken, load);
    clock.advance(IDLE);
    expect(await codeOf(sessions.authenticate(sessionToken, load))).toBe('session_required');
  });

  it('ends at the absolute timeout however often it is used; the idle expiry never passes it', async () => {
    const { clock, sessions, load } = setUp();
    const start = clock.now().getTime();
    const { sessionToken, absoluteExpiresAt } = await sessions.open('u1', { address: '10.0.0.1' }, { stage: 'full' });
    expect(absoluteExpiresAt.getTime() - start).toBe(ABSOLUTE);
    while (clock.now().getTime() - start < ABSOLUTE - 20 * MINUTE) {
      clock.advance(20 * MINUTE);
      await sessions.authenticate(sessionToken, load);
    }
    const last = await sessions.authenticate(sessionToken, load);
    expect(last.expiresAt.getTime()).toBeLessThanOrEqual(start + ABSOLUTE);
    clock.set(new Date(start + ABSOLUTE));
    expect(await codeOf(sessions.authenticate(sessionToken, load))).toBe('session_required');
  });

  it('writes the sliding expiry at most once a minute', async () => {
    const { clock, rows, sessions, load } = setUp();
    const { sessionToken } = await sessions.open('u1', { address: '10.0.0.1' }, { stage: 'full' });
    const row = [...rows.values()][0];
    const first = row?.expiresAt;
    clock.advance(30 * SECOND);
    await sessions.authenticate(sessionToken, load);
    expect(row?.expiresAt).toEqual(first);
    clock.advance(30 * SECOND);
    await sessions.authenticate(sessionToken, load);
    expect(row?.expiresAt.getTime()).toBe(clock.now().getTime() + IDLE);
  });

  it('refuses another kind of token, an unknown one, a missing subject; stores the hash only', async () => {
    const { rows, sessions, load } = setUp();
    const { sessionToken } = await sessions.open('u1', { address: '10.0.0.1', userAgent: 'x'.repeat(500) }, { stage: 'enrol' });
    const row = [...rows.values()][0];
    expect(row?.userAgent).toHaveLength(200);
    expect(row?.stage).toBe('enrol');
    expect([...rows.values()].some((r) => r.tokenHash.toString('utf8').includes(sessionToken))).toBe(false);
    const other = setUp({ prefix: 'zz' });
    const foreign = (await other.sessions.open('u1', { address: '10.0.0.1' }, { stage: 'full' })).sessionToken;
    expect(await codeOf(sessions.authenticate(foreign, load))).toBe('session_required');
    expect(await codeOf(sessions.authenticate(`ts_${'A'.repeat(43)}`, load))).toBe('session_required');
    expect(await codeOf(sessions.authenticate(undefined, load))).toBe('session_required');
    expect(await codeOf(sessions.authenticate(sessionToken, async () => undefined))).toBe('session_required');
  });

  it('rotation: the old token stops, the new one works until the same absolute expiry', async () => {
    const { clock, sessions, load } = setUp();
    const opened = await sessions.open('u1', { address: '10.0.0.1' }, { stage: 'full' });
    clock.advance(5 * MINUTE);
    const current = await sessions.authenticate(opened.sessionToken, load);
    const rotated = await sessions.rotate(current.tokenHash, current.record);
    expect(rotated.sessionToken).not.toBe(opened.sessionToken);
    expect(rotated.absoluteExpiresAt).toEqual(opened.absoluteExpiresAt);
    expect(await codeOf(sessions.authenticate(opened.sessionToken, load))).toBe('session_required');
    expect((await sessions.authenticate(rotated.sessionToken, load)).record.stage).toBe('full');
  });

  it('calls the audit hook once a session is open, and sign-out ends it', async () => {
    const { sessions, opened, load } = setUp();
    const s = await sessions.open('u9', { address: '10.0.0.9' }, { stage: 'enrol' });
    expect(opened).toEqual([{ subjectId: 'u9', client: { address: '10.0.0.9' }, extra: { stage: 'enrol' } }]);
    await sessions.end(s.tokenHash);
    expect(await codeOf(sessions.authenticate(s.sessionToken, load))).toBe('session_required');
  });
});

describe('staff session CSRF token', () => {
  it("is the session's own HMAC: another session's, another purpose's or none is refused", async () => {
    const { sessions } = setUp();
    const a = (await sessions.open('u1', { address: '10.0.0.1' }, { stage: 'full' })).sessionToken;
    const b = (await sessions.open('u2', { address: '10.0.0.1' }, { stage: 'full' })).sessionToken;
    expect(() => sessions.checkCsrf(a, sessions.csrfTokenOf(a))).not.toThrow();
    const refused = (sent: string | undefined) => {
      try {
        sessions.checkCsrf(a, sent);
        return undefined;
      } catch (err) {
        return (err as ApiError).code;
      }
    };
    expect(refused(sessions.csrfTokenOf(b))).toBe('csrf_token_invalid');
    expect(refused(setUp({ purpose: 'other-csrf' }).sessions.csrfTokenOf(a))).toBe('csrf_token_invalid');
    expect(refused(undefined)).toBe('csrf_token_invalid');
    expect(refused('')).toBe('csrf_token_invalid');
  });
});

describe('staff session gates', () => {
  it('two-factor: refused unless past it or on a route open before it', () => {
    expect(() => assertTwoFactor({ passed: false, reachable: false, detail: 'enrol' })).toThrow(
      expect.objectContaining({ code: 'totp_required', detail: 'enrol' }),
    );
    expect(() => assertTwoFactor({ passed: false, reachable: true, detail: 'enrol' })).not.toThrow();
    expect(() => assertTwoFactor({ passed: true, reachable: false, detail: 'enrol' })).not.toThrow();
  });

  it('permission: denied when the role lacks it, and when the route declared none', () => {
    const can = (role: string, p: string) => role === 'admin' || p === 'read';
    const describe = (role: string, p: string) => `${role} lacks ${p}`;
    expect(() => assertPermission('viewer', 'read', can, describe)).not.toThrow();
    expect(() => assertPermission('viewer', 'write', can, describe)).toThrow(
      expect.objectContaining({ code: 'permission_denied', detail: 'viewer lacks write', options: { extra: { role: 'viewer', permission: 'write' } } }),
    );
    expect(() => assertPermission('admin', undefined, can, describe)).toThrow(
      expect.objectContaining({ code: 'permission_denied', options: { extra: { role: 'admin', permission: null } } }),
    );
  });
});

describe('staffSessionHook', () => {
  async function appWith(stage: 'enrol' | 'full') {
    const t = setUp();
    const app = Fastify();
    app.setErrorHandler((err: FastifyError, _req, reply) => {
      const e = err as unknown as ApiError;
      return reply.code(e.status ?? 500).send({ code: e.code });
    });
    app.addHook(
      'onRequest',
      staffSessionHook({
        sessions: t.sessions,
        isPublic: (req) => req.url === '/login',
        authenticate: async (token) => (await t.sessions.authenticate(token, t.load)).record,
        attach: () => {},
        gates: [(req, s) => assertTwoFactor({ passed: s.stage === 'full', reachable: req.url === '/enrol', detail: 'enrol first' })],
      }),
    );
    for (const url of ['/login', '/enrol', '/thing']) {
      app.get(url, async () => ({ ok: true }));
      app.post(url, async () => ({ ok: true }));
    }
    const { sessionToken } = await t.sessions.open('u1', { address: '10.0.0.1' }, { stage });
    return { app, cookie: `staff_test=${sessionToken}`, csrf: t.sessions.csrfTokenOf(sessionToken) };
  }

  it('reads the cookie, checks CSRF on POST, refuses cross-site, clears a dead cookie', async () => {
    const { app, cookie, csrf } = await appWith('full');
    expect((await app.inject({ method: 'GET', url: '/thing', headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/thing', headers: { cookie, 'x-csrf-token': csrf } })).statusCode).toBe(200);
    const noCsrf = await app.inject({ method: 'POST', url: '/thing', headers: { cookie } });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf_token_invalid']);
    const crossSite = await app.inject({ method: 'POST', url: '/login', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.json().code).toBe('csrf_token_invalid');
    const dead = await app.inject({ method: 'GET', url: '/thing', headers: { cookie: `staff_test=ts_${'A'.repeat(43)}` } });
    expect([dead.statusCode, dead.json().code]).toEqual([401, 'session_required']);
    expect(dead.headers['set-cookie']).toMatch(/^staff_test=; Max-Age=0/);
    const none = await app.inject({ method: 'GET', url: '/thing' });
    expect([none.statusCode, none.headers['set-cookie']]).toEqual([401, undefined]);
  });

  it('runs the two-factor gate: a session not past it reaches its enrolment route only', async () => {
    const { app, cookie } = await appWith('enrol');
    expect((await app.inject({ method: 'GET', url: '/enrol', headers: { cookie } })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/thing', headers: { cookie } });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'totp_required']);
  });
});
