import { HOUR, MINUTE } from '../../platform/clock.ts';
import { decrypt, encrypt, randomToken, sha256 } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { translator } from '../../platform/i18n.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { type AttemptRule, createThrottle, loginRules } from '../../platform/throttle.ts';
import { retryAfterHeader } from '../../platform/codes.ts';
import { matchTotp, newTotpSecret, totpQrCode, totpUri } from '../../platform/totp.ts';
import type { MerchantsService } from '../merchants/index.ts';
import type { MessagingService } from '../messaging/index.ts';
import { assertPasswordPolicy } from '../users/index.ts';
import { dashboardRepository as repo } from './dashboard.repository.ts';

/** A password reset link works once, for an hour. */
export const RESET_LINK_MS = HOUR;
/** The second step of a sign-in must come within 5 minutes of the password. */
export const LOGIN_CHALLENGE_MS = 5 * MINUTE;
export const RECOVERY_CODE_COUNT = 10;
/** Reset requests: 3 an hour per e-mail address, 10 an hour per client address. */
const RESET_PER_EMAIL = 3;
const RESET_PER_ADDRESS = 10;
const CHALLENGE_SHAPE = /^dc_[0-9A-Za-z]{40,50}$/;
const RESET_TOKEN_SHAPE = /^dr_[0-9A-Za-z]{40,50}$/;

/** Who asks: the client address and the browser, recorded with the session it opens. */
export interface Client {
  address: string;
  userAgent?: string;
  /** The request's languages (Accept-Language), for an e-mail to someone who chose none. */
  requested?: readonly string[];
  /** The base of e-mailed links (platform/http/public-url.ts), never taken from the request. */
  linkBase?: string;
}

/** Proof for a sensitive change while signed in: a current code (or recovery code), or the password. */
export interface Proof {
  code?: string;
  password?: string;
}

