import type { Logger } from 'pino';
import { DAY } from '../../platform/clock.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Country } from '../../platform/countries.ts';
import { ApiError } from '../../platform/errors.ts';
import { parsePhoneNumber } from '../../platform/phone.ts';
import type { IdempotentAnswer } from '../../platform/http/idempotency.ts';
import { assertCurrency, type Currency, formatAmount, parseAmount } from '../../platform/money.ts';
import { assertModeOpen, type Caller, type KeyMode, type Scope } from '../../platform/tenancy.ts';
import { LATEST_API_VERSION } from '../../platform/versioning.ts';
import type { BalancesService } from '../balances/index.ts';
import {
  type ConnectorRegistry,
  type ConnectorSource,
  type Decision,
  describeProvider,
  providerUnavailable,
  isAcceptableMessage,
  providerDescriptions,
  isProviderName,
  newReference,
  assertProviderTakes,
  lookupNumber,
  servesNumber,
} from '../connectors/index.ts';
import { announceEvents, type EventsService } from '../events/index.ts';
import type { RoutesService } from '../routes/index.ts';
import { createProviderLifecycle, requestStore, paymentRequestOf } from '../lifecycle/index.ts';
import { type PayoutRow, type PayoutScheduleRow, type PayoutThresholdRow, payoutsRepository as repo, REVIEW_REJECTED } from './payouts.repository.ts';
import { type CreatePayoutBody, type Payout, type PayoutSchedule, type PayoutScheduleBody, WEEK_DAYS } from './payouts.schema.ts';

