import { DAY, HOUR, MINUTE } from '../../platform/clock.ts';
import { decrypt, encrypt, randomToken } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { csvStream } from '../../platform/csv.ts';
import { instantOf } from '../../platform/http/dashboard-api.ts';
import { createStaffSessions, type StaffSessionRecord, type StaffSessionStore } from '../../platform/http/staff-session.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { createThrottle, loginRules } from '../../platform/throttle.ts';
import { matchTotp, newTotpSecret, totpQrCode, totpUri } from '../../platform/totp.ts';
import { capabilitiesOf, type ModeConnectors, PROVIDER_OUTCOMES, providerDescriptions, type ProviderName } from '../connectors/index.ts';
import type { LedgerReport, LedgerService } from '../ledger/index.ts';
import type { MerchantsService, TermsPatch } from '../merchants/index.ts';
import type { MethodsService } from '../methods/index.ts';
import type { OnboardingService } from '../onboarding/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import type { ReconciliationService } from '../reconciliation/index.ts';
import type { CheckResult, ProviderAccountInput, ProviderAccountsService } from '../provideraccounts/index.ts';
import type { RouteKey, RoutesService } from '../routes/index.ts';
import type { MobileRefunds } from '../charges/index.ts';
import { type CustomerLimits, maskPhoneNumber, type UsersService } from '../users/index.ts';
import { type OperatorAuditRow, type OperatorRow, operatorsRepository as repo } from './operators.repository.ts';
import { type OperatorAuditAction, type OperatorPermission, type OperatorRole, operatorPermissionsOf } from './operators.roles.ts';

/** An operator session ends after 15 idle minutes, and 8 hours after sign-in (shorter than a merchant's: it reaches every merchant). */
export const OPERATOR_SESSION_IDLE_MS = 15 * MINUTE;
export const OPERATOR_SESSION_ABSOLUTE_MS = 8 * HOUR;
/** The merchants list shows at most this many (the search box finds the others). */
const MERCHANT_LIST_LIMIT = 50;

/** The fee report's period when none is given, and the longest one asked at once. */
const FEES_DEFAULT_DAYS = 30;
const FEES_MAX_DAYS = 366;

/** The fee report's filters (GET /operator/api/money/fees). */
export interface FeesFilter {
  mode?: 'test' | 'live';
  currency?: string;
  from?: string;
  to?: string;
}

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

/** Who the client is: recorded with the session it opens. */
export interface OperatorClient {
  address: string;
  userAgent?: string;
}

