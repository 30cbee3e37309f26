import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Clock, MINUTE } from '../clock.ts';
import { type RandomBytes, randomToken, safeEqual, sha256 } from '../crypto.ts';
import { ApiError } from '../errors.ts';
import { isCrossSite } from './same-site.ts';
import { sessionCookies } from './session-cookie.ts';

/**
 * A staff session: the browser session of the people who run things (a merchant's team in the
 * dashboard, the platform's operators in the console), built once so a security fix lands once
 * (decision 0089). Each module keeps its own table, cookie name, token prefix and timeouts, and
 * passes a store over its own repository: platform never reads a module's table.
 *
 * What it does: issues a random token (only its SHA-256 is stored) in an HttpOnly, SameSite=Strict
 * cookie; ends the session after `idleMs` without a request and `absoluteMs` after sign-in,
 * whatever happens; derives the CSRF token (an HMAC of the session token, nothing stored) and
 * checks it on every state-changing request; refuses cross-site requests; and runs the module's
 * gates (two-factor, permissions) in the order the module gives.
 */

/** Who opens a session: recorded with it. */
export interface StaffClient {
  address: string;
  userAgent?: string;
}

/** A session as the module's store reads it back. */
export interface StaffSessionRecord {
  /** Whose session: a dashboard user's id, an operator's id. */
  subjectId: string;
  lastSeenAt: Date;
  /** The idle expiry, pushed forward by use, never past `absoluteExpiresAt`. */
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

/** A session to write: what every staff session table holds. */
export interface NewStaffSession {
  tokenHash: Buffer;
  subjectId: string;
  address: string;
  /** The client's User-Agent, cut to `USER_AGENT_MAX`; null without one. */
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

/**
 * A module's sessions table, adapted by the module (its repository, its columns). `Extra` is what
 * the module stores beside (the console's two-factor stage).
 */
export interface StaffSessionStore<R extends StaffSessionRecord, Extra = undefined> {
  insert(session: NewStaffSession, extra: Extra): Promise<void>;
  find(tokenHash: Buffer): Promise<R | undefined>;
  /** Records a request: the sliding idle expiry moves to `expiresAt`. */
  touch(tokenHash: Buffer, seenAt: Date, expiresAt: Date): Promise<void>;
  /** Gives the session a new token (rotation): the same row, its other columns kept. */
  rekey(oldHash: Buffer, newHash: Buffer, seenAt: Date, expiresAt: Date): Promise<void>;
  remove(tokenHash: Buffer): Promise<void>;
  /** Housekeeping at sign-in: the subject's sessions past expiry (reads already refuse them). */
  removeExpired(subjectId: string, now: Date): Promise<void>;
}

export interface StaffSessionOptions<R extends StaffSessionRecord, Extra> {
  /** Base name of the cookie (`__Host-` is added in production). */
  cookieName: string;
  /** Two lowercase letters: tokens read `<prefix>_…`, so one kind of session never opens another. */
  tokenPrefix: string;
  /** What the CSRF HMAC is keyed for (`dashboard-csrf`): the same token never serves two kinds. */
  csrfPurpose: string;
  idleMs: number;
  absoluteMs: number;
  store: StaffSessionStore<R, Extra>;
  clock: Clock;
  random: RandomBytes;
  masterKey: Buffer;
  production: boolean;
  /** The `detail` of each refusal, naming the module's own routes. */
  messages: { sessionRequired: string; csrfInvalid: string; crossSite: string };
  /** The audit hook: called once a session is open (the console logs who signed in, from where). */
  onOpened?: (event: { subjectId: string; client: StaffClient; extra: Extra }) => Promise<void>;
}

/** Sliding expiry is written at most once a minute per session, so reads rarely write. */
export const TOUCH_EVERY_MS = MINUTE;
/** What of a User-Agent a session keeps: enough to tell browsers apart. */
export const USER_AGENT_MAX = 200;
/** 32 random bytes (256 bits) in base62. */
const TOKEN_BYTES = 32;
export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An open session: the token goes to the cookie only, its hash names the row. */
export interface OpenedSession {
  sessionToken: string;
  tokenHash: Buffer;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export function createStaffSessions<R extends StaffSessionRecord, Extra = undefined>(opts: StaffSessionOptions<R, Extra>) {
  const { store, clock, random, masterKey, idleMs, absoluteMs, messages } = opts;
  if (!/^[a-z]{2}$/.test(opts.tokenPrefix)) throw new Error(`Staff session token prefix ${opts.tokenPrefix} is not two lowercase letters`);
  const tokenShape = new RegExp(`^${opts.tokenPrefix}_[0-9A-Za-z]{40,50}$`);
  const cookies = sessionCookies(opts.cookieName, opts.production);
  const newToken = () => `${opts.tokenPrefix}_${randomToken(random, TOKEN_BYTES)}`;
  const missing = () => new ApiError('session_required', messages.sessionRequired);

  function csrfTokenOf(sessionToken: string): string {
    return createHmac('sha256', masterKey).update(`${opts.csrfPurpose}:${sessionToken}`).digest('base64url');
  }

  return {
    /** The cookie: read a request's token, set one, clear it. */
    cookies,

    /** The Set-Cookie of a new session: it lasts until the absolute expiry. */
    issueCookie: (sessionToken: string, absoluteExpiresAt: Date) => cookies.set(sessionToken, absoluteExpiresAt, clock.now()),

    /** Opens a session for a subject who proved who they are; `extra` goes to the store as is. */
    async open(subjectId: string, client: StaffClient, extra: Extra): Promise<OpenedSession> {
      const now = clock.now();
      const sessionToken = newToken();
      const tokenHash = sha256(sessionToken);
      const expiresAt = new Date(now.getTime() + idleMs);
      const absoluteExpiresAt = new Date(now.getTime() + absoluteMs);
      await store.insert(
        {
          tokenHash,
          subjectId,
          address: client.address,
          userAgent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
          createdAt: now,
          lastSeenAt: now,
          expiresAt,
          absoluteExpiresAt,
        },
        extra,
      );
      await store.removeExpired(subjectId, now);
      await opts.onOpened?.({ subjectId, client, extra });
      return { sessionToken, tokenHash, expiresAt, absoluteExpiresAt };
    },

    /**
     * The live session of a cookie's token and its subject as `load` reads it now (so a change,
     * a role or two-factor, applies at once), its idle expiry pushed forward; else 401
     * `session_required`: no token, not this kind's shape, unknown, expired, or no subject.
     */
    async authenticate<S>(
      sessionToken: string | undefined,
      load: (record: R) => Promise<S | undefined>,
    ): Promise<{ subject: S; record: R; tokenHash: Buffer; expiresAt: Date }> {
      if (sessionToken === undefined || !tokenShape.test(sessionToken)) throw missing();
      const tokenHash = sha256(sessionToken);
      const record = await store.find(tokenHash);
      const now = clock.now();
      if (!record || record.expiresAt <= now || record.absoluteExpiresAt <= now) throw missing();
      const subject = await load(record);
      if (subject === undefined) throw missing();
      let expiresAt = record.expiresAt;
      if (now.getTime() - record.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        expiresAt = new Date(Math.min(now.getTime() + idleMs, record.absoluteExpiresAt.getTime()));
        await store.touch(tokenHash, now, expiresAt);
      }
      return { subject, record, tokenHash, expiresAt };
    },

    /**
     * A new token for a live session (after a privilege change, so a token seen before no longer
     * works): the old one stops at once; the absolute expiry stays the one of the sign-in.
     */
    async rotate(tokenHash: Buffer, record: StaffSessionRecord): Promise<OpenedSession> {
      const now = clock.now();
      const sessionToken = newToken();
      const newHash = sha256(sessionToken);
      const expiresAt = new Date(Math.min(now.getTime() + idleMs, record.absoluteExpiresAt.getTime()));
      await store.rekey(tokenHash, newHash, now, expiresAt);
      return { sessionToken, tokenHash: newHash, expiresAt, absoluteExpiresAt: record.absoluteExpiresAt };
    },

    /** Signs out: the session's row goes. */
    end: (tokenHash: Buffer) => store.remove(tokenHash),

    /** The CSRF token of a session: an HMAC of its token under the master key (nothing stored). */
    csrfTokenOf,

    /** 403 `csrf_token_invalid` unless `sent` is the session's CSRF token (constant-time compare). */
    checkCsrf(sessionToken: string, sent: string | undefined): void {
      if (sent === undefined || !safeEqual(sent, csrfTokenOf(sessionToken))) throw new ApiError('csrf_token_invalid', messages.csrfInvalid);
    },

    /** 403 `csrf_token_invalid` for a request a browser made for another site. */
    assertSameSite(request: FastifyRequest): void {
      if (isCrossSite(request)) throw new ApiError('csrf_token_invalid', messages.crossSite);
    },
  };
}

export type StaffSessions<R extends StaffSessionRecord, Extra = undefined> = ReturnType<typeof createStaffSessions<R, Extra>>;

/**
 * 403 `permission_denied` unless the role allows what the route declared; a route that declared
 * nothing is refused too (deny by default). `describe` writes the detail in the module's words.
 */
export function assertPermission<Role extends string, P extends string>(
  role: Role,
  needed: P | undefined,
  can: (role: Role, needed: P) => boolean,
  describe: (role: Role, needed: string) => string,
): void {
  if (needed === undefined || !can(role, needed)) {
    throw new ApiError('permission_denied', describe(role, needed ?? 'unknown'), { extra: { role, permission: needed ?? null } });
  }
}

/**
 * The two-factor gate: a session not past two-factor sign-in reaches only what `reachable` says
 * (the console: its enrolment routes; the dashboard: test mode), else 403 `totp_required`.
 */
export function assertTwoFactor(gate: { passed: boolean; reachable: boolean; detail: string }): void {
  if (!gate.passed && !gate.reachable) throw new ApiError('totp_required', gate.detail);
}

/**
 * The `onRequest` hook of a staff API: cross-site requests refused (state-changing ones and
 * sign-in), the session read from its cookie (a cookie that no longer opens one is cleared, so
 * the browser stops sending it), the CSRF token checked on state-changing methods, then the
 * module's `gates` in its order (two-factor, permission, mode).
 */
export function staffSessionHook<R extends StaffSessionRecord, Extra, S>(opts: {
  sessions: StaffSessions<R, Extra>;
  /** Sign-in and the like: no session, cross-site refusal only. */
  isPublic: (request: FastifyRequest) => boolean;
  authenticate: (sessionToken: string | undefined) => Promise<S>;
  /** Puts the session on the request for the routes. */
  attach: (request: FastifyRequest, session: S, sessionToken: string) => void;
  gates: ((request: FastifyRequest, session: S) => void | Promise<void>)[];
}) {
  const { sessions } = opts;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return;
    const isPublic = opts.isPublic(request);
    if (STATE_CHANGING.has(request.method) || isPublic) sessions.assertSameSite(request);
    if (isPublic) return;
    const token = sessions.cookies.tokenOf(request);
    let session: S;
    try {
      session = await opts.authenticate(token);
    } catch (err) {
      if (token !== undefined) reply.header('set-cookie', sessions.cookies.clear());
      throw err;
    }
    opts.attach(request, session, token as string);
    if (STATE_CHANGING.has(request.method)) {
      const sent = request.headers['x-csrf-token'];
      sessions.checkCsrf(token as string, typeof sent === 'string' ? sent : undefined);
    }
    for (const gate of opts.gates) await gate(request, session);
  };
}