export function payoutView(row: PayoutRow): Payout {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'payout',
    amount: formatAmount(row.amount_minor, currency),
    currency,
    destination: { provider: row.provider, phoneNumber: row.phone_number },
    connector: row.connector,
    providerAccount: row.provider_account,
    description: row.description,
    method: row.method,
    status: row.status,
    failureReason: row.failure_reason,
    livemode: row.mode === 'live',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

/** The next run of a schedule after `now`: the next 00:00 UTC (of the anchor day, weekly). */
export function nextRunAfter(now: Date, interval: 'manual' | 'daily' | 'weekly', weeklyAnchor: number | null): Date | null {
  if (interval === 'manual') return null;
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let next = midnight + DAY;
  if (interval === 'weekly') {
    const anchor = weeklyAnchor ?? 1;
    while (new Date(next).getUTCDay() !== anchor) next += DAY;
  }
  return new Date(next);
}

function scheduleView(scope: Scope, row: PayoutScheduleRow | undefined): PayoutSchedule {
  return {
    object: 'payout_schedule',
    livemode: scope.mode === 'live',
    interval: row?.interval ?? 'manual',
    weeklyAnchor: row?.weekly_anchor == null ? null : (WEEK_DAYS[row.weekly_anchor] ?? null),
    destination: row?.provider && row.phone_number ? { provider: row.provider, phoneNumber: row.phone_number } : null,
    minimumAmount: Object.fromEntries(Object.entries(row?.minimum ?? {}).map(([c, v]) => [c, formatAmount(BigInt(v), c as Currency)])),
    nextRunAt: row?.next_run_at?.toISOString() ?? null,
  };
}

/** The operator who acts on a review: the payouts module keeps only their id and e-mail. */
export interface ReviewActor {
  operatorId: string;
  email: string;
}

function thresholdView(t: PayoutThresholdRow) {
  const currency = t.currency as Currency;
  return {
    object: 'payout_review_threshold' as const,
    livemode: t.mode === 'live',
    currency,
    amount: formatAmount(t.amount_minor, currency),
    setBy: { id: t.set_by, email: t.set_by_email },
    setAt: t.set_at.toISOString(),
  };
}

interface NewPayout {
  amount: bigint;
  currency: Currency;
  provider: string;
  phoneNumber: string;
  description: string | null;
  method: 'manual' | 'scheduled';
}

/**
 * Money out (docs/spec/money-out.md): payouts of a merchant's available balance to a mobile-money number.
 * The payout, its reference and the debit of `available` commit first; the provider is called
 * after, outside any transaction; PAID or FAILED (the money back) is decided once, under the
 * payout's row lock, whether a callback, a duplicate callback or the poller learnt it. A payout is
 * never sent twice: a retry sends the same reference, which the provider keys it by.
 */
export function createPayoutsService(
  deps: Deps,
  collaborators: {
    balances: Pick<BalancesService, 'debitForPayout' | 'payoutPaid' | 'payoutFailed' | 'availableMinor'>;
    connectors: ConnectorSource;
    /** Which connector a payout to a method goes through (its payout route); absent: the method's own. */
    routes?: Pick<RoutesService, 'choose'>;
    events: Pick<EventsService, 'record'>;
    /** The merchants' pinned API versions (the version their events are written in). */
    pinnedVersions: (ids: readonly string[], tx: Tx) => Promise<Map<string, string>>;
    /** Whether an operator froze the merchant: its schedule makes no payout meanwhile. */
    isFrozen?: (merchantId: string, tx: Tx) => Promise<boolean>;
    /** Whether the merchant is approved for live mode: no live payout, asked for or scheduled, without it. */
    isApproved: (merchantId: string, executor?: Executor) => Promise<boolean>;
    /** The merchant's country, which chooses the provider account (absent: the platform's accounts of the mode). */
    countryOf?: (merchantId: string, executor: Executor) => Promise<Country | undefined>;
    logger?: Logger;
  },
) {
  const { db, clock, ids, random } = deps;
  const { balances, connectors, events, pinnedVersions } = collaborators;
  const log = collaborators.logger;
  const connectorFor = (mode: KeyMode, provider: string) => connectors.forMode(mode).get(provider);
  /** The connectors a merchant's new payouts go through: its country's provider accounts (section 14), read in `executor`. */
  const registryOf = async (scope: Scope, executor: Executor, country?: Country): Promise<ConnectorRegistry> => {
    const where = country ?? (await collaborators.countryOf?.(scope.merchantId, executor));
    return where === undefined ? connectors.forMode(scope.mode) : connectors.forMerchant(scope.mode, where, executor);
  };
  /** The account a new payout goes through; none (not configured, or its account disabled): 503, before anything is sent. */
  const accountOf = async (scope: Scope, provider: string, executor: Executor): Promise<string> => {
    const registry = await registryOf(scope, executor);
    const account = registry.get(provider) === undefined ? undefined : registry.account(provider);
    if (account === undefined) throw providerUnavailable(registry, provider, scope.mode, 'destination.provider');
    return account;
  };

  /** The destination with its number as E.164 (read in `country` when typed without its country code), or the 400 that refuses it. */
  function checkDestination(
    mode: KeyMode,
    country: Country,
    d: { provider: string; phoneNumber: string },
    money?: { currency: Currency; amount: bigint },
    registry?: ConnectorRegistry,
  ): { provider: string; phoneNumber: string } {
    const connectorFor = (m: KeyMode, provider: string) => (registry ?? connectors.forMode(m)).get(provider);
    const senders = providerDescriptions()
      .filter((p) => p.capabilities.disburse)
      .map((p) => p.name);
    if (!isProviderName(d.provider))
      throw new ApiError('provider_unsupported', `Unknown provider "${d.provider}"; payouts go to ${senders.join(', ')}`, { param: 'destination.provider' });
    // A provider that only collects (Orange Money Web Payment) has no operation to send money with.
    if (describeProvider(d.provider)?.capabilities.disburse !== true) {
      throw new ApiError('destination_unsupported', `${d.provider} cannot receive payouts; payouts go to ${senders.join(', ')}`, {
        param: 'destination.provider',
      });
    }
    const phoneNumber = parsePhoneNumber(d.phoneNumber, country, 'destination.phoneNumber');
    if (!connectorFor(mode, d.provider)) throw providerUnavailable(registry ?? connectors.forMode(mode), d.provider, mode, 'destination.provider');
    const lacking = connectorFor(mode, d.provider)?.lacks?.disburse;
    if (lacking !== undefined)
      throw new ApiError('destination_unsupported', `${d.provider} cannot receive payouts: ${lacking}`, { param: 'destination.provider' });
    // A schedule is saved without an amount: its number is checked now, its amounts when it runs.
    const description = describeProvider(d.provider)!;
    if (money) assertProviderTakes(description, { phoneNumber, ...money }, { phoneNumber: 'destination.phoneNumber' }, connectorFor(mode, d.provider));
    else if (!servesNumber(description, phoneNumber))
      throw new ApiError('phone_invalid', `${description.displayName} does not serve ${phoneNumber}`, { param: 'destination.phoneNumber' });
    return { provider: d.provider, phoneNumber };
  }

  /**
   * The description goes to the payee as the provider's message: refused here (400
   * `description_invalid`) by the provider's own rules, rather than by the provider after the
   * money left `available` (MTN: 1 to 160 characters, none of `& ' < >`).
   */
  function checkDescription(provider: string, description: string | undefined): void {
    const rules = describeProvider(provider)?.messages;
    if (description === undefined || rules === undefined || isAcceptableMessage(rules, description)) return;
    const forbidden = rules.forbidden ? `, without ${[...rules.forbidden].join(' ')}` : '';
    throw new ApiError(
      'description_invalid',
      `description must be ${rules.minLength} to ${rules.maxLength} characters${forbidden}: ${provider} refuses other messages`,
      { param: 'description' },
    );
  }

  /** Writes a PENDING payout and takes its money out of `available`, in the caller's transaction. */
  async function createInTx(tx: Tx, scope: Scope, p: NewPayout): Promise<PayoutRow> {
    // Before any write: a refusal leaves the caller's transaction as it was. The first route of
    // the destination's method, in the destination number's country (docs/spec/routes.md).
    const country = lookupNumber(p.phoneNumber)?.country;
    const routed =
      collaborators.routes && country !== undefined
        ? await collaborators.routes.choose(
            { mode: scope.mode, country, kind: 'payout', method: p.provider },
            { currency: p.currency, amount: p.amount, health: false },
            'destination.provider',
            tx,
          )
        : undefined;
    const via = routed?.connector ?? p.provider;
    const account = routed?.account ?? (await accountOf(scope, p.provider, tx));
    const id = ids('payout');
    await balances.debitForPayout(tx, scope, {
      payoutId: id,
      currency: p.currency,
      amount: p.amount,
      description: p.description ?? `Payout ${id} to ${p.provider} ${p.phoneNumber}`,
    });
    const now = clock.now();
    // Above its mode and currency's threshold, the payout waits for an operator (decision 0041).
    const threshold = await repo.threshold(tx, scope.mode, p.currency);
    const held = threshold !== undefined && p.amount > threshold.amount_minor;
    const fresh = {
      id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      amount_minor: p.amount,
      currency: p.currency,
      provider: p.provider,
      connector: via,
      provider_account: account,
      phone_number: p.phoneNumber,
      description: p.description,
      method: p.method,
      reference: newReference(random),
      status: held ? ('REVIEW' as const) : ('PENDING' as const),
      review_threshold_set_by: held ? threshold.set_by : null,
      failure_reason: null,
      provider_transaction_id: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    // The request first (the payout points to it); a held payout's is not sent until approved.
    await lifecycle.open(tx, fresh, { held });
    return repo.insert(tx, fresh);
  }

  /** Moves a PENDING payout to its outcome, once: the ledger, the state and the event commit together. */
  async function settle(id: string, outcome: Decision): Promise<PayoutRow | undefined> {
    const settled = await db.transaction().execute(async (tx) => {
      const row = await repo.lock(tx, id);
      if (!row || row.status !== 'PENDING') return row;
      const now = clock.now();
      const scope = { merchantId: row.merchant_id, mode: row.mode };
      const currency = row.currency as Currency;
      let updated: PayoutRow;
      if (outcome.status === 'FAILED') {
        const reason = outcome.reason.slice(0, 200);
        await balances.payoutFailed(tx, scope, { payoutId: row.id, currency, amount: row.amount_minor, reason });
        updated = await repo.update(tx, id, { status: 'FAILED', failure_reason: reason, completed_at: now, updated_at: now });
      } else {
        // The provider paid: the money is gone whatever it says the amount was; an amount that
        // differs from ours is logged and left to reconciliation, never paid out again.
        const mismatch = outcome.amount !== row.amount_minor || outcome.currency !== row.currency;
        if (mismatch) log?.error({ payout: id, provider: row.provider }, 'mobile-money payout paid for another amount or currency: see caisse reconcile');
        await balances.payoutPaid(tx, scope, {
          payoutId: row.id,
          providerAccount: row.provider_account,
          connector: row.connector,
          currency,
          amount: row.amount_minor,
        });
        updated = await repo.update(tx, id, {
          status: 'PAID',
          failure_reason: mismatch ? 'AMOUNT_MISMATCH' : null,
          provider_transaction_id: outcome.providerTransactionId ?? null,
          completed_at: now,
          updated_at: now,
        });
      }
      await recordEvent(tx, updated);
      return updated;
    });
    announceEvents(deps);
    return settled;
  }

  /** The destination number's country, for the request (none for a number the numbering table does not know). */
  const countryOf = (phoneNumber: string): { country?: string } => {
    const country = lookupNumber(phoneNumber)?.country;
    return country === undefined ? {} : { country };
  };

  // Money out is never given up while the provider may still pay it: no timeout.
  const lifecycle = createProviderLifecycle<PayoutRow>({
    what: 'payout',
    request_kind: 'payout',
    kind: 'disbursement',
    requests: requestStore(db),
    connectors,
    clock,
    logger: log,
    store: { load: (id) => repo.byId(db, id), loadByReference: (reference) => repo.byReference(db, reference) },
    request: (row) => ({
      ...paymentRequestOf(row, { payerMessage: row.description ?? `Payout ${row.id}`, payeeNote: row.id }),
      // The destination's method and country: an aggregator needs both to reach the operator.
      method: row.provider,
      ...countryOf(row.phone_number),
    }),
    settle: async (id, decision) => {
      await settle(id, decision);
    },
  });

  /** A held payout waits for its review; any other new one goes to the provider now. */
  const startIfPending = (row: PayoutRow): void => {
    if (row.status === 'PENDING') lifecycle.start(row);
  };

  /** The event of a payout's state change, in its transaction, in the merchant's pinned version. */
  async function recordEvent(tx: Tx, row: PayoutRow): Promise<void> {
    const versions = await pinnedVersions([row.merchant_id], tx);
    await events.record(tx, {
      merchantId: row.merchant_id,
      mode: row.mode,
      type: row.status === 'PAID' ? 'payout.paid' : 'payout.failed',
      apiVersion: versions.get(row.merchant_id) ?? LATEST_API_VERSION,
      intentId: null,
      data: { payout: payoutView(row) },
    });
  }

  return {
    /**
     * POST /payouts: a PENDING payout whose money leaves `available` at once (409
     * `balance_insufficient` when it holds less), committed with its reference (and the
     * Idempotency-Key answer) before the provider is called. 202 whatever the provider does.
     */
    async create(merchant: Caller & { merchantCountry: Country }, body: CreatePayoutBody, answer?: IdempotentAnswer): Promise<Payout> {
      // Before the destination's checks: refused as not approved, not as a provider not configured.
      if (merchant.mode === 'live') assertModeOpen({ approved: await collaborators.isApproved(merchant.merchantId) }, merchant.mode);
      const currency = assertCurrency(body.currency);
      const amount = parseAmount(body.amount, currency);
      const scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      const registry = await registryOf(scope, db, merchant.merchantCountry);
      const destination = checkDestination(merchant.mode, merchant.merchantCountry, body.destination, { currency, amount }, registry);
      checkDescription(body.destination.provider, body.description);
      const row = await db.transaction().execute(async (tx) => {
        const created = await createInTx(tx, scope, {
          amount,
          currency,
          provider: body.destination.provider,
          phoneNumber: destination.phoneNumber,
          description: body.description ?? null,
          method: 'manual',
        });
        await answer?.record(tx, 202, payoutView(created));
        return created;
      });
      startIfPending(row);
      return payoutView(row);
    },

    async retrieve(scope: Scope, id: string): Promise<Payout> {
      const row = await repo.find(db, scope, id);
      if (!row) throw new ApiError('not_found', `No payout ${id}`, { param: 'id' });
      return payoutView(row);
    },

    async list(scope: Scope, q: { limit?: number; startingAfter?: string; status?: PayoutRow['status'] }) {
      const limit = q.limit ?? 20;
      const rows = await repo.list(db, scope, { limit, startingAfter: q.startingAfter, status: q.status });
      return { object: 'list' as const, data: rows.slice(0, limit).map(payoutView), hasMore: rows.length > limit };
    },

    /** The payouts' provider lifecycle: callbacks, the poller's rounds, shutdown's drain. */
    lifecycle,
    pollDue: (limit?: number) => lifecycle.pollDue(limit),

    async schedule(scope: Scope): Promise<PayoutSchedule> {
      return scheduleView(scope, await repo.schedule(db, scope));
    },

    /** PUT /payout-schedule: manual, daily or weekly, where to, and the least amount worth paying per currency. */
    async setSchedule(scope: Scope & { merchantCountry: Country }, body: PayoutScheduleBody): Promise<PayoutSchedule> {
      const current = await repo.schedule(db, scope);
      const given =
        body.destination ?? (current?.provider && current.phone_number ? { provider: current.provider, phoneNumber: current.phone_number } : undefined);
      const registry = await registryOf(scope, db, scope.merchantCountry);
      const destination = given && checkDestination(scope.mode, scope.merchantCountry, given, undefined, registry);
      if (body.interval !== 'manual' && !destination) {
        throw new ApiError('validation_error', 'An automatic schedule needs a destination: {provider, phoneNumber}', {
          param: 'destination',
          errors: [{ param: 'destination', message: 'required for daily and weekly' }],
        });
      }
      if (body.weeklyAnchor !== undefined && body.interval !== 'weekly') {
        throw new ApiError('validation_error', 'weeklyAnchor is for a weekly schedule', {
          param: 'weeklyAnchor',
          errors: [{ param: 'weeklyAnchor', message: 'only with interval weekly' }],
        });
      }
      const minimum: Record<string, string> = {};
      for (const [code, value] of Object.entries(body.minimumAmount ?? {})) {
        const currency = assertCurrency(code, `minimumAmount.${code}`);
        minimum[currency] = parseAmount(value, currency, `minimumAmount.${code}`).toString();
      }
      const anchor = body.interval === 'weekly' ? WEEK_DAYS.indexOf(body.weeklyAnchor ?? 'monday') : null;
      const now = clock.now();
      const saved = await repo.saveSchedule(db, {
        merchant_id: scope.merchantId,
        mode: scope.mode,
        interval: body.interval,
        weekly_anchor: anchor,
        provider: destination?.provider ?? null,
        phone_number: destination?.phoneNumber ?? null,
        minimum,
        next_run_at: nextRunAfter(now, body.interval, anchor),
        updated_at: now,
      });
      return scheduleView(scope, saved);
    },

    /**
     * The scheduler's round: for each schedule due, in one transaction with moving it to its next
     * run, a payout of the whole available balance of each currency that reaches the minimum (a
     * merchant whose balance is zero or negative gets none). Returns how many payouts it made.
     */
    async runDueSchedules(limit = 20): Promise<number> {
      const now = clock.now();
      const made = await db.transaction().execute(async (tx) => {
        const rows: PayoutRow[] = [];
        for (const s of await repo.lockDueSchedules(tx, now, limit)) {
          const scope = { merchantId: s.merchant_id, mode: s.mode };
          await repo.setNextRun(tx, scope, nextRunAfter(now, s.interval, s.weekly_anchor));
          if (await collaborators.isFrozen?.(s.merchant_id, tx)) {
            log?.warn({ merchant: s.merchant_id, mode: s.mode }, 'payout schedule skipped: the merchant is frozen');
            continue;
          }
          if (s.mode === 'live' && !(await collaborators.isApproved(s.merchant_id, tx))) {
            log?.warn({ merchant: s.merchant_id, mode: s.mode }, 'payout schedule skipped: the merchant is not approved for live mode');
            continue;
          }
          if (!s.provider || !s.phone_number || !connectorFor(s.mode, s.provider)) {
            log?.warn({ merchant: s.merchant_id, mode: s.mode }, 'payout schedule skipped: its destination cannot be paid');
            continue;
          }
          const limits = describeProvider(s.provider)?.limits ?? {};
          for (const { currency, amount: available } of await balances.availableMinor(scope, tx)) {
            const minimum = BigInt(s.minimum[currency] ?? '1');
            if (available <= 0n || available < minimum) continue;
            // One payout is at most what the provider moves at once; the rest waits for the next run.
            const bounds = limits[currency];
            if (bounds === undefined) continue;
            const amount = available > bounds.max ? bounds.max : available;
            if (amount < bounds.min) continue;
            try {
              rows.push(
                await createInTx(tx, scope, { amount, currency, provider: s.provider, phoneNumber: s.phone_number, description: null, method: 'scheduled' }),
              );
            } catch (err) {
              // A payout made meanwhile took part of it, or its provider account is disabled (checked before any write): next time.
              if (!(err instanceof ApiError && (err.code === 'balance_insufficient' || err.code === 'provider_unavailable'))) throw err;
            }
          }
        }
        return rows;
      });
      for (const row of made) startIfPending(row);
      return made.length;
    },

    // ---- review (the operator console, decision 0041) ---------------------------------------------

    /** The thresholds in force, per mode and currency. */
    thresholds: async () => (await repo.thresholds(db)).map(thresholdView),

    /**
     * Sets (or, with `amount` null, removes) the review threshold of a mode and currency; `within`
     * runs in the same transaction with the threshold before and after (the operator's audit entry).
     */
    async setThreshold(
      actor: ReviewActor,
      input: { mode: KeyMode; currency: string; amount: string | null },
      within: (tx: Tx, before: unknown, after: unknown) => Promise<void>,
    ) {
      const currency = assertCurrency(input.currency);
      const amount = input.amount === null ? null : parseAmount(input.amount, currency);
      return db.transaction().execute(async (tx) => {
        const current = await repo.threshold(tx, input.mode, currency);
        if (amount === null) await repo.deleteThreshold(tx, input.mode, currency);
        else
          await repo.saveThreshold(tx, {
            mode: input.mode,
            currency,
            amount_minor: amount,
            set_by: actor.operatorId,
            set_by_email: actor.email,
            set_at: clock.now(),
          });
        const saved = await repo.threshold(tx, input.mode, currency);
        await within(tx, current ? thresholdView(current) : null, saved ? thresholdView(saved) : null);
        return (await repo.thresholds(tx)).map(thresholdView);
      });
    },

    /** Every payout waiting for review, oldest first, with its merchant and who set its threshold. */
    async inReview(limit = 100) {
      return (await repo.listInReview(db, limit)).map((row) => ({
        ...payoutView(row),
        merchantId: row.merchant_id,
        thresholdSetBy: row.review_threshold_set_by,
      }));
    },

    /**
     * Approves (the payout goes to the provider) or rejects (its money back in `available`, with
     * `payout.failed`) a payout in REVIEW, once: under the payout's lock, only from REVIEW (409
     * `payout_state_invalid` otherwise, as for the second of two operators at the same moment).
     * The operator who set the threshold it went over may not decide (403 `four_eyes_required`).
     * `within` writes the audit entry in the same transaction.
     */
    async review(
      actor: ReviewActor,
      id: string,
      decision: { approve: boolean; reason: string },
      within: (tx: Tx, before: unknown, after: unknown) => Promise<void>,
    ): Promise<Payout> {
      const decided = await db.transaction().execute(async (tx) => {
        const row = await repo.lock(tx, id);
        if (!row) throw new ApiError('not_found', `No payout ${id}`, { param: 'id' });
        if (row.status !== 'REVIEW') throw new ApiError('payout_state_invalid', `Payout ${id} is ${row.status}, not waiting for review`, { param: 'id' });
        if (row.review_threshold_set_by === actor.operatorId) {
          throw new ApiError('four_eyes_required', 'You set the threshold this payout went over: another operator must review it', { param: 'id' });
        }
        if (decision.approve && (await collaborators.isFrozen?.(row.merchant_id, tx))) {
          throw new ApiError('merchant_frozen', 'The merchant is frozen: its payouts can only be rejected until it is unfrozen');
        }
        const now = clock.now();
        const scope = { merchantId: row.merchant_id, mode: row.mode };
        const reviewed = { reviewed_by: actor.operatorId, reviewed_at: now, updated_at: now };
        let updated: PayoutRow;
        if (decision.approve) {
          // Never sent yet: it goes through the account of today, not that of its creation.
          const account = await accountOf(scope, row.connector, tx);
          updated = await repo.update(tx, id, { ...reviewed, status: 'PENDING', provider_account: account });
          await lifecycle.release(tx, id, account);
        } else {
          const currency = row.currency as Currency;
          await balances.payoutFailed(tx, scope, { payoutId: row.id, currency, amount: row.amount_minor, reason: REVIEW_REJECTED });
          updated = await repo.update(tx, id, { ...reviewed, status: 'FAILED', failure_reason: REVIEW_REJECTED, completed_at: now });
          await recordEvent(tx, updated);
        }
        await within(tx, { status: row.status }, { status: updated.status, failureReason: updated.failure_reason });
        return updated;
      });
      if (decided.status === 'FAILED') announceEvents(deps);
      startIfPending(decided);
      return payoutView(decided);
    },

    /** Waits for the provider calls requests started (shutdown). */
    drain: () => lifecycle.drain(),

    /** Every payout of a provider created in [from, to), for reconciliation. */
    listForProvider: (provider: string, from: Date, to: Date) => repo.listForProvider(db, provider, from, to),
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
