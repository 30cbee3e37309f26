import type { Logger } from 'pino';
import { DAY, HOUR, MINUTE } from '../../platform/clock.ts';
import { maskPhone, retryAfterHeader } from '../../platform/codes.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { parsePhoneNumber } from '../../platform/phone.ts';
import { emailLinkBase } from '../../platform/http/public-url.ts';
import { feeOf } from '../../platform/fees.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { translator } from '../../platform/i18n.ts';
import { allAhead } from '../../platform/prepared.ts';
import type { Country } from '../../platform/countries.ts';
import { type Currency, formatAmount, minorUnits } from '../../platform/money.ts';
import { type AttemptRule, createThrottle } from '../../platform/throttle.ts';
import type { RouteKey, RoutesService } from '../routes/index.ts';
import type { MerchantContext, Scope } from '../../platform/tenancy.ts';
import type { BalancesService } from '../balances/index.ts';
import {
  CARD_METHOD,
  type ConnectorSource,
  connectorsServing,
  type Decision,
  describeMethod,
  describeProvider,
  lookupNumber,
  methodServesNumber,
  newReference,
  operatorName,
  type PaymentCustomer,
  paymentMethodCatalogue,
  type PaymentMethodInfo,
  type ProviderName,
} from '../connectors/index.ts';
import { announceEvents } from '../events/index.ts';
import { type DirectPayment, type DirectPayments, type IntentRow, type IntentsService, isDue, publicView } from '../intents/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { createProviderLifecycle, requestStore, PAGE_LOST_REASON, paymentRequestOf } from '../lifecycle/index.ts';
import { type AttemptRow, attemptsRepository as repo } from './charges.attempts.repository.ts';
import type { MobileRefunds } from './charges.refunds.ts';
import type { MobileRefundRow } from './charges.refunds.repository.ts';
import { chargePostings, feeScheduleOf } from './charges.service.ts';
import type { Cardholder, DirectChargeBody, ProcessingIntent } from './charges.schema.ts';
import type { PaymentAttempt } from '../intents/index.ts';

/** Attempts per intent (docs/spec/mobile-money-payments.md): the fifth failure makes the intent FAILED. */
export const MAX_PAYMENT_ATTEMPTS = 5;
/** An attempt the provider has not decided 15 minutes after it started fails (approval_timeout). */
export const ATTEMPT_TIMEOUT_MS = 15 * MINUTE;
/** How long the payer has to approve on the phone (shown in nextAction; MTN's window). */
export const APPROVAL_WINDOW_MS = 5 * MINUTE;

/** The abuse limits of docs/spec/mobile-money-payments.md, each answered 429 rate_limited with Retry-After. */
function limit(max: number, windowMs: number, what: string): AttemptRule {
  return {
    max,
    windowMs,
    refuse: (ms) => new ApiError('rate_limited', `Too many payment requests ${what}; try again later`, { headers: retryAfterHeader(ms) }),
  };
}
const PROMPTS_PER_NUMBER_10_MIN = limit(3, 10 * MINUTE, 'to this phone number');
const PROMPTS_PER_NUMBER_DAY = limit(20, DAY, 'to this phone number today');
const CHARGES_PER_INTENT_HOUR = limit(10, HOUR, 'for this intent');

/**
 * Failures this side decided without the provider's word (it never answered in time, or never
 * had the request): a success it reports later is still a payment to return. A lost page
 * (PAGE_LOST) is not one: its attempt stays decided (decision 0038).
 */
const GAVE_UP_REASONS: ReadonlySet<string> = new Set(['TIMEOUT', 'NOT_SUBMITTED']);

/** The provider's reason as one of the specification's failure codes. */
/**
 * Failures that are the payer's answer, not the route's: another connector would get the same
 * one, so a retry after them stays on the route that answered (docs/spec/routes.md).
 */
const PAYER_ANSWERS: ReadonlySet<string> = new Set([
  'approval_rejected',
  'insufficient_funds',
  'payer_not_found',
  // The payer's code, refused by the operator: the payer makes a new one for the same route.
  'pre_authorisation_code_invalid',
  'pre_authorisation_code_expired',
  'pre_authorisation_code_required',
]);

