import { createHmac } from 'node:crypto';
import { DAY, HOUR, MINUTE } from '../../platform/clock.ts';
import { decrypt, encrypt, randomToken, safeEqual, sha256 } from '../../platform/crypto.ts';
import { csvStream, textCell } from '../../platform/csv.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n.ts';
import type { IdempotentAnswer } from '../../platform/http/idempotency.ts';
import { newId } from '../../platform/ids.ts';
import { maskPhone } from '../../platform/codes.ts';
import { dummyPasswordHash, verifyPassword } from '../../platform/passwords.ts';
import { createThrottle, LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, loginRules } from '../../platform/throttle.ts';
import type { ChargesService, HourFigures, RefundBody } from '../charges/index.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import type { TopupsService } from '../topups/index.ts';
import type { EventsService } from '../events/index.ts';
import type { IntentStatus, IntentsService } from '../intents/index.ts';
import { type Caller, type KeyMode, type KeyPermissions, scopeOf } from '../../platform/tenancy.ts';
import type { MerchantsService } from '../merchants/index.ts';
import type { MessagingService } from '../messaging/index.ts';
import type { UsersService } from '../users/index.ts';
import type { EventBody, WebhooksService } from '../webhooks/index.ts';
import { type AuditRow, dashboardRepository as repo } from './dashboard.repository.ts';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type DashboardAudit, instantOf } from '../../platform/http/dashboard-api.ts';
import { type Client, createAccountSecurity } from './dashboard.account.ts';
import { keyBeyondRole, type Permission, permissionsOf, type Role } from './dashboard.roles.ts';

/** Sign-in lockout: 5 failures per e-mail address within 15 minutes (as POST /auth/web). */
export { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS };
/** Search results shown at most (the box is for finding one payment, not for listing). */
const SEARCH_LIMIT = 20;
/** The fewest last digits of a phone number the search looks customers up by (fewer match too many). */
export const PHONE_SEARCH_MIN_DIGITS = 4;
/** Customers whose phone ends with the digits, looked at most (their newest payments are the results). */
const PHONE_SEARCH_CUSTOMERS = 50;

/** The Home page's periods: today (hourly buckets) and the last 7 or 30 days including today (daily), in UTC. */
export const OVERVIEW_PERIODS = ['today', '7d', '30d'] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
const PERIOD_DAYS: Record<OverviewPeriod, number> = { today: 1, '7d': 7, '30d': 30 };

interface Totals {
  volume: Map<string, bigint>;
  payments: number;
  attempts: number;
  newCustomers: number;
}

const emptyTotals = (): Totals => ({ volume: new Map(), payments: 0, attempts: 0, newCustomers: 0 });

function addHour(t: Totals, h: HourFigures): void {
  t.volume.set(h.currency, (t.volume.get(h.currency) ?? 0n) + h.volume);
  t.payments += h.succeeded;
  t.attempts += h.succeeded + h.failed;
  t.newCustomers += h.newCustomers;
}

/** Totals as the API answers them: amounts as decimal strings per currency, the success rate succeeded / attempts (null without attempts). */
function figuresView(t: Totals) {
  return {
    volume: [...t.volume]
      .filter(([, v]) => v > 0n)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, v]) => ({ currency, amount: formatAmount(v, currency as Currency) })),
    payments: t.payments,
    attempts: t.attempts,
    successRate: t.attempts === 0 ? null : Math.round((t.payments / t.attempts) * 10_000) / 10_000,
    newCustomers: t.newCustomers,
  };
}
/** A session ends after 30 idle minutes, and 12 hours after sign-in whatever happens. */
export const SESSION_IDLE_MS = 30 * MINUTE;
export const SESSION_ABSOLUTE_MS = 12 * HOUR;
/** Sliding expiry is written at most once a minute per session, so reads rarely write. */
const TOUCH_EVERY_MS = MINUTE;
/** What of a User-Agent a session keeps: enough to tell browsers apart. */
const USER_AGENT_MAX = 200;
/** Session tokens: `ds_` + 32 random bytes (256 bits) in base62. */
const SESSION_TOKEN_SHAPE = /^ds_[0-9A-Za-z]{40,50}$/;
/** The name of the API key the hosted checkout page runs with (one per merchant and mode). */
export const CHECKOUT_KEY_NAME = 'Hosted checkout';

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
  /** Two-factor sign-in (TOTP) is enabled: live mode is open to a member only then. */
  totpEnabled: boolean;
  /** The user's team role: what the dashboard API lets them do (dashboard.roles.ts). */
  role: Role;
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

