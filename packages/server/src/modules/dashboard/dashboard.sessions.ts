import { HOUR, MINUTE } from '../../platform/clock.ts';
import type { Country } from '../../platform/countries.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { createStaffSessions, type StaffSessionRecord, type StaffSessionStore } from '../../platform/http/staff-session.ts';
import type { Language } from '../../platform/i18n.ts';
import { dummyPasswordHash, verifyPassword } from '../../platform/passwords.ts';
import { createThrottle, loginRules } from '../../platform/throttle.ts';
import type { KeyMode, KeyPermissions } from '../../platform/tenancy.ts';
import type { MerchantsService } from '../merchants/index.ts';
import type { MessagingService } from '../messaging/index.ts';
import { dashboardRepository as repo } from './dashboard.repository.ts';
import { type Client, createAccountSecurity } from './dashboard.account.ts';
import { keyBeyondRole, type Permission, permissionsOf, type Role } from './dashboard.roles.ts';

/** A session ends after 30 idle minutes, and 12 hours after sign-in whatever happens. */
export const SESSION_IDLE_MS = 30 * MINUTE;
export const SESSION_ABSOLUTE_MS = 12 * HOUR;

/** The dashboard's sessions table, as the shared staff session reads and writes it (decision 0089). */
function sessionStore(deps: Pick<Deps, 'db' | 'ids'>): StaffSessionStore<StaffSessionRecord, { merchantId: string }> {
  const { db } = deps;
  return {
    insert: (s, extra) =>
      repo.insertSession(db, {
        token_hash: s.tokenHash,
        id: deps.ids('dashboardSession'),
        dashboard_user_id: s.subjectId,
        merchant_id: extra.merchantId,
        address: s.address,
        user_agent: s.userAgent,
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
        expires_at: s.expiresAt,
        absolute_expires_at: s.absoluteExpiresAt,
      }),
    async find(tokenHash) {
      const row = await repo.findSession(db, tokenHash);
      return row && { subjectId: row.dashboard_user_id, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at, absoluteExpiresAt: row.absolute_expires_at };
    },
    touch: (tokenHash, seenAt, expiresAt) => repo.touchSession(db, tokenHash, seenAt, expiresAt),
    rekey: (oldHash, newHash, seenAt, expiresAt) => repo.rekeySession(db, oldHash, newHash, seenAt, expiresAt),
    remove: (tokenHash) => repo.deleteSession(db, tokenHash),
    removeExpired: async (userId, now) => {
      await repo.deleteExpiredSessions(db, userId, now);
    },
  };
}

/** The signed-in merchant user, as every dashboard API call sees it. */
export interface DashboardSession {
  tokenHash: Buffer;
  userId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  pinnedVersion: string;
  expiresAt: Date;
  /** The user's own language (the dashboard's switch); null: their browser's, then the merchant's. */
  language: Language | null;
  merchantLanguage: Language;
  /** The merchant's country: phone numbers typed without a country code are read in it. */
  merchantCountry: Country;
  /** Two-factor sign-in (TOTP) is enabled: live mode is open to a member only then. */
  totpEnabled: boolean;
  /** The user's team role: what the dashboard API lets them do (dashboard.roles.ts). */
  role: Role;
  /** The merchant is approved for live mode (read on every request: an approval applies at once). */
  approved: boolean;
}

export interface SessionView {
  object: 'dashboard_session';
  email: string;
  language: Language | null;
  merchant: { id: string; name: string; language: Language };
  role: Role;
  permissions: Permission[];
  /** Send it back as `x-csrf-token` on every POST, PATCH and DELETE. */
  csrfToken: string;
  expiresAt: string;
  totpEnabled: boolean;
}

type DashboardAccount = NonNullable<Awaited<ReturnType<MerchantsService['findDashboardAccount']>>>;

/** The session a request sees: its account as read now, so a change (TOTP enabled) shows at once. */
function sessionOf(user: DashboardAccount, tokenHash: Buffer, expiresAt: Date): DashboardSession {
  return {
    tokenHash,
    userId: user.id,
    email: user.email,
    merchantId: user.merchant_id,
    merchantName: user.merchant_name,
    pinnedVersion: user.merchant_api_version,
    expiresAt,
    language: user.language,
    merchantLanguage: user.merchant_language,
    merchantCountry: user.merchant_country,
    totpEnabled: user.totp_enabled_at !== null,
    role: user.role,
    approved: user.merchant_approved_at !== null,
  };
}