export function failureCodeOf(reason: string): string {
  switch (reason) {
    case 'PAYER_NOT_FOUND':
      return 'payer_not_found';
    case 'NOT_ENOUGH_FUNDS':
      return 'insufficient_funds';
    // A redirect provider's failure without a reason (Orange's status has none) or a cancel on its
    // page: the payer did not complete the approval there, which is what the payer should be told.
    case 'APPROVAL_REJECTED':
    case 'CANCELLED':
    case 'FAILED':
      return 'approval_rejected';
    case 'EXPIRED':
    case 'TIMEOUT':
      return 'approval_timeout';
    case 'INVALID_AMOUNT':
      return 'amount_out_of_bounds';
    // A pre-authorisation code the operator refused, or that had expired: the payer makes a new
    // one. Without it (a second submit after a crash: the code is never stored) the same.
    case 'INVALID_PREAUTHORISATION_CODE':
      return 'pre_authorisation_code_invalid';
    case 'PREAUTHORISATION_CODE_EXPIRED':
      return 'pre_authorisation_code_expired';
    case 'PRE_AUTHORISATION_CODE_REQUIRED':
      return 'pre_authorisation_code_required';
    // The provider's page was lost in a crash and cannot be read back: the payer never saw it and
    // may try again at once (docs/decisions/0038-provider-settings-and-health-per-host.md).
    case PAGE_LOST_REASON:
      return 'provider_page_lost';
    default:
      return 'provider_unavailable';
  }
}

