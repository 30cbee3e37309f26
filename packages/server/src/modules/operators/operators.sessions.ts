import { HOUR, MINUTE } from '../../platform/clock.ts';
import { decrypt, encrypt } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { createStaffSessions, type StaffSessionRecord, type StaffSessionStore } from '../../platform/http/staff-session.ts';
import { dummyPasswordHash, verifyPassword } from '../../platform/passwords.ts';
import { createThrottle, loginRules } from '../../platform/throttle.ts';
import { matchTotp, newTotpSecret, totpQrCode, totpUri } from '../../platform/totp.ts';
import type { RecordAudit } from './operators.audit.ts';
import { operatorsRepository as repo } from './operators.repository.ts';
import { type OperatorPermission, type OperatorRole, operatorPermissionsOf } from './operators.roles.ts';

/** An operator session ends after 15 idle minutes, and 8 hours after sign-in (shorter than a merchant's: it reaches every merchant). */
export const OPERATOR_SESSION_IDLE_MS = 15 * MINUTE;
export const OPERATOR_SESSION_ABSOLUTE_MS = 8 * HOUR;

/** The signed-in operator, as every operator API call sees it (read with the session each time). */
export interface OperatorSession {
  tokenHash: Buffer;
  operatorId: string;
  email: string;
  role: OperatorRole;
  /** `enrol` until a TOTP code is given: only two-factor enrolment is open then. */
  stage: 'enrol' | 'full';
  expiresAt: Date;
}

type Stage = 'enrol' | 'full';

/** Who the client is: recorded with the session it opens. */
export interface OperatorClient {
  address: string;
  userAgent?: string;
}

/** The console's sessions table, as the shared staff session reads and writes it (decision 0089). */
function sessionStore(deps: Pick<Deps, 'db' | 'ids'>): StaffSessionStore<StaffSessionRecord & { stage: Stage }, { stage: Stage; email: string }> {
  const { db } = deps;
  return {
    insert: (s, { stage }) =>
      repo.insertSession(db, {
        token_hash: s.tokenHash,
        id: deps.ids('operatorSession'),
        operator_id: s.subjectId,
        stage,
        address: s.address,
        user_agent: s.userAgent,
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
        expires_at: s.expiresAt,
        absolute_expires_at: s.absoluteExpiresAt,
      }),
    async find(tokenHash) {
      const row = await repo.findSession(db, tokenHash);
      return (
        row && {
          subjectId: row.operator_id,
          stage: row.stage,
          lastSeenAt: row.last_seen_at,
          expiresAt: row.expires_at,
          absoluteExpiresAt: row.absolute_expires_at,
        }
      );
    },
    touch: (tokenHash, seenAt, expiresAt) => repo.touchSession(db, tokenHash, seenAt, expiresAt),
    rekey: (oldHash, newHash, seenAt, expiresAt) => repo.rekeySession(db, oldHash, newHash, seenAt, expiresAt),
    remove: (tokenHash) => repo.deleteSession(db, tokenHash),
    removeExpired: (operatorId, now) => repo.deleteExpiredSessions(db, operatorId, now),
  };
}

/**
 * Operators' sign-in (password and TOTP, always), their sessions and two-factor enrolment. Every
 * session opened goes to the audit log.
 */