/** `xxxxx-xxxxx` from an alphabet without look-alikes: 50 bits, typed by a person once. */
function recoveryCode(random: Deps['random']): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = random(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A recovery code as typed (any case, spaces, with or without the dash), as hashed. */
function normalizeRecoveryCode(code: string): string {
  const bare = code.toLowerCase().replace(/[\s-]/g, '');
  return `${bare.slice(0, 5)}-${bare.slice(5)}`;
}

/**
 * A dashboard user's account security: TOTP enrolment and the second sign-in step, recovery
 * codes, password change and reset by e-mail, and their own sessions. The rules are in
 * docs/decisions/0010-dashboard-account-security.md.
 */
export function createAccountSecurity(deps: Deps, services: { merchants: MerchantsService; messaging: MessagingService }) {
  const { db, clock, random, config } = deps;
  const { merchants, messaging } = services;
  const credentials = merchants.dashboardCredentials;
  const throttle = createThrottle(deps);

  const lockout = (email: string, address: string) =>
    loginRules({ subject: `dashboard:${email}`, address, what: 'this e-mail address', remedy: 'reset the password' });

  async function secretOf(userId: string): Promise<{ secret: string; enabled: boolean } | undefined> {
    const row = await credentials.find(userId);
    if (!row?.totp_secret_encrypted) return undefined;
    return { secret: decrypt(config.masterKey, row.totp_secret_encrypted), enabled: row.totp_enabled_at !== null };
  }

  /**
   * Checks a TOTP code (±1 step) and claims its step, or a recovery code (used once). Throws
   * 401 `totp_code_invalid`, or `totp_code_reused` for a code whose step was already accepted.
   */
  async function checkSecondFactor(userId: string, code: string): Promise<'totp' | 'recovery'> {
    const totp = await secretOf(userId);
    if (!totp?.enabled) throw new ApiError('totp_state_invalid', 'Two-factor sign-in is not enabled for this account');
    const trimmed = code.replace(/\s/g, '');
    const step = matchTotp(totp.secret, trimmed, clock.now());
    if (step !== null) {
      if (!(await credentials.claimTotpStep(userId, step))) {
        throw new ApiError('totp_code_reused', 'This code was already used; wait for the next one in the authenticator app', { param: 'code' });
      }
      return 'totp';
    }
    if (/^[0-9a-z]{5}-?[0-9a-z]{5}$/i.test(trimmed) && (await credentials.useRecoveryCode(userId, sha256(normalizeRecoveryCode(trimmed))))) return 'recovery';
    throw new ApiError('totp_code_invalid', 'The code is not valid: type the current code of the authenticator app, or an unused recovery code', {
      param: 'code',
    });
  }

  async function newRecoveryCodes(userId: string, executor?: Parameters<typeof credentials.replaceRecoveryCodes>[2]): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCode(random));
    await credentials.replaceRecoveryCodes(userId, codes.map(sha256), executor);
    return codes;
  }

  /** A signed-in change needs a code (or recovery code) or the password, counted in the sign-in lockout. */
  async function prove(account: { userId: string; email: string }, proof: Proof, address: string): Promise<void> {
    if ((proof.code === undefined) === (proof.password === undefined)) {
      throw new ApiError('validation_error', 'Send either code (from the authenticator app, or a recovery code) or password', { param: 'code' });
    }
    const attempt = await throttle.beginAll(lockout(account.email, address));
    if (proof.code !== undefined) {
      await checkSecondFactor(account.userId, proof.code);
    } else {
      const row = await credentials.find(account.userId);
      if (!row || !(await verifyPassword(row.password_hash, proof.password as string))) {
        throw new ApiError('invalid_credentials', 'The password is incorrect', { param: 'password' });
      }
    }
    await attempt.succeeded();
  }

  return {
    /**
     * A fresh code of the authenticator app (a recovery code does not do: it proves no device),
     * for an action that must be confirmed now (a live key). Counted in the sign-in lockout; a
     * code already used, or an older one, is refused.
     */
    async confirmFreshCode(account: { userId: string; email: string }, code: string | undefined, address: string): Promise<void> {
      const totp = await secretOf(account.userId);
      if (!totp?.enabled) throw new ApiError('totp_required', 'This needs two-factor sign-in: enrol an authenticator app on the Account page first');
      if (code === undefined) throw new ApiError('totp_code_required', 'Confirm with a fresh code of your authenticator app (code)', { param: 'code' });
      const attempt = await throttle.beginAll(lockout(account.email, address));
      const step = matchTotp(totp.secret, code.replace(/\s/g, ''), clock.now());
      if (step === null) throw new ApiError('totp_code_invalid', 'The code is not the current one of the authenticator app', { param: 'code' });
      if (!(await credentials.claimTotpStep(account.userId, step))) {
        throw new ApiError('totp_code_reused', 'This code was already used; wait for the next one in the authenticator app', { param: 'code' });
      }
      await attempt.succeeded();
    },

    /** A challenge for the second step: the password was right and the user has TOTP. */
    async challenge(userId: string): Promise<{ object: 'dashboard_login_challenge'; mfaRequired: true; challenge: string; expiresAt: string }> {
      const now = clock.now();
      const challenge = `dc_${randomToken(random, 32)}`;
      const expiresAt = new Date(now.getTime() + LOGIN_CHALLENGE_MS);
      await repo.insertChallenge(db, { token_hash: sha256(challenge), dashboard_user_id: userId, created_at: now, expires_at: expiresAt });
      return { object: 'dashboard_login_challenge', mfaRequired: true, challenge, expiresAt: expiresAt.toISOString() };
    },

    /**
     * The second step: the challenge and a TOTP code or a recovery code. Counted in the sign-in
     * lockout as a password is; a success forgets the failures and uses the challenge up.
     * Returns the user to open a session for.
     */
    async secondStep(input: { challenge: string; code: string }, client: Client): Promise<string> {
      const invalid = new ApiError('login_challenge_invalid', 'This sign-in step has expired or was used: sign in again with the e-mail address and password');
      if (!CHALLENGE_SHAPE.test(input.challenge)) throw invalid;
      const tokenHash = sha256(input.challenge);
      const found = await repo.findChallenge(db, tokenHash);
      if (!found || found.expires_at <= clock.now()) throw invalid;
      const row = await credentials.find(found.dashboard_user_id);
      if (!row) throw invalid;
      const attempt = await throttle.beginAll(lockout(row.email.toLowerCase(), client.address));
      await checkSecondFactor(row.id, input.code);
      if (!(await repo.deleteChallenge(db, tokenHash))) throw invalid;
      await attempt.succeeded();
      return row.id;
    },

    /** What the Account page shows of two-factor sign-in. */
    async security(userId: string) {
      const row = await credentials.find(userId);
      const enabled = !!row?.totp_enabled_at;
      return {
        object: 'dashboard_account_security' as const,
        totpEnabled: enabled,
        totpEnabledAt: row?.totp_enabled_at ? row.totp_enabled_at.toISOString() : null,
        recoveryCodesLeft: enabled ? await credentials.recoveryCodesLeft(userId) : 0,
      };
    },

    /**
     * Starts (or restarts) enrolment: a new secret, stored encrypted but not enabled until a code
     * proves the app has it. Answers the secret, the otpauth:// URI and its QR code (SVG data URL).
     */
    async beginTotp(account: { userId: string; email: string; merchantName: string }) {
      const secret = newTotpSecret(random);
      if (!(await credentials.setPendingTotp(account.userId, encrypt(config.masterKey, secret, random)))) {
        throw new ApiError('totp_state_invalid', 'Two-factor sign-in is already enabled: disable it first to enrol another app');
      }
      const uri = totpUri(secret, `Caisse (${account.merchantName})`, account.email);
      return { object: 'dashboard_totp_enrolment' as const, secret, uri, qrCode: await totpQrCode(uri) };
    },

    /**
     * Completes enrolment with a valid code; answers the 10 recovery codes, shown this once. The
     * user's other sessions end with it, as with a password change: one opened before enrolment by
     * whoever held the password alone must not keep the second factor's reach.
     */
    async confirmTotp(account: { userId: string; tokenHash: Buffer }, code: string) {
      const { userId } = account;
      const totp = await secretOf(userId);
      if (!totp || totp.enabled)
        throw new ApiError(
          'totp_state_invalid',
          totp ? 'Two-factor sign-in is already enabled' : 'Start the enrolment first (POST /dashboard/api/account/totp)',
        );
      const step = matchTotp(totp.secret, code.replace(/\s/g, ''), clock.now());
      if (step === null)
        throw new ApiError('otp_incorrect', 'The code is not the current one of the authenticator app: check the app and its clock, then try again', {
          param: 'code',
        });
      const recoveryCodes = await db.transaction().execute(async (tx) => {
        if (!(await credentials.enableTotp(userId, clock.now(), step, tx))) throw new ApiError('totp_state_invalid', 'Two-factor sign-in is already enabled');
        await repo.deleteUserSessions(tx, userId, account.tokenHash);
        return newRecoveryCodes(userId, tx);
      });
      return { object: 'dashboard_recovery_codes' as const, recoveryCodes };
    },

    async disableTotp(account: { userId: string; email: string }, proof: Proof, address: string): Promise<void> {
      await prove(account, proof, address);
      await credentials.disableTotp(account.userId);
    },

    async regenerateRecoveryCodes(account: { userId: string; email: string }, proof: Proof, address: string) {
      if (!(await secretOf(account.userId))?.enabled) throw new ApiError('totp_state_invalid', 'Two-factor sign-in is not enabled for this account');
      await prove(account, proof, address);
      return { object: 'dashboard_recovery_codes' as const, recoveryCodes: await newRecoveryCodes(account.userId) };
    },

    /**
     * Changes the password (the current one first, counted in the sign-in lockout); every other
     * session of the user ends, this one stays, and open reset links close.
     */
    async changePassword(
      account: { userId: string; email: string; tokenHash: Buffer },
      input: { currentPassword: string; newPassword: string },
      address: string,
    ): Promise<void> {
      await prove(account, { password: input.currentPassword }, address).catch((err: unknown) => {
        throw err instanceof ApiError && err.code === 'invalid_credentials'
          ? new ApiError('invalid_credentials', 'The current password is incorrect', { param: 'currentPassword' })
          : err;
      });
      assertPasswordPolicy(input.newPassword, null, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction().execute(async (tx) => {
        await credentials.setPassword(account.userId, passwordHash, tx);
        await credentials.closeResets(account.userId, tx);
        await repo.deleteUserSessions(tx, account.userId, account.tokenHash);
      });
    },

    /**
     * Sends a reset link by e-mail when the address has an account; the same answer either way.
     * Limited per e-mail address and per client address (429 `rate_limited`, whoever asks).
     */
    async requestPasswordReset(emailInput: string, client: Client): Promise<void> {
      const email = emailInput.trim().toLowerCase();
      const rule = (max: number): AttemptRule => ({
        max,
        windowMs: HOUR,
        refuse: (ms) => new ApiError('rate_limited', 'Too many password reset requests; try again later', { headers: retryAfterHeader(ms) }),
      });
      await throttle.beginAll([
        { subject: `dashboard-reset:address:${client.address}`, rule: rule(RESET_PER_ADDRESS) },
        { subject: `dashboard-reset:email:${email}`, rule: rule(RESET_PER_EMAIL) },
      ]);
      const user = await merchants.findDashboardAccountByEmail(email);
      if (!user) return;
      const now = clock.now();
      const token = `dr_${randomToken(random, 32)}`;
      await credentials.insertReset({
        token_hash: sha256(token),
        dashboard_user_id: user.id,
        created_at: now,
        expires_at: new Date(now.getTime() + RESET_LINK_MS),
      });
      const t = translator({ saved: user.language, requested: client.requested, merchantDefault: user.merchant_language });
      const base = client.linkBase ?? config.publicUrl ?? '';
      const link = `${base}/dashboard/reset-password/${token}`;
      try {
        // A proof of control: the configured SMTP, else the operator outbox (development,
        // tests), never the merchant's; a production outbox row never keeps the link.
        await messaging.sendProof({
          merchantId: user.merchant_id,
          userId: user.id,
          channel: 'email',
          to: user.email,
          subject: t.text('dashboard.resetSubject'),
          body: t.text('dashboard.reset', { link, minutes: RESET_LINK_MS / MINUTE }),
          code: token,
        });
      } catch (err) {
        // No provider: the answer must not differ from an unknown address's.
        if (!(err instanceof ApiError)) throw err;
        // (messaging recorded the failed row; the user can ask again)
      }
    },

    /**
     * Sets the password from a reset link (used once, within the hour): every session of the user
     * ends, and the sign-in lockout of the address and e-mail lifts, as for customers.
     */
    async completePasswordReset(input: { token: string; newPassword: string }, client: Client): Promise<void> {
      const invalid = (why: string) => new ApiError('reset_token_invalid', why, { param: 'token' });
      if (!RESET_TOKEN_SHAPE.test(input.token)) throw invalid('This password reset link is not valid: ask for a new one');
      assertPasswordPolicy(input.newPassword, null, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      const tokenHash = sha256(input.token);
      const userId = await db.transaction().execute(async (tx) => {
        const id = await credentials.claimReset(tokenHash, tx);
        if (id === undefined) return undefined;
        await credentials.setPassword(id, passwordHash, tx);
        await credentials.closeResets(id, tx);
        await repo.deleteUserSessions(tx, id);
        return id;
      });
      if (userId === undefined) {
        const found = await credentials.findReset(tokenHash);
        if (found?.used_at) throw invalid('This password reset link was already used: ask for a new one if needed');
        if (found) throw invalid('This password reset link has expired (it is valid for one hour): ask for a new one');
        throw invalid('This password reset link is not valid: ask for a new one');
      }
      const row = await credentials.find(userId);
      if (row) for (const limit of lockout(row.email.toLowerCase(), client.address)) await throttle.clear(limit.subject);
    },

    /** The user's own open sessions, newest first, the current one marked. */
    async listSessions(account: { userId: string; tokenHash: Buffer }) {
      const rows = await repo.listSessions(db, account.userId, clock.now());
      return {
        object: 'list' as const,
        data: rows.map((r) => ({
          object: 'dashboard_session_entry' as const,
          id: r.id,
          createdAt: r.created_at.toISOString(),
          lastSeenAt: r.last_seen_at.toISOString(),
          address: r.address,
          userAgent: r.user_agent,
          current: r.token_hash.equals(account.tokenHash),
        })),
        hasMore: false,
      };
    },

    /** Ends one of the user's sessions (404 for another user's or an unknown id). Returns whether it was the current one. */
    async revokeSession(account: { userId: string; tokenHash: Buffer }, id: string): Promise<{ current: boolean }> {
      const rows = await repo.listSessions(db, account.userId, clock.now());
      const current = rows.find((r) => r.id === id)?.token_hash.equals(account.tokenHash) ?? false;
      if (!(await repo.deleteSessionById(db, account.userId, id))) throw new ApiError('not_found', `No session ${id}`, { param: 'id' });
      return { current };
    },

    /** Ends every other session of the user. */
    async revokeOtherSessions(account: { userId: string; tokenHash: Buffer }) {
      return { object: 'dashboard_sessions_revoked' as const, revoked: await repo.deleteUserSessions(db, account.userId, account.tokenHash) };
    },
  };
}

export type AccountSecurity = ReturnType<typeof createAccountSecurity>;
