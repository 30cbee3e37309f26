import { DAY, HOUR, MINUTE } from '../../platform/clock.ts';
import { retryAfterHeader } from '../../platform/codes.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { emailLinkBase } from '../../platform/http/public-url.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { translator } from '../../platform/i18n.ts';
import type { Country } from '../../platform/countries.ts';
import type { Currency } from '../../platform/money.ts';
import { parsePhoneNumber } from '../../platform/phone.ts';
import type { MerchantContext, Scope } from '../../platform/tenancy.ts';
import { type AttemptRule, createThrottle } from '../../platform/throttle.ts';
import {
  CARD_METHOD,
  connectorsServing,
  describeMethod,
  describeProvider,
  lookupNumber,
  methodServesNumber,
  newReference,
  type ProviderName,
} from '../connectors/index.ts';
import { announceEvents } from '../events/index.ts';
import type { IntentsService } from '../intents/index.ts';
import type { RouteKey, RoutesService } from '../routes/index.ts';
import { type AttemptRow, attemptsRepository as repo } from './charges.attempts.repository.ts';
import { checkSessionToken, customerOf, refusalOfState, refuseUnreachedOperator } from './charges.attempts.checks.ts';
import { type AttemptLifecycle, MAX_PAYMENT_ATTEMPTS } from './charges.attempts.settle.ts';
import { attemptView, intentView, payerPage } from './charges.attempts.views.ts';
import type { DirectCharge, ProcessingIntent } from './charges.schema.ts';

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

/** How the payer approves an attempt: its method's way, else (a card) its connector's. */
function approvalOf(attempt: Pick<AttemptRow, 'provider' | 'connector'>) {
  return (describeProvider(attempt.connector) ?? describeProvider(attempt.provider))?.approval;
}

/** What starting an attempt needs: the intent, the routes, the merchant's offer and name. */
export interface StartCollaborators {
  intents: Pick<IntentsService, 'lockForChange' | 'expireIfDue' | 'transition' | 'sessionOwner' | 'retrieveRow'>;
  /** Which connector a new attempt goes through (docs/spec/routes.md). */
  routes: Pick<RoutesService, 'choose' | 'availability' | 'admit' | 'read'>;
  /**
   * The merchant's offer (the methods module): 403 `payment_method_not_allowed` for a method
   * (a provider, or `card`) the operator's cap leaves out, 400 `provider_unsupported` for one the
   * merchant does not offer.
   */
  methodCaps?: {
    checkProvider(scope: Scope, provider: ProviderName | typeof CARD_METHOD, country?: Country): Promise<void>;
    /** 400 `payment_method_unsupported` unless a card route here takes this currency. */
    checkCard?(scope: Scope, currency: Currency): Promise<void>;
  };
  /** The merchant's payer-facing short name (the merchants module), sent to providers that show one. */
  payerName?: (merchantId: string, tx: Tx) => Promise<string>;
}

/**
 * Starting an attempt (POST /charge with a payment method): every check, then the attempt, its
 * reference and the intent's move to PROCESSING in one transaction; the provider after it.
 */
export function createAttemptStart(deps: Deps, collaborators: StartCollaborators, lifecycle: AttemptLifecycle) {
  const { db, clock, ids, random } = deps;
  const { intents, routes } = collaborators;
  const throttle = createThrottle(deps);

  /**
   * A payer back from a redirect provider's page that is still open (Wave keeps a declined session
   * open until it expires) who chooses again: that page is closed at the provider first and its
   * attempt decided by what the provider says then (docs/decisions/0079-wave-as-wave-does.md).
   * True when one was decided; a payment that beat the close is the intent's as any success. The
   * same provider and number is not another choice: it may be the replay of the charge that made
   * the attempt (an Idempotency-Key answered in the transaction), whose page must stay open.
   */
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

  return {
    /**
     * POST /charge with a mobile-money method and the intent's session token: the attempt and
     * the intent's move to PROCESSING (`payment.processing`) commit first, with the
     * Idempotency-Key answer; the provider is asked after. 202 with `nextAction`.
     */
    async start(
      merchant: MerchantContext,
      sessionToken: string | undefined,
      charge: DirectCharge,
      opts: { languages: readonly string[]; answer?: IdempotentAnswer },
    ): Promise<ProcessingIntent> {
      const { intentId } = charge;
      const session = await checkSessionToken(intents, merchant, sessionToken, intentId);
      const method = charge.paymentMethod;
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
      // The merchant's offer first: a method it does not offer (cards too) is refused as such.
      await collaborators.methodCaps?.checkProvider(scope, description ? (description.name as ProviderName) : CARD_METHOD, merchant.merchantCountry);
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
        await refuseUnreachedOperator(routes, route, description, phoneNumber);
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
      await throttle.beginAll([{ subject: `charge-intent:${intentId}`, rule: CHARGES_PER_INTENT_HOUR }]);
      // What refuses the charge from the intent as stored is found before the number's prompt
      // limits count: a prompt never sent must not cost the payer one of their three. The locked
      // read below decides again; an expired intent goes on to it, which records the expiry.
      let seen = await intents.retrieveRow({ merchantId: merchant.merchantId, mode: merchant.mode }, intentId);
      if (seen?.status === 'PROCESSING' && (await abandonOpenRedirects(seen.id, provider, phoneNumber)))
        seen = await intents.retrieveRow({ merchantId: merchant.merchantId, mode: merchant.mode }, intentId);
      if (!seen) throw new ApiError('not_found', `No payment intent ${intentId}`, { param: 'intentionId' });
      const stateRefusal = refusalOfState(seen, clock.now());
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
        const locked = await intents.lockForChange(tx, scope, intentId);
        if (!locked) throw new ApiError('not_found', `No payment intent ${intentId}`, { param: 'intentionId' });
        const intent = await intents.expireIfDue(tx, locked, merchant.pinnedVersion);
        const refused = refusalOfState(intent, clock.now());
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
          return_url: `${emailLinkBase(deps.config)}/checkout/${encodeURIComponent(session)}`,
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
        const view = intentView(processing, [...earlier, row], clock.now());
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
  };
}