interface AuditInput {
  action: OperatorAuditAction;
  targetType?:
    | 'operator'
    | 'merchant'
    | 'ledger'
    | 'payout'
    | 'payout_threshold'
    | 'customer_limits'
    | 'customer'
    | 'provider_account'
    | 'route'
    | 'manual_return';
  targetId?: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

function operatorView(o: OperatorRow) {
  return {
    id: o.id,
    object: 'operator' as const,
    email: o.email,
    role: o.role,
    totpEnabled: o.totp_enabled_at !== null,
    createdAt: o.created_at.toISOString(),
  };
}

function auditView(r: OperatorAuditRow) {
  return {
    id: r.id,
    object: 'operator_audit_entry' as const,
    action: r.action,
    actor: { id: r.actor_id, email: r.actor_email },
    targetType: r.target_type,
    targetId: r.target_id,
    before: r.before ?? null,
    after: r.after ?? null,
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * The operator console: operators and their sign-in (password and TOTP, always), their
 * sessions, the merchants seen from above (search, page, freeze), the platform's money from the
 * ledger, and the audit log of every operator action. Rules in docs/decisions/0033-operator-console.md.
 */
export function createOperatorsService(
  deps: Deps,
  services: {
    merchants: MerchantsService;
    ledger: Pick<LedgerService, 'totals' | 'merchantBalances' | 'wallet' | 'feeRevenue'>;
    users: Pick<UsersService, 'findForOperator' | 'findAnyForOperator' | 'setLocked' | 'sendPasswordResetForOperator'>;
    verifyBooks: () => Promise<LedgerReport>;
    onboarding: OnboardingService;
    payouts: Pick<PayoutsService, 'thresholds' | 'setThreshold' | 'inReview' | 'review'>;
    customerLimits: Pick<CustomerLimits, 'list' | 'set'>;
    connectors: Pick<ModeConnectors, 'forMode'>;
    methods: Pick<MethodsService, 'allowance' | 'setAllowance'>;
    reconciliation: Pick<ReconciliationService, 'latest'>;
    providerAccounts: Pick<ProviderAccountsService, 'list' | 'add' | 'disable' | 'check'>;
    routes: Pick<RoutesService, 'list' | 'set'>;
    /** Late payments whose connector cannot send them back, to return by hand. */
    lateReturns: Pick<MobileRefunds, 'manualReturns' | 'markReturned'>;
  },
) {
  const { db, clock, random, config, ids } = deps;
  const { merchants, ledger, verifyBooks, onboarding, payouts, customerLimits, connectors, users, methods, reconciliation, providerAccounts } = services;
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

  async function record(executor: Executor, actor: { operatorId: string | null; email: string }, entry: AuditInput): Promise<void> {
    await repo.insertAudit(executor, {
      id: ids('operatorAuditEntry'),
      actor_id: actor.operatorId,
      actor_email: actor.email,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      reason: entry.reason ?? null,
      created_at: clock.now(),
    });
  }

  /** A new operator with a generated password, shown once; the audit entry in the same transaction. */
  async function createOperator(input: { email: string; role: OperatorRole }, actor: { operatorId: string | null; email: string }) {
    const email = input.email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
      throw new ApiError('validation_error', 'The e-mail address is not valid', { param: 'email' });
    const password = randomToken(random, 15);
    const passwordHash = await hashPassword(password);
    return db.transaction().execute(async (tx) => {
      if (await repo.findOperatorByEmail(tx, email))
        throw new ApiError('already_exists', `An operator with the e-mail ${email} exists already`, { param: 'email' });
      const row = await repo.insertOperator(tx, {
        id: ids('operator'),
        email,
        password_hash: passwordHash,
        role: input.role,
        invited_by: actor.operatorId,
        created_at: clock.now(),
      });
      await record(tx, actor, { action: 'operator.created', targetType: 'operator', targetId: row.id, after: { email, role: input.role } });
      return { ...operatorView(row), password };
    });
  }

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

  /** A merchant's page: its settings and keys from the merchants module, its balances from the ledger. */
  async function merchantPage(merchantId: string) {
    const profile = await merchants.merchantProfile(merchantId);
    if (!profile) throw new ApiError('not_found', `No merchant ${merchantId}`, { param: 'id' });
    const balances = [];
    for (const mode of ['test', 'live'] as const) {
      for (const kind of ['merchant_pending', 'merchant_balance', 'merchant_reserve'] as const) {
        for (const b of await ledger.merchantBalances(merchantId, mode, db, kind)) balances.push({ mode, kind, currency: b.currency, amount: b.amount });
      }
    }
    const allowance = (mode: 'test' | 'live') => methods.allowance({ merchantId, mode });
    return { object: 'operator_merchant' as const, ...profile, methods: { test: await allowance('test'), live: await allowance('live') }, balances };
  }

  /** The report's period: `to` defaults to the end of today (UTC, so today counts whole), `from` to 30 days before; a year at most. */
  function feePeriod(q: FeesFilter): { from: Date; to: Date } {
    const to = instantOf(q.to, 'to') ?? new Date(Math.floor(clock.now().getTime() / DAY) * DAY + DAY);
    const from = instantOf(q.from, 'from') ?? new Date(to.getTime() - FEES_DEFAULT_DAYS * DAY);
    if (from >= to) throw new ApiError('validation_error', 'from must be before to', { param: 'from' });
    if (to.getTime() - from.getTime() > FEES_MAX_DAYS * DAY)
      throw new ApiError('validation_error', `The period is ${FEES_MAX_DAYS} days at most`, { param: 'from' });
    return { from, to };
  }

  return {
    /** The session cookie, CSRF token, cross-site refusal and expiry (platform/http/staff-session.ts). */
    staff,
    csrfTokenOf,

    /**
     * `npx caisse operators create`: an admin, with a password shown once. Made by the command
     * line (no operator acts), so its audit entry names the CLI as the actor.
     */
    createFromCli: (email: string, role: OperatorRole = 'admin') => createOperator({ email, role }, { operatorId: null, email: 'cli' }),

    /** An admin invites an operator: the password is answered once, for the admin to hand over. */
    invite: (session: OperatorSession, input: { email: string; role: OperatorRole }) => createOperator(input, session),

    listOperators: async () => ({ object: 'list' as const, data: (await repo.listOperators(db)).map(operatorView) }),

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

    // ---- merchants ----------------------------------------------------------------------------

    async listMerchants(q: { q?: string }) {
      return { object: 'list' as const, data: await merchants.searchMerchants(q.q ?? '', MERCHANT_LIST_LIMIT) };
    },

    merchant: merchantPage,

    /** Freezes (or unfreezes) a merchant with a reason; the audit entry commits with the change. */
    async setFrozen(s: OperatorSession, merchantId: string, frozen: boolean, reason: string) {
      const text = reason.trim();
      if (text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      await merchants.setFrozen(merchantId, frozen ? { reason: text } : null, (tx, before, after) =>
        record(tx, s, { action: frozen ? 'merchant.frozen' : 'merchant.unfrozen', targetType: 'merchant', targetId: merchantId, before, after, reason: text }),
      );
      return merchantPage(merchantId);
    },

    /** Sets some of a merchant's terms (fees, settlement delay, reserve) with a reason; the audit entry commits with them. */
    async setTerms(
      s: OperatorSession,
      merchantId: string,
      body: { reason: string } & Omit<TermsPatch, 'fees'> & { fees?: { bps: number; fixedMinor: Record<string, string> } | null },
    ) {
      const text = body.reason.trim();
      if (text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      const fees = body.fees && { bps: body.fees.bps, fixedMinor: Object.fromEntries(Object.entries(body.fees.fixedMinor).map(([c, v]) => [c, BigInt(v)])) };
      await merchants.setTerms(merchantId, { fees, settlementDelayDays: body.settlementDelayDays, reserve: body.reserve }, (tx, before, after) =>
        record(tx, s, { action: 'merchant.terms_set', targetType: 'merchant', targetId: merchantId, before, after, reason: text }),
      );
      return merchantPage(merchantId);
    },

    /** Sets the payment methods a merchant may offer in one mode, with a reason; the audit entry commits with them. */
    async setMethods(
      s: OperatorSession,
      merchantId: string,
      body: { mode: 'test' | 'live'; wallet: boolean; providers: ProviderName[] | null; reason: string },
    ) {
      const text = body.reason.trim();
      if (text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      await methods.setAllowance({ merchantId, mode: body.mode }, { wallet: body.wallet, providers: body.providers }, s.operatorId, (tx, before, after) =>
        record(tx, s, {
          action: 'merchant.methods_set',
          targetType: 'merchant',
          targetId: merchantId,
          before: { mode: body.mode, ...before },
          after: { mode: body.mode, ...after },
          reason: text,
        }),
      );
      return merchantPage(merchantId);
    },

    // ---- business profiles --------------------------------------------------------------------

    submittedProfiles: () => onboarding.listSubmitted(),
    profile: (merchantId: string) => onboarding.profile(merchantId),
    document: (merchantId: string) => onboarding.document(merchantId),

    /** Approves or rejects a submitted profile; the audit entry commits with the decision. */
    async review(s: OperatorSession, merchantId: string, approve: boolean, reason: string | undefined) {
      const text = (reason ?? '').trim();
      if (!approve && text === '')
        throw new ApiError('validation_error', 'Say why (reason): the merchant is told, the audit log keeps it', { param: 'reason' });
      const decision = approve ? { approve: true as const } : { approve: false as const, reason: text };
      return onboarding.review(merchantId, decision, s.operatorId, (tx, before, after) =>
        record(tx, s, {
          action: approve ? 'merchant.approved' : 'merchant.rejected',
          targetType: 'merchant',
          targetId: merchantId,
          before,
          after,
          ...(text === '' ? {} : { reason: text }),
        }),
      );
    },

    // ---- money --------------------------------------------------------------------------------

    /** The platform's money per mode and currency, by ledger account kind. */
    async money() {
      return { object: 'operator_money' as const, totals: await ledger.totals() };
    },

    /** Fee revenue per UTC day, mode, currency and merchant, with the period's totals. */
    async fees(q: FeesFilter) {
      const period = feePeriod(q);
      const data = await ledger.feeRevenue({ ...period, mode: q.mode, currency: q.currency });
      const sums = new Map<string, { mode: 'test' | 'live'; currency: Currency; minor: bigint }>();
      for (const d of data) {
        const key = `${d.mode}:${d.currency}`;
        const sum = sums.get(key) ?? { mode: d.mode, currency: d.currency, minor: 0n };
        sum.minor += BigInt(d.minor);
        sums.set(key, sum);
      }
      const totals = [...sums.values()].map((t) => ({
        mode: t.mode,
        currency: t.currency,
        amount: formatAmount(t.minor, t.currency),
        minor: t.minor.toString(),
      }));
      return { object: 'operator_fees' as const, from: period.from.toISOString(), to: period.to.toISOString(), data, totals };
    },

    /** The same report as a CSV download, one row per day, mode, currency and merchant. */
    feesCsv(q: FeesFilter): NodeJS.ReadableStream {
      const period = feePeriod(q);
      return csvStream(['day', 'mode', 'currency', 'merchant_id', 'amount', 'amount_minor', 'transfers'], async (write) => {
        for (const d of await ledger.feeRevenue({ ...period, mode: q.mode, currency: q.currency })) {
          await write([d.day, d.mode, d.currency, d.merchantId, d.amount, d.minor, d.transfers]);
        }
      });
    },

    /** The newest reconciliation of each provider and mode (`caisse reconcile` records each). */
    reconciliations: async () => ({ object: 'list' as const, data: await reconciliation.latest() }),

    /** Runs `ledger verify` now (the books and the balance statements); the run and its outcome go to the audit log. */
    async verifyLedger(s: OperatorSession) {
      const report = await verifyBooks();
      const result = { ok: report.ok, accounts: report.accounts, transfers: report.transfers, postings: report.postings, differences: report.differences };
      await record(db, s, { action: 'ledger.verified', targetType: 'ledger', after: { ok: report.ok, differences: report.differences.length } });
      return { object: 'ledger_verification' as const, ...result };
    },

    // ---- payout review (four eyes, decision 0041) -----------------------------------------------

    payoutThresholds: async () => ({ object: 'list' as const, data: await payouts.thresholds() }),

    /** Sets or removes a threshold; the audit entry commits with it. */
    async setPayoutThreshold(s: OperatorSession, input: { mode: 'test' | 'live'; currency: string; amount: string | null }) {
      const data = await payouts.setThreshold(s, input, (tx, before, after) =>
        record(tx, s, { action: 'payout.threshold_set', targetType: 'payout_threshold', targetId: `${input.mode}:${input.currency}`, before, after }),
      );
      return { object: 'list' as const, data };
    },

    payoutsInReview: async () => ({ object: 'list' as const, data: await payouts.inReview() }),

    /** Approves or rejects a held payout (never one the operator's own threshold held); the audit entry commits with it. */
    async reviewPayout(s: OperatorSession, payoutId: string, approve: boolean, reason: string | undefined) {
      const text = (reason ?? '').trim();
      if (!approve && text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      return payouts.review(s, payoutId, { approve, reason: text }, (tx, before, after) =>
        record(tx, s, {
          action: approve ? 'payout.approved' : 'payout.rejected',
          targetType: 'payout',
          targetId: payoutId,
          before,
          after,
          ...(text === '' ? {} : { reason: text }),
        }),
      );
    },

    // ---- routes and late payments to return by hand (decision 0077) -------------------------------

    routes: async (mode?: 'test' | 'live') => ({ object: 'list' as const, data: await services.routes.list({ mode }) }),

    /** Sets a route (connectors null: back to the default); the audit entry commits with it. */
    async setRoute(s: OperatorSession, key: RouteKey, connectors: string[] | null) {
      return services.routes.set(key, connectors, s.operatorId, (tx, before, after) =>
        record(tx, s, {
          action: 'route.set',
          targetType: 'route',
          targetId: `${key.mode}:${key.country}:${key.kind}:${key.method}`,
          before: before.connectors,
          after: after.connectors,
        }),
      );
    },

    lateReturns: async (status?: 'TO_RETURN' | 'RETURNED') => ({ object: 'list' as const, data: await services.lateReturns.manualReturns({ status }) }),

    /** An operator returned a late payment by hand: a note is required; the audit entry commits with it. */
    async markReturned(s: OperatorSession, id: string, note: string) {
      const text = note.trim();
      if (text === '') throw new ApiError('validation_error', 'Say how it was returned (note): the audit log keeps it', { param: 'note' });
      return services.lateReturns.markReturned(id, s.operatorId, text, (tx, before, after) =>
        record(tx, s, { action: 'late_payment.returned', targetType: 'manual_return', targetId: id, before: before.status, after: after.status, reason: text }),
      );
    },

    // ---- customer limits (decision 0042) -------------------------------------------------------

    /**
     * Every provider of the registry in each mode: what it is, whether this server has it set up
     * (never a setting's value), the provider account it is called with and that account's health
     * as this process has seen it (decisions 0041, 0078).
     */
    providers() {
      const data = (['test', 'live'] as const).flatMap((mode) => {
        const registry = connectors.forMode(mode);
        const views = registry.health?.views() ?? [];
        return providerDescriptions().map((d) => {
          // The health of the account this mode calls the provider with, for its own method.
          const account = registry.account(d.name);
          const seen = views.find((v) => v.account === account && v.method === d.name);
          const outcomes = seen?.outcomes ?? Object.fromEntries(PROVIDER_OUTCOMES.map((o) => [o, 0]));
          return {
            object: 'operator_provider' as const,
            provider: d.name,
            mode,
            name: d.displayName,
            countries: [...d.countries],
            currencies: [...d.currencies],
            // Less what this mode's account lacks (MTN without a disbursement key collects only).
            capabilities: Object.entries(capabilitiesOf(d, registry.get(d.name)))
              .filter(([, on]) => on)
              .map(([c]) => c),
            configured: registry.get(d.name) !== undefined,
            providerAccount: account ?? null,
            health: { available: account === undefined || (registry.health?.available(account, d.name) ?? true), outcomes },
          };
        });
      });
      return { object: 'list' as const, data };
    },

    // ---- provider accounts (decision 0075) ----------------------------------------------------

    /** Every provider account, the platform's included; credentials masked (at most their last four characters). */
    async providerAccounts() {
      return { object: 'list' as const, data: await providerAccounts.list() };
    },

    /** Adds an account; the audit entry (the account as listed: credentials masked) commits with it. */
    async addProviderAccount(s: OperatorSession, body: ProviderAccountInput) {
      return providerAccounts.add(body, (tx, _before, after) =>
        record(tx, s, { action: 'provider_account.added', targetType: 'provider_account', targetId: after.id, after }),
      );
    },

    async disableProviderAccount(s: OperatorSession, id: string) {
      return providerAccounts.disable(id, (tx, before, after) =>
        record(tx, s, {
          action: 'provider_account.disabled',
          targetType: 'provider_account',
          targetId: id,
          before: before && { status: before.status },
          after: { status: after.status },
        }),
      );
    },

    /** Checks one account; an operator's account keeps the answer (`lastCheck`) and the audit log says who asked. */
    async checkProviderAccount(s: OperatorSession, id: string) {
      const [result] = await providerAccounts.check({ id }, (tx, r) =>
        record(tx, s, { action: 'provider_account.checked', targetType: 'provider_account', targetId: id, after: { ok: r.ok, detail: r.detail } }),
      );
      return result as CheckResult;
    },

    /**
     * Support's customer lookup by phone number: each mode's account, its lock, its wallet
     * balances and latest movements across merchants, and the tier-0 limits of its mode. Audited.
     */
    async customers(s: OperatorSession, phoneNumber: string) {
      const found = await users.findForOperator(phoneNumber);
      const limits = await customerLimits.list();
      const data = [];
      for (const u of found) {
        const wallet = await ledger.wallet({ userId: u.id, mode: u.mode });
        data.push({
          object: 'operator_customer' as const,
          id: u.id,
          mode: u.mode,
          phoneNumber: u.phone_number,
          phoneVerified: u.phone_verified_at !== null,
          createdAt: u.created_at.toISOString(),
          locked: u.locked_at !== null,
          lockedAt: u.locked_at?.toISOString() ?? null,
          lockedReason: u.locked_reason,
          balances: wallet.balances,
          movements: wallet.movements,
          limits: limits.filter((l) => l.livemode === (u.mode === 'live') && l.tier === 0),
        });
      }
      // The log keeps who looked for which customer, not a number anyone reading it could call.
      await record(db, s, {
        action: 'customer.looked_up',
        targetType: 'customer',
        targetId: maskPhoneNumber(phoneNumber),
        after: { found: data.map((c) => c.id) },
      });
      return { object: 'list' as const, data };
    },

    /** Locks (a reason required) or unlocks a customer; the audit entry commits with it. */
    async lockCustomer(s: OperatorSession, id: string, lock: boolean, reason: string) {
      const after = await users.setLocked(id, lock ? { reason } : null, (tx, before) =>
        record(tx, s, {
          action: lock ? 'customer.locked' : 'customer.unlocked',
          targetType: 'customer',
          targetId: id,
          before: { locked: before.locked_at !== null },
          after: { locked: lock },
          reason,
        }),
      );
      return { object: 'customer_lock' as const, id: after.id, locked: after.locked_at !== null, lockedReason: after.locked_reason };
    },

    /** Sends the customer the password reset code by SMS (as POST /auth/password-reset); audited. */
    async sendPasswordReset(s: OperatorSession, id: string) {
      const { user, expiresAt } = await users.sendPasswordResetForOperator(id);
      await record(db, s, { action: 'customer.password_reset_sent', targetType: 'customer', targetId: user.id, after: { channel: 'sms' } });
      return { object: 'customer_password_reset' as const, id: user.id, channel: 'sms' as const, expiresAt: expiresAt.toISOString() };
    },

    customerLimits: async () => ({ object: 'list' as const, data: await customerLimits.list() }),

    /** Sets a tier's caps in a mode and currency; the audit entry commits with them. */
    setCustomerLimits(s: OperatorSession, input: Parameters<CustomerLimits['set']>[1]) {
      return customerLimits.set(s, input, (tx, before, after) =>
        record(tx, s, {
          action: 'customer_limits.set',
          targetType: 'customer_limits',
          targetId: `${input.mode}:${input.tier}:${input.currency}`,
          before,
          after,
        }),
      );
    },

    // ---- audit --------------------------------------------------------------------------------

    async listAudit(q: { targetId?: string; startingAfter?: string; limit: number }) {
      const rows = await repo.listAudit(db, { ...q, limit: q.limit + 1 });
      return { object: 'list' as const, data: rows.slice(0, q.limit).map(auditView), hasMore: rows.length > q.limit };
    },

    /** Retention: deletes up to `limit` sessions expired by `now`; how many. */
    purgeExpiredSessions: (now: Date, limit: number) => repo.purgeExpiredSessions(db, now, limit),
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