export interface PaymentsQuery {
  limit: number;
  startingAfter?: string;
  status?: IntentStatus;
  createdGte?: string;
  createdLt?: string;
}

export interface CheckoutPageConfig {
  apiKey: string;
  merchantName: string;
  livemode: boolean;
  /** The merchant's default language: the page's choice when the browser asks for neither French nor English. */
  merchantLanguage: Language;
}

/** The smallest intent id of the millisecond `at`: ids sort by creation time (platform/ids.ts). */
function intentIdAt(at: Date): string {
  return newId('intent', { now: () => at }, (size) => Buffer.alloc(size));
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
    totpEnabled: user.totp_enabled_at !== null,
    role: user.role,
  };
}

/** Who the dashboard acts for: the signed-in merchant in the mode the page chose. */

/** Who did it: the signed-in dashboard user (their session, or the account an invitation made). */
export type Actor = Pick<DashboardSession, 'userId' | 'email' | 'merchantId'> &
  Partial<Pick<DashboardSession, 'language' | 'merchantLanguage' | 'merchantName'>>;

export { AUDIT_ACTIONS };

function auditView(r: Omit<AuditRow, 'seq'>) {
  return {
    id: r.id,
    object: 'audit_entry' as const,
    // Written from AUDIT_ACTIONS only (AuditEntry.action).
    action: r.action as AuditAction,
    actor: { id: r.actor_id, email: r.actor_email },
    mode: r.mode,
    targetId: r.target_id,
    details: r.details,
    createdAt: r.created_at.toISOString(),
  };
}