export function attemptView(row: AttemptRow): PaymentAttempt {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'payment_attempt',
    provider: row.provider,
    connector: row.connector,
    providerAccount: row.provider_account,
    phoneNumber: maskPhone(row.phone_number),
    status: row.status,
    failureCode: row.failure_code,
    providerReference: row.provider_transaction_id,
    fee: row.fee_minor === null ? null : formatAmount(row.fee_minor, currency),
    net: row.fee_minor === null ? null : formatAmount(row.amount_minor - row.fee_minor, currency),
    late: row.late,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

/**
 * The provider's page as the payer opens it. In test mode it is always the sandbox's, which
 * reads the number the payer already typed from `msisdn` where the provider was not given it
 * (Orange's web payment takes none): the page shows it instead of asking again (issue 58).
 */
export function payerPage(url: string, attempt: Pick<AttemptRow, 'mode' | 'phone_number'>): string {
  if (attempt.mode !== 'test') return url;
  const page = new URL(url);
  if (page.searchParams.has('msisdn')) return url;
  page.searchParams.set('msisdn', attempt.phone_number);
  return page.toString();
}

/** What an intent shows of its direct payment: its attempts (oldest first), the latest's method, and what the payer does while it waits. */
export function directPaymentOf(attempts: readonly AttemptRow[]): DirectPayment | undefined {
  const current = attempts.at(-1);
  if (!current) return undefined;
  // The method's brand and USSD code, whichever connector reached it.
  const description = describeMethod(current.provider);
  // How the payer approves is the connector's way (an aggregator may send a redirect for a prompting operator).
  const approval = (describeProvider(current.connector) ?? describeProvider(current.provider))?.approval;
  const t = translator({ saved: current.language });
  return {
    attempts: attempts.map(attemptView),
    paymentMethod: {
      type: current.provider === CARD_METHOD ? 'card' : 'mobile_money',
      provider: current.provider,
      phoneNumber: maskPhone(current.phone_number),
    },
    // A redirect provider whose page is not known (its answer was lost) has nothing to show.
    nextAction:
      current.status !== 'PENDING' || (current.redirect_url === null && approval === 'redirect')
        ? null
        : current.redirect_url !== null
          ? { type: 'redirect', url: current.redirect_url }
          : {
              type: 'approve_on_phone',
              provider: current.provider,
              phoneNumber: current.phone_number,
              expiresAt: current.approval_expires_at.toISOString(),
              // A method whose USSD code differs by country (Moov Money) has none to dial.
              message: description?.ussd
                ? t.text('attempts.approveOnPhone', {
                    provider: description.displayName,
                    amount: t.amount(current.amount_minor, current.currency as Currency),
                    ussd: description.ussd,
                  })
                : t.text('attempts.approveOnPhoneNoUssd', {
                    provider: description?.displayName ?? current.provider,
                    amount: t.amount(current.amount_minor, current.currency as Currency),
                  }),
              ussd: description?.ussd ?? null,
            },
  };
}

/** The direct payments of these intents, in one query (the intents module's reads and events). */
export const directPayments: DirectPayments = async (executor, intentIds) => {
  const byIntent = new Map<string, AttemptRow[]>();
  for (const row of await repo.listForIntents(executor, intentIds)) byIntent.set(row.intent_id, [...(byIntent.get(row.intent_id) ?? []), row]);
  const found = new Map<string, DirectPayment>();
  for (const [id, rows] of byIntent) {
    const direct = directPaymentOf(rows);
    if (direct) found.set(id, direct);
  }
  return found;
};

/** The card holder as the card route's provider asks for them: trimmed, the phone in E.164, the region the country's code when not given. */
function customerOf(holder: Cardholder, phoneNumber: string): PaymentCustomer {
  return {
    name: holder.name.trim(),
    surname: holder.surname.trim(),
    email: holder.email.trim(),
    phoneNumber,
    address: holder.address.trim(),
    city: holder.city.trim(),
    country: holder.country,
    state: holder.state?.trim() || holder.country,
    zipCode: holder.zipCode.trim(),
  };
}

/**
 * Paying an intent directly with mobile money (docs/spec/mobile-money-payments.md), on the connectors' one request
 * lifecycle: the attempt and its reference commit with the intent's move to PROCESSING; the
 * provider is called after; the provider's own status decides the attempt once, under its row
 * lock, with the intent's change, the ledger transfer and the event in that transaction.
 */
export function createAttemptsService(
  deps: Deps,
  collaborators: {
    ledger: LedgerService;
    balances: Pick<BalancesService, 'availableOn' | 'recordCharge' | 'reserveFor'>;
    intents: Pick<IntentsService, 'lockForChange' | 'expireIfDue' | 'transition' | 'sessionOwner' | 'retrieveRow'>;
    connectors: ConnectorSource;
    /** Returns a late payment to the payer. */
    refunds: Pick<MobileRefunds, 'returnLatePayment' | 'start'>;
    /** Which connector a new attempt goes through (docs/spec/routes.md). */
    routes: Pick<RoutesService, 'choose' | 'availability' | 'admit' | 'read'>;
    /** The merchant's settings at settle time (fees, settlement delay, pinned version). */
    merchantTerms: (merchantId: string, tx: Tx) => Promise<Pick<MerchantContext, 'fees' | 'settlementDelayDays' | 'pinnedVersion' | 'reserve'>>;
    /**
     * The merchant's offer (the methods module): 403 `payment_method_not_allowed` for a provider
     * the operator's cap leaves out, 400 `provider_unsupported` for one the merchant does not offer.
     */
    methodCaps?: {
      checkProvider(scope: Scope, provider: ProviderName, country?: Country): Promise<void>;
      /** 400 `payment_method_unsupported` unless a card route here takes this currency. */
      checkCard?(scope: Scope, currency: Currency): Promise<void>;
    };
    /** The merchant's payer-facing short name (the merchants module), sent to providers that show one. */
    payerName?: (merchantId: string, tx: Tx) => Promise<string>;
    logger?: Logger;
  },
) {
  const { db, clock, ids, random } = deps;
  const { ledger, balances, intents, connectors, merchantTerms, refunds, routes } = collaborators;
  const log = collaborators.logger;
  const throttle = createThrottle(deps);

  /** Why an intent in this state cannot be charged now, or undefined when it can (PENDING, not due). */
  function refusalOfState(intent: IntentRow): ApiError | undefined {
    if (intent.status === 'EXPIRED' || (intent.status === 'PENDING' && isDue(intent.expires_at, clock.now())))
      return new ApiError('intent_expired', 'The intent has expired; create a new intent', { param: 'intentionId' });
    if (intent.status === 'PROCESSING')
      return new ApiError('attempt_in_progress', 'An attempt of this intent is waiting for the provider; wait for its outcome', { param: 'intentionId' });
    if (intent.status !== 'PENDING')
      return new ApiError('intent_state_invalid', `An intent that is ${intent.status} cannot be charged`, { extra: { intentStatus: intent.status } });
    return undefined;
  }

  function intentView(row: IntentRow, attempts: AttemptRow[]): ProcessingIntent {
    const direct = directPaymentOf(attempts);
    return {
      ...publicView(row, clock.now()),
      attempts: direct?.attempts ?? [],
      paymentMethod: direct?.paymentMethod ?? null,
      nextAction: direct?.nextAction ?? null,
    };
  }

  /**
   * Decides an attempt once, with the intent, the money and the event, in one transaction. Every
   * read goes with the attempt's lock in the transaction's first round trip (`seen`, the attempt
   * as the lifecycle read it, names its intent, merchant and accounts before the lock answers);
   * every write is deferred and sent with the COMMIT, the transfer among the last: the clearing
   * and pending accounts, which every payment of the provider and of the merchant needs, are
   * locked by that write and held for that one round trip.
   */
  async function settle(id: string, decision: Decision, seen: AttemptRow): Promise<void> {
    const lateRefund = await db.transaction().execute(async (tx): Promise<MobileRefundRow | undefined> => {
      // Of `seen`, only what never changes in an attempt: its intent, merchant, mode, provider, account and currency.
      const scope = { merchantId: seen.merchant_id, mode: seen.mode };
      const currency = seen.currency as Currency;
      // In lock order (the attempt, then its intent), then the reads; the merchant's terms last,
      // a plain read that carries those sent ahead of it.
      const [attempt, intent, attempts, accountsFor, merchant] = await allAhead([
        repo.lockAhead(tx, id),
        intents.lockForChange(tx, scope, seen.intent_id),
        repo.listForIntentAhead(tx, seen.intent_id),
        ledger.collectionAccounts(tx, { ...scope, providerAccount: seen.provider_account, connector: seen.connector, currency }),
        merchantTerms(seen.merchant_id, tx),
      ]);
      if (!attempt) return;
      const paid = decision.status === 'SUCCESSFUL' && decision.amount === attempt.amount_minor && decision.currency === attempt.currency;
      // The provider reports a success after this side stopped waiting for it (and told the
      // merchant the attempt failed): the payer's money, returned to them as any late payment.
      const paidAfterGivingUp = paid && attempt.status === 'FAILED' && GAVE_UP_REASONS.has(attempt.failure_reason ?? '');
      if (attempt.status !== 'PENDING' && !paidAfterGivingUp) return;
      if (!intent) throw new Error(`attempt ${id} without its intent`);
      const now = clock.now();
      /** The intent's direct payment with this attempt decided, as the event shows it. */
      const directWith = (decided: AttemptRow) => directPaymentOf(attempts.map((a) => (a.id === decided.id ? decided : a)));
      if (!paid) {
        const reason = decision.status === 'FAILED' ? decision.reason : 'AMOUNT_MISMATCH';
        if (decision.status === 'SUCCESSFUL')
          log?.error({ attempt: id, provider: attempt.provider }, 'mobile-money payment settled for another amount or currency: see caisse reconcile');
        const failed = await repo.updateLocked(tx, attempt, {
          status: 'FAILED',
          failure_code: failureCodeOf(reason),
          failure_reason: reason.slice(0, 200),
          completed_at: now,
          updated_at: now,
        });
        if (intent.status !== 'PROCESSING') return undefined;
        const to = isDue(intent.expires_at, now) ? 'EXPIRED' : attempts.length >= MAX_PAYMENT_ATTEMPTS ? 'FAILED' : 'PENDING';
        await intents.transition(tx, intent, to, {
          apiVersion: merchant.pinnedVersion,
          patch: {
            attempts: intent.attempts + 1,
            last_error_code: failed.failure_code,
            last_error_message: `The mobile-money payment failed (${reason.slice(0, 100)})`,
          },
          eventData: { attempt: attemptView(failed) },
          direct: directWith(failed),
        });
        return undefined;
      }
      if (intent.status !== 'PROCESSING' || paidAfterGivingUp) {
        // Paid, but the intent can no longer take it: the money is the payer's, returned to them
        // (a late_payment refund), never through the merchant's balance.
        const late = await repo.update(tx, id, {
          status: 'SUCCEEDED',
          late: true,
          failure_code: null,
          failure_reason: null,
          provider_transaction_id: decision.providerTransactionId ?? null,
          completed_at: now,
          updated_at: now,
        });
        log?.warn({ attempt: id, intent: intent.id }, 'mobile-money payment arrived for an intent that cannot take it: returned to the payer (late_payment)');
        return refunds.returnLatePayment(tx, late);
      }
      const transferId = ids('transfer');
      const fee = feeOf(minorUnits(attempt.amount_minor), feeScheduleOf(deps.config, merchant, currency));
      const reserve = balances.reserveFor(merchant, attempt.amount_minor - fee);
      const accounts = await accountsFor({ fee: fee > 0n, reserve: reserve.amount > 0n });
      const decided = {
        status: 'SUCCEEDED',
        fee_minor: fee,
        transfer_id: transferId,
        provider_transaction_id: decision.providerTransactionId ?? null,
        completed_at: now,
        updated_at: now,
      } as const;
      const succeeded: AttemptRow = { ...attempt, ...decided };
      await intents.transition(tx, intent, 'SUCCEEDED', {
        apiVersion: merchant.pinnedVersion,
        patch: { attempts: intent.attempts + 1, last_error_code: null, last_error_message: null, fee_minor: fee },
        eventData: { attempt: attemptView(succeeded) },
        direct: directWith(succeeded),
      });
      // The money moves after the intent's change and event: its write locks the clearing and pending accounts until the commit.
      const postings = chargePostings(
        { from: accounts.clearing.id, pending: accounts.pending.id, revenue: accounts.revenue?.id, reserve: accounts.reserve?.id },
        attempt.amount_minor,
        fee,
        reserve.amount,
      );
      await ledger.transfer(tx, { ...scope, id: transferId, kind: 'mobile_money_charge', reference: attempt.id, currency, postings }, accounts.accounts, {
        deferred: true,
      });
      // After the transfer, which the attempt names (that foreign key is checked at once).
      await repo.updateLocked(tx, attempt, decided);
      // The statement's rows after it: the merchant's running total is locked from here to the commit.
      await balances.recordCharge(tx, scope, {
        intentId: intent.id,
        currency,
        amount: attempt.amount_minor,
        fee,
        transferId,
        availableOn: balances.availableOn(merchant),
        reserve,
      });
      return undefined;
    });
    announceEvents(deps);
    if (lateRefund) refunds.start(lateRefund);
  }

  const lifecycle = createProviderLifecycle<AttemptRow>({
    what: 'payment attempt',
    request_kind: 'attempt',
    kind: 'collection',
    requests: requestStore(db),
    connectors,
    clock,
    logger: log,
    giveUpAfterMs: ATTEMPT_TIMEOUT_MS,
    store: { load: (id) => repo.find(db, id), loadByReference: (reference) => repo.byReference(db, reference) },
    request: (row) => ({
      // The payer sees the merchant's short name: MTN's prompt, Orange's page (payerName).
      ...paymentRequestOf(row, { payerMessage: row.payer_name ?? `Payment ${row.intent_id}`, payeeNote: row.id }),
      ...(row.payer_name ? { payerName: row.payer_name } : {}),
      ...(row.return_url ? { returnUrl: row.return_url } : {}),
      // What the payer chose and where: an aggregator needs both to reach the operator.
      method: row.provider,
      ...(row.country ? { country: row.country } : {}),
      ...(row.customer ? { customer: row.customer } : {}),
      language: row.language === 'en' ? 'en' : 'fr',
    }),
    known: (row) => ({ providerReference: row.provider_reference ?? undefined, amount: row.amount_minor, currency: row.currency as Currency }),
    remember: async (row, handle) => {
      await repo.update(db, row.id, {
        provider_reference: handle.providerReference ?? null,
        redirect_url: handle.redirectUrl === undefined ? row.redirect_url : payerPage(handle.redirectUrl, row),
      });
    },
    settle,
  });

  /**
   * A payer back from a redirect provider's page that is still open (Wave keeps a declined session
   * open until it expires) who chooses again: that page is closed at the provider first and its
   * attempt decided by what the provider says then (docs/decisions/0079-wave-as-wave-does.md).
   * True when one was decided; a payment that beat the close is the intent's as any success. The
   * same provider and number is not another choice: it may be the replay of the charge that made
   * the attempt (an Idempotency-Key answered in the transaction), whose page must stay open.
   */
  /** How the payer approves an attempt: its method's way, else (a card) its connector's. */
  function approvalOf(attempt: Pick<AttemptRow, 'provider' | 'connector'>) {
    return (describeProvider(attempt.connector) ?? describeProvider(attempt.provider))?.approval;
  }

  async function abandonOpenRedirects(intentId: string, provider: string, phoneNumber: string): Promise<boolean> {
    let decided = false;
    for (const attempt of await repo.listForIntent(db, intentId)) {
      // The connector's way decides (an aggregator's page for an operator that prompts on its own).
      if (attempt.status !== 'PENDING' || approvalOf(attempt) !== 'redirect') continue;
      if (attempt.provider === provider && attempt.phone_number === phoneNumber) continue;
      decided = (await lifecycle.abandon(attempt)) || decided;
    }
    return decided;
  }

  /**
   * The number's operator (the numbering table) decides what can take it: 400
   * `operator_unsupported`, naming the operator, when no method of it has a route here (none
   * serves it in the merchant's country, or, for another method than the one chosen, none with an
   * account in this mode); 400 `phone_invalid` naming the method that does, when the payer chose
   * another. A method tied to no network (Wave) takes any number of its countries.
   */
  async function refuseUnreachedOperator(route: RouteKey, method: PaymentMethodInfo, phoneNumber: string): Promise<void> {
    const info = lookupNumber(phoneNumber);
    if (method.network === null || info?.operator === undefined || info.country !== route.country) return;
    const operator = info.operator;
    const served = paymentMethodCatalogue().filter((m) => m.network === operator && connectorsServing(m.name, route.country).length > 0);
    // The chosen method's own operator: an account missing in this mode is the 503 further on.
    const reached =
      method.network === operator
        ? served
        : (
            await Promise.all(
              served.map(async (m) => ((await routes.availability({ ...route, method: m.name }).catch(() => 'none' as const)) === 'none' ? [] : [m])),
            )
          ).flat();
    const name = operatorName(operator);
    if (reached.length === 0)
      throw new ApiError(
        'operator_unsupported',
        `${phoneNumber} is a ${name} number, and no payment method of this merchant reaches ${name} in ${route.country} in ${route.mode} mode; pay with a number of another operator`,
        { param: 'paymentMethod.phoneNumber', extra: { operator } },
      );
    if (method.network !== operator)
      throw new ApiError(
        'phone_invalid',
        `${phoneNumber} is a ${name} number, which ${method.displayName} does not serve; choose ${reached.map((m) => m.displayName).join(' or ')}`,
        { param: 'paymentMethod.phoneNumber', extra: { operator } },
      );
  }

  return {
    lifecycle,
    pollDue: (n?: number) => lifecycle.pollDue(n),
    drain: () => lifecycle.drain(),

    /**
     * POST /charge with a mobile-money method and the intent's session token: the attempt and
     * the intent's move to PROCESSING (`payment.processing`) commit first, with the
     * Idempotency-Key answer; the provider is asked after. 202 with `nextAction`.
     */
    async start(
      merchant: MerchantContext,
      sessionToken: string | undefined,
      body: DirectChargeBody,
      opts: { languages: readonly string[]; answer?: IdempotentAnswer },
    ): Promise<ProcessingIntent> {
      if (sessionToken === undefined)
        throw new ApiError('session_token_missing', "Send the intent's sessionToken (ps_…) in the x-session-token header", { param: 'x-session-token' });
      const owner = await intents.sessionOwner(sessionToken);
      if (!owner || owner.merchantId !== merchant.merchantId || owner.mode !== merchant.mode || !sessionToken.includes(body.intentionId.slice(3))) {
        throw new ApiError('session_token_invalid', 'The x-session-token is not the session token of this intent', { param: 'x-session-token' });
      }
      const method = body.paymentMethod;
      const scope: Scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      // The method the payer chose (the catalogue: never an aggregator; `card` names no provider);
      // the route decides which connector reaches it.
      const provider = method.type === 'card' ? CARD_METHOD : method.provider;
      const description = method.type === 'card' ? undefined : describeMethod(provider);
      if (method.type === 'mobile_money' && !description)
        throw new ApiError('provider_unsupported', `Unknown payment method "${provider}"`, { param: 'paymentMethod.provider' });
      const displayName = description?.displayName ?? provider;
      const param = method.type === 'card' ? 'paymentMethod.type' : 'paymentMethod.provider';
      const route: RouteKey = { mode: merchant.mode, country: merchant.merchantCountry, kind: 'payment', method: provider };
      // The merchant's offer first: a method it does not offer is refused as such.
      if (description) await collaborators.methodCaps?.checkProvider(scope, description.name as ProviderName, merchant.merchantCountry);
      // As the payer typed it ("670000001"), read in the merchant's country; E.164 from here on.
      const phoneNumber =
        method.type === 'card'
          ? parsePhoneNumber(method.cardholder.phoneNumber, merchant.merchantCountry, 'paymentMethod.cardholder.phoneNumber')
          : parsePhoneNumber(method.phoneNumber, merchant.merchantCountry, 'paymentMethod.phoneNumber');
      if (description) {
        // A method no connector reaches in the merchant's country is refused as such, unless the
        // number is of its own operator: then that operator is what nothing here reaches (below).
        if (
          connectorsServing(provider, merchant.merchantCountry).length === 0 &&
          (description.network === null || lookupNumber(phoneNumber)?.operator !== description.network)
        )
          throw new ApiError(
            'provider_unsupported',
            `${description.displayName} does not serve this merchant's country (${merchant.merchantCountry}); use a method GET /payment-methods lists`,
            { param: 'paymentMethod.provider' },
          );
        await refuseUnreachedOperator(route, description, phoneNumber);
      }
      // The route and the accounts read once for this charge: its availability, then its choice.
      const routeRead = await routes.read(route);
      const availability = await routes.availability(route, routeRead);
      if (availability === 'none')
        throw new ApiError(
          method.type === 'card' ? 'payment_method_unsupported' : 'provider_unavailable',
          `${provider} is not configured for ${merchant.mode} mode in ${merchant.merchantCountry} on this server`,
          { param },
        );
      if (description && !methodServesNumber(description, phoneNumber)) {
        throw new ApiError('phone_invalid', `${description.displayName} does not serve ${phoneNumber}`, { param: 'paymentMethod.phoneNumber' });
      }
      const customer = method.type === 'card' ? customerOf(method.cardholder, phoneNumber) : null;
      // A method no route of which answers is refused at once, before the limits count: its
      // outage sends no prompt, and must not cost the payer the tries they have left.
      const unavailable = () =>
        new ApiError('provider_unavailable', `${displayName} is not answering at the moment; try again in a few minutes or use another method`, { param });
      if (availability === 'down') throw unavailable();
      // Counted before anything is asked of the provider: a charge refused further on counts as well.
      await throttle.beginAll([{ subject: `charge-intent:${body.intentionId}`, rule: CHARGES_PER_INTENT_HOUR }]);
      // What refuses the charge from the intent as stored is found before the number's prompt
      // limits count: a prompt never sent must not cost the payer one of their three. The locked
      // read below decides again; an expired intent goes on to it, which records the expiry.
      let seen = await intents.retrieveRow({ merchantId: merchant.merchantId, mode: merchant.mode }, body.intentionId);
      if (seen?.status === 'PROCESSING' && (await abandonOpenRedirects(seen.id, provider, phoneNumber)))
        seen = await intents.retrieveRow({ merchantId: merchant.merchantId, mode: merchant.mode }, body.intentionId);
      if (!seen) throw new ApiError('not_found', `No payment intent ${body.intentionId}`, { param: 'intentionId' });
      const stateRefusal = refusalOfState(seen);
      if (stateRefusal && stateRefusal.code !== 'intent_expired') throw stateRefusal;
      // A card route takes the currencies its connectors move (a EUR intent needs a route that takes EUR).
      if (method.type === 'card') await collaborators.methodCaps?.checkCard?.(scope, seen.currency as Currency);
      // After a definite failure of this method, the retry takes the next route (docs/spec/routes.md).
      // A payer's own answer (declined, no account, no funds) is not the route's fault: the retry stays on it.
      // An intent never charged directly has no attempt to read (direct_payment is set with the first).
      const lastFailed = (seen.direct_payment ? await repo.listForIntent(db, seen.id) : [])
        .filter((a) => a.provider === provider && a.status === 'FAILED' && !PAYER_ANSWERS.has(a.failure_code ?? ''))
        .at(-1);
      const chosen = await routes.choose(
        route,
        { currency: seen.currency as Currency, amount: seen.amount_minor, after: lastFailed?.connector },
        param,
        undefined,
        routeRead,
      );
      // `choose` took a connector that moves this amount and currency; the number was checked above.
      const { connector, account } = chosen;
      // An operator that takes a code the payer made beforehand (pawaPay's PREAUTH) prompts nobody:
      // without the code nothing can be sent. The code goes to the provider once and is never stored.
      const approval = await chosen.impl.authorisation?.(provider, merchant.merchantCountry).catch(() => undefined);
      const preAuthorisationCode = approval === 'pre_authorisation_code' && method.type === 'mobile_money' ? method.preAuthorisationCode : undefined;
      if (approval === 'pre_authorisation_code' && preAuthorisationCode === undefined)
        throw new ApiError(
          'pre_authorisation_code_required',
          `${displayName} here takes a one-time code the payer makes on their phone before paying: send it as paymentMethod.preAuthorisationCode`,
          { param: 'paymentMethod.preAuthorisationCode' },
        );
      await throttle.beginAll([
        { subject: `prompt-10m:${phoneNumber}`, rule: PROMPTS_PER_NUMBER_10_MIN },
        { subject: `prompt-day:${phoneNumber}`, rule: PROMPTS_PER_NUMBER_DAY },
      ]);
      // After a cool-down this admits one probe (taken only once the limits let the charge through).
      if (!routes.admit(route.mode, route.country, connector, provider, account)) throw unavailable();
      const language = translator({ requested: opts.languages, merchantDefault: merchant.merchantLanguage }).language;
      const outcome = await inTransaction(db, opts.answer, async (tx): Promise<{ row: AttemptRow; view: ProcessingIntent } | ApiError> => {
        const locked = await intents.lockForChange(tx, scope, body.intentionId);
        if (!locked) throw new ApiError('not_found', `No payment intent ${body.intentionId}`, { param: 'intentionId' });
        const intent = await intents.expireIfDue(tx, locked, merchant.pinnedVersion);
        const refused = refusalOfState(intent);
        // The expiry just recorded commits, and so does this answer to it.
        if (refused?.code === 'intent_expired') return refused;
        if (refused) throw refused;
        // Under the intent's lock: direct_payment is set in the transaction of its first attempt.
        const earlier = intent.direct_payment ? await repo.listForIntent(tx, intent.id) : [];
        if (earlier.length >= MAX_PAYMENT_ATTEMPTS)
          throw new ApiError('intent_state_invalid', `This intent had its ${MAX_PAYMENT_ATTEMPTS} attempts`, { extra: { intentStatus: intent.status } });
        const now = clock.now();
        const fresh = {
          id: ids('attempt'),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          intent_id: intent.id,
          provider,
          connector,
          provider_account: account,
          country: merchant.merchantCountry,
          phone_number: phoneNumber,
          customer: customer === null ? null : JSON.stringify(customer),
          amount_minor: intent.amount_minor,
          currency: intent.currency,
          reference: newReference(random),
          status: 'PENDING',
          failure_code: null,
          failure_reason: null,
          provider_transaction_id: null,
          fee_minor: null,
          transfer_id: null,
          language,
          redirect_url: null,
          // Redirect providers send the payer back to the hosted checkout, whatever the outcome: after a
          // decline the payer sends again or pays another way there; the merchant's returnUrl is
          // where checkout sends them once the payment is over (docs/spec/mobile-money-payments.md).
          return_url: `${emailLinkBase(deps.config)}/checkout/${encodeURIComponent(sessionToken)}`,
          payer_name: (await collaborators.payerName?.(scope.merchantId, tx)) ?? null,
          approval_expires_at: new Date(now.getTime() + APPROVAL_WINDOW_MS),
          created_at: now,
          updated_at: now,
          completed_at: null,
        } as const;
        // The request first: the attempt points to it.
        await lifecycle.open(tx, fresh);
        const row = await repo.insert(tx, fresh);
        const processing = await intents.transition(tx, intent, 'PROCESSING', {
          apiVersion: merchant.pinnedVersion,
          patch: { direct_payment: true },
          eventData: { attempt: attemptView(row) },
        });
        const view = intentView(processing, [...earlier, row]);
        await opts.answer?.record(tx, 202, view);
        return { row, view };
      });
      announceEvents(deps);
      if (outcome instanceof ApiError) throw outcome;
      // How the payer approves is the connector's way (an aggregator may redirect to its page).
      if (chosen.description.approval === 'redirect') {
        // The payer needs the provider's page now: this one waits for the provider's answer.
        // The lifecycle stores the URL and the provider's reference with the attempt.
        const submitted = await lifecycle.submit(outcome.row);
        if (submitted.status === 'PENDING' && submitted.redirectUrl !== undefined)
          return { ...outcome.view, nextAction: { type: 'redirect', url: payerPage(submitted.redirectUrl, outcome.row) } };
        return outcome.view;
      }
      lifecycle.start(outcome.row, preAuthorisationCode === undefined ? undefined : { preAuthorisationCode });
      return outcome.view;
    },

    /** An intent's attempts, oldest first (the dashboard's payment detail). */
    listForIntent: async (intentId: string) => (await repo.listForIntent(db, intentId)).map(attemptView),

    /** Every attempt of a provider created in [from, to), for reconciliation. */
    listForProvider: (provider: string, from: Date, to: Date) => repo.listForProvider(db, provider, from, to),
  };
}

export type AttemptsService = ReturnType<typeof createAttemptsService>;