/** Sign-in, sessions and their CSRF tokens, and what a role or a fresh TOTP code allows. */
export function createDashboardSessions(deps: Deps, services: { merchants: MerchantsService; messaging: MessagingService }) {
  const { db, config } = deps;
  const { merchants, messaging } = services;
  const throttle = createThrottle(deps);
  const account = createAccountSecurity(deps, { merchants, messaging });
  const staff = createStaffSessions({
    cookieName: 'caisse_session',
    tokenPrefix: 'ds',
    csrfPurpose: 'dashboard-csrf',
    idleMs: SESSION_IDLE_MS,
    absoluteMs: SESSION_ABSOLUTE_MS,
    store: sessionStore(deps),
    clock: deps.clock,
    random: deps.random,
    masterKey: config.masterKey,
    production: config.mode === 'production',
    messages: {
      sessionRequired: 'Sign in to the dashboard: the session is missing, has expired or was signed out',
      csrfInvalid: 'Send the csrfToken of GET /dashboard/api/session in the x-csrf-token header',
      crossSite: "The dashboard API takes requests from the dashboard's own pages only",
    },
  });

  /** Opens a session for a user who proved who they are: a random token, its hash stored with the client. */
  async function openSession(userId: string, client: Client): Promise<{ sessionToken: string; session: SessionView; absoluteExpiresAt: Date }> {
    const user = await merchants.findDashboardAccount(userId);
    if (!user) throw new ApiError('invalid_credentials', 'The e-mail address or the password is incorrect');
    const { sessionToken, tokenHash, expiresAt, absoluteExpiresAt } = await staff.open(user.id, client, { merchantId: user.merchant_id });
    return { sessionToken, session: view(sessionOf(user, tokenHash, expiresAt), sessionToken), absoluteExpiresAt };
  }

  const { csrfTokenOf } = staff;

  function view(s: DashboardSession, sessionToken: string): SessionView {
    return {
      object: 'dashboard_session',
      email: s.email,
      language: s.language,
      merchant: { id: s.merchantId, name: s.merchantName, language: s.merchantLanguage },
      role: s.role,
      permissions: permissionsOf(s.role),
      csrfToken: csrfTokenOf(sessionToken),
      expiresAt: s.expiresAt.toISOString(),
      totpEnabled: s.totpEnabled,
    };
  }

  return {
    /** The session cookie, CSRF token, cross-site refusal and expiry (platform/http/staff-session.ts). */
    staff,
    csrfTokenOf,

    /**
     * Retention: deletes up to `limit` sessions expired by `now`, and as many sign-in challenges
     * and password reset links past their expiry. Returns how many rows in all.
     */
    purgeExpiredSessions: async (now: Date, limit: number) =>
      (await repo.purgeExpiredSessions(db, now, limit)) +
      (await repo.purgeExpiredChallenges(db, now, limit)) +
      (await merchants.dashboardCredentials.purgeExpiredResets(now, limit)),

    /**
     * Signs in with e-mail and password. Each attempt is counted before the password is checked
     * (parallel guesses cannot slip past the lockout); the 6th within 15 minutes from one client
     * address, or the 101st within 24 hours from all of them, is 429 `login_locked` with
     * Retry-After, known e-mail or not; a success forgets the failures.
     * An unknown address and a wrong password get the same answer after the same work.
     */
    async login(input: { email: string; password: string }, client: Client) {
      const email = input.email.trim().toLowerCase();
      const attempt = await throttle.beginAll(loginRules({ subject: `dashboard:${email}`, address: client.address, what: 'this e-mail address' }));
      const user = await merchants.findDashboardAccountByEmail(email);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!user || !ok) throw new ApiError('invalid_credentials', 'The e-mail address or the password is incorrect');
      // With TOTP the failures are forgotten only after the second step: a known password
      // does not reset the count of wrong codes.
      if (user.totp_enabled_at !== null) return { challenge: await account.challenge(user.id) };
      await attempt.succeeded();
      return openSession(user.id, client);
    },

    /** The second step of a sign-in with TOTP: the challenge and a code, then the session. */
    async loginSecondStep(input: { challenge: string; code: string }, client: Client) {
      return openSession(await account.secondStep(input, client), client);
    },

    /** Two-factor enrolment, recovery codes, password change and reset, own sessions. */
    account,

    /** The live session of a cookie's token, its idle expiry pushed forward; else 401 `session_required`. */
    async authenticate(sessionToken: string | undefined): Promise<DashboardSession> {
      const { subject, tokenHash, expiresAt } = await staff.authenticate(sessionToken, (r) => merchants.findDashboardAccount(r.subjectId));
      return sessionOf(subject, tokenHash, expiresAt);
    },

    sessionView: view,

    /** 403 `csrf_token_invalid` unless `sent` is the session's CSRF token (constant-time compare). */
    checkCsrf: staff.checkCsrf,

    /** The language switch: the user's own language from now on (null: back to their browser's). */
    async setLanguage(session: DashboardSession, language: Language | null): Promise<DashboardSession> {
      await merchants.setDashboardLanguage(session.userId, language);
      return { ...session, language };
    },

    async logout(session: DashboardSession): Promise<void> {
      await staff.end(session.tokenHash);
    },

    /**
     * Whether this member may issue a key of this kind and permissions in this mode: 403
     * `permission_denied` naming what their role lacks; in live mode, a secret or restricted key
     * needs a fresh TOTP code (publishable keys only start customers' flows).
     */
    async assertMayIssueKey(
      session: DashboardSession,
      mode: KeyMode | undefined,
      key: { kind: 'publishable' | 'secret' | 'restricted'; permissions: KeyPermissions | null; code?: string },
      address: string,
    ): Promise<void> {
      const beyond = keyBeyondRole(session.role, key.kind, key.permissions);
      if (beyond.length > 0) {
        const what =
          key.kind === 'secret'
            ? 'A secret key may do everything, so only an owner creates one: create a restricted key instead'
            : `The key would have ${beyond.join(', ')}`;
        throw new ApiError('permission_denied', `${what}; your role (${session.role}) cannot give a key more than it may do`, {
          extra: { role: session.role, permission: beyond[0] ?? null },
        });
      }
      if (mode === 'live' && key.kind !== 'publishable') await account.confirmFreshCode(session, key.code, address);
    },

    /** Signs in a user who proved who they are elsewhere (an accepted invitation). */
    openSession,

    /** Ends every session of a user in `tx` (a removed member). */
    endSessions: async (tx: Tx, userId: string): Promise<void> => {
      await repo.deleteUserSessions(tx, userId);
    },
  };
}