export function createDashboardService(
  deps: Deps,
  services: {
    merchants: MerchantsService;
    intents: IntentsService;
    charges: Pick<ChargesService, 'customerStats' | 'lastPayer' | 'listForCustomer' | 'refund' | 'refundsOf' | 'hourFigures' | 'intentsOfPayers'>;
    topups: Pick<TopupsService, 'listForCustomerAt'>;
    events: EventsService;
    webhooks: WebhooksService;
    messaging: MessagingService;
    users: UsersService;
  },
) {
  const { db, clock, random, config, ids } = deps;
  const { merchants, intents, charges, topups, events, webhooks, messaging, users } = services;
  const throttle = createThrottle(deps);
  const account = createAccountSecurity(deps, { merchants, messaging });

  /** Opens a session for a user who proved who they are: a random token, its hash stored with the client. */
  async function openSession(userId: string, client: Client): Promise<{ sessionToken: string; session: SessionView; absoluteExpiresAt: Date }> {
    const user = await merchants.findDashboardAccount(userId);
    if (!user) throw new ApiError('invalid_credentials', 'The e-mail address or the password is incorrect');
    const now = clock.now();
    const sessionToken = `ds_${randomToken(random, 32)}`;
    const absoluteExpiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
    const tokenHash = sha256(sessionToken);
    await repo.insertSession(db, {
      token_hash: tokenHash,
      id: deps.ids('dashboardSession'),
      dashboard_user_id: user.id,
      merchant_id: user.merchant_id,
      address: client.address,
      user_agent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      absolute_expires_at: absoluteExpiresAt,
    });
    await repo.deleteExpiredSessions(db, user.id, now);
    return { sessionToken, session: view(sessionOf(user, tokenHash, expiresAt), sessionToken), absoluteExpiresAt };
  }

  /** The CSRF token of a session: an HMAC of its token under the master key (nothing stored). */
  function csrfTokenOf(sessionToken: string): string {
    return createHmac('sha256', config.masterKey).update(`dashboard-csrf:${sessionToken}`).digest('base64url');
  }

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

  /** The publishable key the hosted checkout embeds for this merchant and mode, made on first use. */
  async function checkoutKey(merchantId: string, mode: KeyMode): Promise<string> {
    for (let round = 0; round < 3; round++) {
      const now = clock.now();
      const existing = await repo.findCheckoutKey(db, merchantId, mode);
      if (existing && (await merchants.isKeyUsable(existing.api_key_id))) {
        return decrypt(config.masterKey, existing.key_encrypted);
      }
      const made = await db
        .transaction()
        .execute(async (tx) => {
          const key = await merchants.createKey(merchantId, { kind: 'publishable', mode, name: CHECKOUT_KEY_NAME }, tx);
          const row = { merchant_id: merchantId, mode, api_key_id: key.id, key_encrypted: encrypt(config.masterKey, key.secret, random), created_at: now };
          // Another request made one first: roll this one back and use theirs.
          if (!(await repo.putCheckoutKey(tx, row, existing?.api_key_id))) throw new LostRace();
          return key.secret;
        })
        .catch((err: unknown) => {
          if (err instanceof LostRace) return undefined;
          throw err;
        });
      if (made !== undefined) return made;
    }
    throw new ApiError('unavailable', 'The checkout page could not get its key; reload the page');
  }

  /** Writes an audit entry on `executor` (the action's transaction, or the database after it). */
  async function record(executor: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
    await repo.insertAudit(executor, {
      id: ids('auditEntry'),
      merchant_id: actor.merchantId,
      mode: entry.mode,
      actor_id: actor.userId,
      actor_email: actor.email,
      action: entry.action,
      target_id: entry.targetId ?? null,
      details: JSON.stringify(entry.details ?? {}),
      created_at: clock.now(),
    });
  }

  /**
   * For a service that commits its outcome through an `IdempotentAnswer` (cancel, refund,
   * payout): the audit entry is written in that transaction, from the answer's body.
   */
  function inSameTransaction(
    actor: Actor,
    scope: Pick<Caller, 'mode'>,
    action: AuditAction,
    of: (body: unknown) => { targetId?: string; details?: Record<string, unknown> },
  ): IdempotentAnswer {
    return {
      record: (tx: Tx, _status: number, body: unknown) => record(tx, actor, { mode: scope.mode, action, ...of(body) }),
      recordProblem: async () => {},
      transaction: (db, fn) => db.transaction().execute(fn),
    };
  }

  return {
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
    /** The audit log as a feature's dashboard routes write it, for the signed-in user. */
    auditFor(actor: Actor): DashboardAudit {
      return {
        record: (executor, entry) => record(executor, actor, entry),
        withChange: (mode, action, of) => inSameTransaction(actor, { mode }, action, of),
      };
    },

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
      const missing = new ApiError('session_required', 'Sign in to the dashboard: the session is missing, has expired or was signed out');
      if (sessionToken === undefined || !SESSION_TOKEN_SHAPE.test(sessionToken)) throw missing;
      const tokenHash = sha256(sessionToken);
      const row = await repo.findSession(db, tokenHash);
      const now = clock.now();
      if (!row || row.expires_at <= now || row.absolute_expires_at <= now) throw missing;
      const user = await merchants.findDashboardAccount(row.dashboard_user_id);
      if (!user) throw missing;
      let expiresAt = row.expires_at;
      if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
        expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, row.absolute_expires_at.getTime()));
        await repo.touchSession(db, tokenHash, now, expiresAt);
      }
      return sessionOf(user, tokenHash, expiresAt);
    },

    sessionView: view,

    /** 403 `csrf_token_invalid` unless `sent` is the session's CSRF token (constant-time compare). */
    checkCsrf(sessionToken: string, sent: string | undefined): void {
      if (sent === undefined || !safeEqual(sent, csrfTokenOf(sessionToken))) {
        throw new ApiError('csrf_token_invalid', 'Send the csrfToken of GET /dashboard/api/session in the x-csrf-token header');
      }
    },

    /** The language switch: the user's own language from now on (null: back to their browser's). */
    async setLanguage(session: DashboardSession, language: Language | null): Promise<DashboardSession> {
      await merchants.setDashboardLanguage(session.userId, language);
      return { ...session, language };
    },

    async logout(session: DashboardSession): Promise<void> {
      await repo.deleteSession(db, session.tokenHash);
    },

    // ---- payments -----------------------------------------------------------------------------

    /**
     * The intents list with a creation-date window on top of the status filter. Ids sort by
     * creation time, so `createdLt` becomes a `startingAfter` and `createdGte` a lower bound.
     */
    async listPayments(scope: Caller, q: PaymentsQuery) {
      const gte = instantOf(q.createdGte, 'createdGte');
      const lt = instantOf(q.createdLt, 'createdLt');
      let startingAfter = q.startingAfter;
      if (lt) {
        const bound = intentIdAt(lt);
        if (startingAfter === undefined || bound < startingAfter) startingAfter = bound;
      }
      const page = await intents.list(scope, { limit: q.limit, startingAfter, status: q.status });
      if (!gte) return page;
      const floor = intentIdAt(gte);
      const data = page.data.filter((p) => p.id >= floor);
      return { ...page, data, hasMore: page.hasMore && data.length === page.data.length };
    },

    /**
     * GET …/payments.csv: every payment the list's filters select, newest first as the list, as
     * RFC 4180 CSV: the list's columns plus the metadata as JSON. Read a page of 100 at a time
     * through the intents module and stopped at `createdGte`, so a long period streams. The
     * filters are checked before the first byte (a bad one is a problem+json 400, not a cut file).
     */
    paymentsCsv(scope: Caller, q: Omit<PaymentsQuery, 'limit' | 'startingAfter'>): NodeJS.ReadableStream {
      const gte = instantOf(q.createdGte, 'createdGte');
      const lt = instantOf(q.createdLt, 'createdLt');
      if (gte && lt && gte >= lt) {
        throw new ApiError('validation_error', 'createdGte must be before createdLt', {
          param: 'createdGte',
          errors: [{ param: 'createdGte', message: 'not before createdLt' }],
        });
      }
      const floor = gte && intentIdAt(gte);
      const columns = ['id', 'created_at', 'amount', 'currency', 'status', 'description', 'metadata'];
      return csvStream(columns, async (write) => {
        let startingAfter = lt && intentIdAt(lt);
        for (;;) {
          const page = await intents.list(scope, { limit: 100, startingAfter, status: q.status });
          for (const p of page.data) {
            if (floor !== undefined && p.id < floor) return;
            await write([p.id, p.createdAt, p.amount, p.currency, p.status, textCell(p.description ?? ''), JSON.stringify(p.metadata)]);
          }
          const last = page.data[page.data.length - 1];
          if (!page.hasMore || !last) return;
          startingAfter = last.id;
        }
      });
    },

    /**
     * The header's search box: payments by id, metadata value or amount, and, for 4 digits or more
     * (spaces and a leading + allowed), the payments of the merchant's customers whose phone number
     * ends with them (20 at most). Fewer digits are searched as an amount or a metadata value only.
     */
    async search(scope: Caller, q: string) {
      const text = q.trim();
      if (text === '') throw new ApiError('validation_error', 'Type something to search for', { param: 'q', errors: [{ param: 'q', message: 'blank' }] });
      const digits = text.replace(/[\s\u00a0]/g, '').replace(/^\+/, '');
      let paidBy: string[] = [];
      if (/^\d+$/.test(digits) && digits.length >= PHONE_SEARCH_MIN_DIGITS) {
        const customers = await users.findByPhoneSuffix(scope, digits, PHONE_SEARCH_CUSTOMERS);
        paidBy = await charges.intentsOfPayers(scopeOf(scope), customers, SEARCH_LIMIT + 1);
      }
      const found = await intents.search(scope, text, SEARCH_LIMIT + 1, paidBy);
      return { object: 'list' as const, data: found.slice(0, SEARCH_LIMIT), hasMore: found.length > SEARCH_LIMIT };
    },

    /**
     * The Home page: volume, successful payments, success rate and new customers of the period
     * and of the one before it (as long, cut at the same point: today so far against yesterday
     * up to the same time), with a series per hour (today) or per UTC day. Success rate: the
     * share of charge attempts that succeeded (docs/decisions/0012-dashboard-overview.md).
     */
    async overview(scope: Caller, period: OverviewPeriod) {
      const now = clock.now();
      const days = PERIOD_DAYS[period];
      const length = days * DAY;
      const from = new Date(Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY);
      const previousFrom = new Date(from.getTime() - length);
      const previousTo = new Date(now.getTime() - length);
      const bucketMs = period === 'today' ? HOUR : DAY;
      const [current, previous] = await Promise.all([
        charges.hourFigures(scopeOf(scope), from, now),
        charges.hourFigures(scopeOf(scope), previousFrom, previousTo),
      ]);
      const buckets = Array.from({ length: Math.floor((now.getTime() - from.getTime()) / bucketMs) + 1 }, emptyTotals);
      const totals = emptyTotals();
      for (const h of current) {
        addHour(totals, h);
        const bucket = buckets[Math.floor((h.hour * HOUR - from.getTime()) / bucketMs)];
        if (bucket) addHour(bucket, h);
      }
      const before = emptyTotals();
      for (const h of previous) addHour(before, h);
      return {
        object: 'dashboard_overview' as const,
        period,
        interval: period === 'today' ? ('hour' as const) : ('day' as const),
        from: from.toISOString(),
        to: now.toISOString(),
        previousFrom: previousFrom.toISOString(),
        previousTo: previousTo.toISOString(),
        current: figuresView(totals),
        previous: figuresView(before),
        series: buckets.map((b, i) => ({ start: new Date(from.getTime() + i * bucketMs).toISOString(), ...figuresView(b) })),
      };
    },

    /** One payment with its events, oldest first, and every webhook delivery of them. */
    async payment(scope: Caller, id: string) {
      const payment = await intents.retrieve(scope, id);
      const found = (await events.listForIntent(scopeOf(scope), payment.id)).map((e) => JSON.parse(e.payload) as EventBody);
      const deliveries = await webhooks.deliveriesOfEvents(
        scopeOf(scope),
        found.map((e) => e.id),
      );
      const payer = await charges.lastPayer(payment.id);
      const customer = payer === undefined ? null : await users.retrieve(scope, payer).then(customerRef, () => null);
      return { object: 'dashboard_payment' as const, payment, events: found, deliveries, customer, refunds: await charges.refundsOf(payment.id) };
    },

    /** Cancels an open payment; the audit entry commits with the state change. */
    cancelPayment: (actor: Actor, scope: Caller, id: string) =>
      intents.cancel(
        scope,
        id,
        inSameTransaction(actor, scope, 'payment.canceled', () => ({ targetId: id })),
      ),

    /**
     * Refunds a payment, all that is left or `amount` (the charges module's refund, as POST
     * /gateway/{id}/refunds); the audit entry commits with the refund.
     */
    refundPayment: (actor: Actor, scope: Caller, id: string, body: RefundBody) =>
      charges.refund(
        scope,
        id,
        body,
        inSameTransaction(actor, scope, 'payment.refunded', (refund) => {
          const r = refund as { id: string; amount: string; currency: string };
          return { targetId: id, details: { refundId: r.id, amount: r.amount, currency: r.currency } };
        }),
      ),

    // ---- customers -----------------------------------------------------------------------------

    /**
     * The merchant's customers (those linked to it), newest first, with what each paid this
     * merchant: never a wallet, and the phone masked (the page is for people, not for matching).
     */
    async customers(scope: Caller, q: { limit?: number; startingAfter?: string }) {
      const page = await users.list(scope, q);
      const stats = await charges.customerStats(
        scopeOf(scope),
        page.data.map((u) => u.id),
      );
      return {
        object: 'list' as const,
        data: page.data.map((u) => ({
          ...customerRef(u),
          createdAt: u.createdAt,
          ...(stats.get(u.id) ?? { firstPaymentAt: null, lastPaymentAt: null, payments: 0, volume: [] }),
        })),
        hasMore: page.hasMore,
      };
    },

    /**
     * One customer of the merchant (404 unless linked): its row as in the list, its payment
     * attempts at this merchant, and the top-ups it started through this merchant's checkout.
     */
    async customer(scope: Caller, userId: string) {
      const user = await users.retrieve(scope, userId);
      const stats = await charges.customerStats(scopeOf(scope), [user.id]);
      return {
        object: 'dashboard_customer' as const,
        customer: {
          ...customerRef(user),
          createdAt: user.createdAt,
          ...(stats.get(user.id) ?? { firstPaymentAt: null, lastPaymentAt: null, payments: 0, volume: [] }),
        },
        payments: await charges.listForCustomer(scopeOf(scope), user.id),
        topups: await topups.listForCustomerAt(scopeOf(scope), user.id),
      };
    },

    // ---- what the merchants module's keys and team pages ask of sessions ----------------------

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

    // ---- audit log ----------------------------------------------------------------------------

    audit: {
      /**
       * Writes an entry: in `executor`'s transaction when the action runs in one (so the entry
       * commits with it), else on the database right after the action succeeded.
       */
      record,

      /** The merchant's entries, newest first, by action. */
      async list(actor: Actor, q: { limit?: number; startingAfter?: string; action?: string }) {
        const limit = q.limit ?? 20;
        const rows = await repo.listAudit(db, { merchantId: actor.merchantId, action: q.action, startingAfter: q.startingAfter, limit: limit + 1 });
        return { object: 'list' as const, data: rows.slice(0, limit).map(auditView), hasMore: rows.length > limit };
      },
    },

    // ---- hosted checkout ----------------------------------------------------------------------

    /**
     * What the hosted checkout page of a session token embeds: the merchant's name and the
     * publishable key of the intent's merchant and mode (never a secret key). Null when no intent
     * has this token: the page then says the link is not valid.
     */
    async checkoutPage(sessionToken: string): Promise<CheckoutPageConfig | null> {
      const owner = await intents.sessionOwner(sessionToken);
      const merchant = owner && (await merchants.findMerchant(owner.merchantId));
      if (!owner || !merchant) return null;
      return {
        apiKey: await checkoutKey(owner.merchantId, owner.mode),
        merchantName: merchant.name,
        livemode: owner.mode === 'live',
        merchantLanguage: merchant.language,
      };
    },
  };
}

class LostRace extends Error {}

/** A customer as the dashboard names it: id and masked phone number. */
function customerRef(u: { id: string; phoneNumber: string }) {
  return { id: u.id, phoneNumber: maskPhone(u.phoneNumber) };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