export function createOperatorSessions(deps: Deps, record: RecordAudit) {
  const { db, clock, random, config } = deps;
  const throttle = createThrottle(deps);
  const staff = createStaffSessions({
    cookieName: 'caisse_operator',
    // Never the dashboard's `ds_`: neither token opens the other's API.
    tokenPrefix: 'os',
    csrfPurpose: 'operator-csrf',
    idleMs: OPERATOR_SESSION_IDLE_MS,
    absoluteMs: OPERATOR_SESSION_ABSOLUTE_MS,
    store: sessionStore(deps),
    clock,
    random,
    masterKey: config.masterKey,
    production: config.mode === 'production',
    messages: {
      sessionRequired: 'Sign in to the operator console: the session is missing, has expired or was signed out',
      csrfInvalid: 'Send the csrfToken of GET /operator/api/session in the x-csrf-token header',
      crossSite: "The operator API takes requests from the console's own pages only",
    },
    // Who opened a session, from where: the first thing a review of an incident asks.
    onOpened: ({ subjectId, client, extra }) =>
      record(
        db,
        { operatorId: subjectId, email: extra.email },
        { action: 'operator.signed_in', targetType: 'operator', targetId: subjectId, after: { stage: extra.stage, address: client.address } },
      ),
  });
  const { csrfTokenOf } = staff;

  function sessionView(s: OperatorSession, sessionToken: string) {
    return {
      object: 'operator_session' as const,
      email: s.email,
      role: s.role,
      // Until enrolment, nothing but the account is open, whatever the role.
      permissions: s.stage === 'full' ? operatorPermissionsOf(s.role) : (['account'] as OperatorPermission[]),
      totpEnrolmentRequired: s.stage === 'enrol',
      csrfToken: csrfTokenOf(sessionToken),
      expiresAt: s.expiresAt.toISOString(),
    };
  }

  return {
    /** The session cookie, CSRF token, cross-site refusal and expiry (platform/http/staff-session.ts). */
    staff,
    csrfTokenOf,

    /**
     * Sign-in: e-mail, password and the current TOTP code. Counted in the sign-in lockout before
     * the password is checked, as for the dashboard. An operator without TOTP gets a session that
     * can only enrol (stage `enrol`); with TOTP, no code or a wrong one opens nothing.
     */
    async login(input: { email: string; password: string; code?: string }, client: OperatorClient) {
      const email = input.email.trim().toLowerCase();
      const attempt = await throttle.beginAll(loginRules({ subject: `operator:${email}`, address: client.address, what: 'this e-mail address' }));
      const operator = await repo.findOperatorByEmail(db, email);
      const ok = await verifyPassword(operator?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!operator || !ok) throw new ApiError('invalid_credentials', 'The e-mail address or the password is incorrect');
      let stage: OperatorSession['stage'] = 'enrol';
      if (operator.totp_enabled_at !== null && operator.totp_secret_encrypted !== null) {
        if (input.code === undefined) throw new ApiError('totp_code_required', 'Type the current code of your authenticator app (code)', { param: 'code' });
        const step = matchTotp(decrypt(config.masterKey, operator.totp_secret_encrypted), input.code.replace(/\s/g, ''), clock.now());
        if (step === null) throw new ApiError('totp_code_invalid', 'The code is not the current one of the authenticator app', { param: 'code' });
        if (!(await repo.claimTotpStep(db, operator.id, step)))
          throw new ApiError('totp_code_reused', 'This code was already used; wait for the next one in the authenticator app', { param: 'code' });
        stage = 'full';
      }
      await attempt.succeeded();
      const { sessionToken, tokenHash, expiresAt, absoluteExpiresAt } = await staff.open(operator.id, client, { stage, email: operator.email });
      const session: OperatorSession = { tokenHash, operatorId: operator.id, email: operator.email, role: operator.role, stage, expiresAt };
      return { sessionToken, absoluteExpiresAt, session: sessionView(session, sessionToken) };
    },

    /** The live session of a cookie's token, its idle expiry pushed forward; else 401 `session_required`. */
    async authenticate(sessionToken: string | undefined): Promise<OperatorSession> {
      const { subject: operator, record: row, tokenHash, expiresAt } = await staff.authenticate(sessionToken, (r) => repo.findOperator(db, r.subjectId));
      return { tokenHash, operatorId: operator.id, email: operator.email, role: operator.role, stage: row.stage, expiresAt };
    },

    /** 403 `csrf_token_invalid` unless `sent` is the session's CSRF token (constant-time compare). */
    checkCsrf: staff.checkCsrf,

    sessionView,

    logout: (s: OperatorSession) => staff.end(s.tokenHash),

    /** Starts (or restarts) TOTP enrolment: a new secret, shown once with its otpauth:// URI and its QR code. */
    async startTotp(s: OperatorSession) {
      const operator = await repo.findOperator(db, s.operatorId);
      if (operator?.totp_enabled_at) throw new ApiError('totp_state_invalid', 'Two-factor sign-in is already enabled for this operator');
      const secret = newTotpSecret(random);
      await repo.setTotpSecret(db, s.operatorId, encrypt(config.masterKey, secret, random));
      const uri = totpUri(secret, 'Caisse operator', s.email);
      return { object: 'operator_totp_enrolment' as const, secret, uri, qrCode: await totpQrCode(uri) };
    },

    /** Ends enrolment with a valid code: TOTP is on and this session is fully signed in. */
    async confirmTotp(s: OperatorSession, code: string): Promise<OperatorSession> {
      const operator = await repo.findOperator(db, s.operatorId);
      if (!operator?.totp_secret_encrypted || operator.totp_enabled_at)
        throw new ApiError('totp_state_invalid', 'Start the enrolment first (POST /operator/api/totp)');
      const step = matchTotp(decrypt(config.masterKey, operator.totp_secret_encrypted), code.replace(/\s/g, ''), clock.now());
      // 400, as the dashboard's enrolment: a 401 would read as "signed out" to the console.
      if (step === null) throw new ApiError('otp_incorrect', 'The code is not the current one of the authenticator app just enrolled', { param: 'code' });
      await db.transaction().execute(async (tx) => {
        if (!(await repo.claimTotpStep(tx, s.operatorId, step)))
          throw new ApiError('totp_code_reused', 'This code was already used; wait for the next one', { param: 'code' });
        await repo.enableTotp(tx, s.operatorId, clock.now());
        await repo.upgradeSession(tx, s.tokenHash);
        await record(tx, s, {
          action: 'operator.totp_enabled',
          targetType: 'operator',
          targetId: s.operatorId,
          before: { totpEnabled: false },
          after: { totpEnabled: true },
        });
      });
      return { ...s, stage: 'full' };
    },

    /** Retention: deletes up to `limit` sessions expired by `now`; how many. */
    purgeExpiredSessions: (now: Date, limit: number) => repo.purgeExpiredSessions(db, now, limit),
  };
}
