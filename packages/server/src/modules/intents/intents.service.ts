import { sha256 } from '../../platform/crypto.ts';
import { afterCommit, type Executor, readExecutor, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { assertCurrency, CURRENCIES, type Currency, formatAmount, parseAmount } from '../../platform/money.ts';
import { announceEvents, type EventsService, type EventType } from '../events/index.ts';
import { assertModeOpen, type Caller, type MerchantContext, type Scope } from '../../platform/tenancy.ts';
import { type Country, currencyOf } from '../../platform/countries.ts';
import { type IntentPatch, type IntentRow, intentsRepository as repo } from './intents.repository.ts';
import type { CreatedIntent, CreateIntentBody, DirectPayment, Intent, IntentList, ListIntentsQuery, PublicIntent } from './intents.schema.ts';
import { intentIdOfSessionToken, newSessionToken, sessionTokenMatches } from './intents.session-token.ts';
import { checkReturnUrl } from './intents.return-url.ts';
import { assertMove, effectiveStatus, type IntentStatus, isDue } from './intents.state.ts';
import { createStatusWaiters, MAX_WAIT_SECONDS, type StatusWaiters } from './intents.waiters.ts';

/** Every currency an amount typed in the dashboard's search may be in. */
const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];

/**
 * What creating an intent needs of its caller: the scope, the merchant's default validity, and
 * whether it is approved for live mode (required, so no path can create a live intent without saying).
 */
export type IntentCreator = Pick<MerchantContext, 'merchantId' | 'mode' | 'intentExpiresIn' | 'approved' | 'merchantCountry'>;

/**
 * The currencies a merchant of this country may create intents in, in this mode (docs/decisions/0082),
 * read with `executor` (the caller's transaction when it holds one): they follow its provider accounts.
 */
export type IntentCurrencies = (mode: 'test' | 'live', country: Country, executor?: Executor) => Promise<readonly Currency[]>;

/** The share of a long-poll's wait its deadline is spread over (see `awaitBySessionToken`). */
const WAIT_SPREAD = 0.2;

/** Rows expired per sweeper transaction. */
export const SWEEP_BATCH_SIZE = 100;

/**
 * The direct mobile-money payments of these intents (their attempts, oldest first), in one query,
 * keyed by intent id; given by the charges module, which owns the attempts.
 */
export type DirectPayments = (executor: Executor, intentIds: readonly string[]) => Promise<Map<string, DirectPayment>>;

/**
 * The intent as the client with only the API key sees it: no metadata, no session token. With
 * `direct` (an intent that had a direct mobile-money attempt), the attempts as a list, the
 * method and what the payer does next; without, the wallet flow's count.
 */
export function publicView(row: IntentRow, now: Date, direct?: DirectPayment): PublicIntent {
  const status = effectiveStatus(row, now);
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'payment_intent',
    amount: formatAmount(row.amount_minor, currency),
    currency,
    description: row.description,
    status,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    // An intent that reads EXPIRED before the sweeper ran changed at expiresAt, like a swept one.
    updatedAt: (status === 'EXPIRED' && row.status === 'PENDING' ? row.expires_at : row.updated_at).toISOString(),
    livemode: row.mode === 'live',
    amountRefunded: formatAmount(row.amount_refunded_minor, currency),
    lastError: row.last_error_code === null ? null : { code: row.last_error_code, message: row.last_error_message ?? '' },
    attempts: direct?.attempts ?? row.attempts,
    returnUrl: row.return_url,
    ...(direct && { paymentMethod: direct.paymentMethod, nextAction: direct.nextAction }),
  };
}

/** The intent as the merchant sees it (secret key) and as events carry it: with metadata. */
export function merchantView(row: IntentRow, now: Date, direct?: DirectPayment): Intent {
  const currency = row.currency as Currency;
  const fee = row.fee_minor;
  // returnUrl last: its schema field is optional, and the serialiser writes optional fields after
  // the required ones; events are read back byte for byte.
  const { returnUrl, paymentMethod, nextAction, ...view } = publicView(row, now, direct);
  return {
    ...view,
    metadata: row.metadata,
    fee: fee === null ? null : formatAmount(fee, currency),
    net: fee === null ? null : formatAmount(row.amount_minor - fee, currency),
    returnUrl,
    ...(direct && { paymentMethod, nextAction }),
  };
}

/** `publicView` or `merchantView`. */
type IntentView<V> = (row: IntentRow, now: Date, direct?: DirectPayment) => V;

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No payment intent ${id}`, { param: 'id' });
}

export function createIntentsService(
  deps: Deps,
  collaborators: {
    events: Pick<EventsService, 'record'>;
    pinnedVersions: (ids: readonly string[], tx: Tx) => Promise<Map<string, string>>;
    directPayments?: DirectPayments;
    /** Absent: every supported currency (a service built without connectors, in a unit test). */
    currencies?: IntentCurrencies;
    /** The payers waiting on a status (one per process; made here when not given). */
    waiters?: StatusWaiters;
  },
) {
  const { db, clock, random, ids } = deps;
  const { events } = collaborators;
  const waiters = collaborators.waiters ?? createStatusWaiters(deps);

  /** Each row as `view` shows it, with its direct payment if it had one: no query for wallet-only rows. */
  async function viewsOf<V>(executor: Executor, rows: readonly IntentRow[], view: IntentView<V>, now = clock.now()): Promise<V[]> {
    const directIds = rows.filter((r) => r.direct_payment).map((r) => r.id);
    const direct = directIds.length > 0 && collaborators.directPayments ? await collaborators.directPayments(executor, directIds) : undefined;
    return rows.map((r) => view(r, now, direct?.get(r.id)));
  }
  const viewOf = async <V>(executor: Executor, row: IntentRow, view: IntentView<V>, now?: Date): Promise<V> =>
    (await viewsOf(executor, [row], view, now))[0] as V;

  /**
   * Moves a locked intent (see `lockForChange`) to `to` and writes the move's event, in the
   * caller's transaction. Refuses a move the state machine does not allow (409
   * `intent_state_invalid`, or `intent_expired` for a charge of an intent that has expired, swept or not).
   * `patch` sets what the move also changes (attempts, lastError, the refunded amount); `direct`
   * is the intent's direct payment as the caller knows it in this transaction, which the event
   * then shows without reading the attempts again.
   */
  async function transition(
    tx: Tx,
    row: IntentRow,
    to: IntentStatus,
    opts: { apiVersion: string; patch?: IntentPatch; eventData?: Record<string, unknown>; direct?: DirectPayment },
  ): Promise<IntentRow> {
    const now = clock.now();
    // The expiry itself starts from the stored PENDING; any other move starts from what a reader
    // sees, so nothing can charge or cancel an intent that reads EXPIRED.
    const move = assertMove(to === 'EXPIRED' ? row.status : effectiveStatus(row, now), to);
    const updated = await repo.update(tx, row, {
      ...opts.patch,
      status: to,
      // An expiry dates from expiresAt (when readers started to see it), never from the future.
      updated_at: to === 'EXPIRED' && isDue(row.expires_at, now) ? row.expires_at : now,
    });
    if (move.event !== null) await recordEvent(tx, updated, move.event, { ...opts, now });
    if (move.also !== undefined) await recordEvent(tx, updated, move.also, { ...opts, now });
    // Payers waiting on this intent hear of it once it has committed, wherever they wait.
    await afterCommit(tx, () => waiters.changed(row.id));
    return updated;
  }

  /** Writes an event about the intent (as the merchant reads it now, with `eventData` beside it), in the caller's transaction. */
  async function recordEvent(
    tx: Tx,
    row: IntentRow,
    type: EventType,
    opts: { apiVersion: string; eventData?: Record<string, unknown>; now?: Date; direct?: DirectPayment },
  ): Promise<void> {
    const paymentIntent =
      opts.direct !== undefined && row.direct_payment ? merchantView(row, opts.now ?? clock.now(), opts.direct) : await viewOf(tx, row, merchantView, opts.now);
    await events.record(tx, {
      merchantId: row.merchant_id,
      mode: row.mode,
      type,
      apiVersion: opts.apiVersion,
      intentId: row.id,
      data: { paymentIntent, ...opts.eventData },
    });
  }

  /**
   * If the locked intent is PENDING and past its expiresAt, expires it for good (EXPIRED and its
   * `payment.expired` event) and returns the new row; otherwise returns the row unchanged. A
   * caller that finds it expired should commit and then answer its 409 (`intent_expired` for a charge).
   */
  async function expireIfDue(tx: Tx, row: IntentRow, apiVersion: string): Promise<IntentRow> {
    if (row.status !== 'PENDING' || !isDue(row.expires_at, clock.now())) return row;
    return transition(tx, row, 'EXPIRED', { apiVersion });
  }

  /**
   * A currency the merchant's country's payers hold, or one a route there can take; any other is
   * refused at creation, not when the payer is already at checkout (400 `currency_unsupported`).
   */
  async function assertAccepted(caller: Pick<IntentCreator, 'mode' | 'merchantCountry'>, currency: Currency, executor: Executor = db): Promise<void> {
    // The country's own currency is always taken: no read of its accounts on the common path.
    if (currency === currencyOf(caller.merchantCountry)) return;
    const accepted = await collaborators.currencies?.(caller.mode, caller.merchantCountry, executor);
    if (accepted === undefined || accepted.includes(currency)) return;
    throw new ApiError(
      'currency_unsupported',
      `Payments in ${currency} cannot be taken for a merchant in ${caller.merchantCountry}: create intents in ${accepted.join(', ')}`,
      { param: 'currency', extra: { accepted: [...accepted] } },
    );
  }

  async function retrieveBySessionToken(caller: Scope, sessionToken: string): Promise<PublicIntent> {
    const id = intentIdOfSessionToken(sessionToken);
    const row = id === undefined ? undefined : await repo.find(db, caller, id);
    if (!row || !sessionTokenMatches(sessionToken, row.session_token_hash))
      throw new ApiError('not_found', 'No payment intent has this session token', { param: 'sessionToken' });
    return viewOf(db, row, publicView);
  }

  async function insertIntent(ex: Executor, caller: IntentCreator, body: CreateIntentBody): Promise<CreatedIntent> {
    assertModeOpen(caller, caller.mode);
    const currency = assertCurrency(body.currency);
    await assertAccepted(caller, currency, ex);
    const amountMinor = parseAmount(body.amount, currency);
    const returnUrl = body.returnUrl === undefined ? null : checkReturnUrl(body.returnUrl, caller.mode);
    const id = ids('intent');
    const sessionToken = newSessionToken(id, random);
    const now = clock.now();
    const row = await repo.insert(ex, {
      id,
      merchant_id: caller.merchantId,
      mode: caller.mode,
      status: 'PENDING',
      amount_minor: amountMinor,
      currency,
      description: body.description ?? null,
      metadata: JSON.stringify(body.metadata ?? {}),
      session_token_hash: sha256(sessionToken),
      last_error_code: null,
      last_error_message: null,
      return_url: returnUrl,
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + (body.expiresIn ?? caller.intentExpiresIn) * 1000),
    });
    return { ...merchantView(row, now), sessionToken };
  }

  return {
    waiters,
    /**
     * Creates a PENDING intent; the answer is the only one that shows its session token. With
     * `answer` (an Idempotency-Key), the insert and the stored answer are one transaction.
     */
    transition,
    recordEvent,
    /** The currencies a merchant of this country may create intents in, in this mode (all supported when unknown). */
    currenciesTaken: async (mode: 'test' | 'live', country: Country): Promise<readonly Currency[]> =>
      (await collaborators.currencies?.(mode, country)) ?? CURRENCY_CODES,
    /** 400 `currency_unsupported` unless intents of this merchant may be in `currency` (a payment link's, before it is made). */
    assertCurrencyTaken: assertAccepted,
    /** The intent as the client sees it, with its direct payment if it had one (read with `executor`). */
    publicViewIn: (executor: Executor, row: IntentRow): Promise<PublicIntent> => viewOf(executor, row, publicView),
    expireIfDue,

    /**
     * The intent row, locked `FOR UPDATE` until the caller's transaction ends: the one way to
     * change an intent from another module (a charge, a refund), so two changes of one intent run
     * one after the other and the second sees the first's result.
     */
    lockForChange: (tx: Tx, scope: Scope, id: string): Promise<IntentRow | undefined> => repo.lockForUpdate(tx, scope, id),

    /**
     * The customer started paying the intent (a code bound to it was sent), unless another one did
     * first: only the starter's declined charges count against the intent (issue 20).
     */
    markStarted: (tx: Tx, scope: Scope, id: string, userId: string): Promise<void> => repo.markStarted(tx, scope, id, userId),

    /**
     * Whose intent a session token names, checked against the stored hash; undefined when no
     * intent has this token (the hosted checkout page knows no key yet).
     */
    async sessionOwner(sessionToken: string): Promise<Scope | undefined> {
      const id = intentIdOfSessionToken(sessionToken);
      const owner = id === undefined ? undefined : await repo.findOwner(db, id);
      if (!owner || !sessionTokenMatches(sessionToken, owner.session_token_hash)) return undefined;
      return { merchantId: owner.merchant_id, mode: owner.mode };
    },

    /**
     * Expires, for good, every PENDING intent whose expiresAt has passed: EXPIRED and a
     * `payment.expired` event (in its merchant's pinned version), one transaction per batch.
     * Batches are claimed `FOR UPDATE SKIP LOCKED`, so sweepers of several processes share the
     * work and never wait on an intent that a charge holds. Returns how many it expired.
     */
    async sweepExpired(batchSize = SWEEP_BATCH_SIZE): Promise<number> {
      let total = 0;
      for (;;) {
        const now = clock.now();
        const swept = await db.transaction().execute(async (tx) => {
          const due = await repo.claimDue(tx, now, batchSize);
          const versions = await collaborators.pinnedVersions(
            due.map((r) => r.merchant_id),
            tx,
          );
          for (const row of due) await transition(tx, row, 'EXPIRED', { apiVersion: versions.get(row.merchant_id) ?? '' });
          return due.length;
        });
        if (swept > 0) announceEvents(deps);
        total += swept;
        if (swept < batchSize) return total;
      }
    },

    async create(caller: IntentCreator, body: CreateIntentBody, answer?: IdempotentAnswer): Promise<CreatedIntent> {
      if (!answer) return insertIntent(db, caller, body);
      return inTransaction(db, answer, async (tx) => {
        const created = await insertIntent(tx, caller, body);
        await answer.record(tx, 201, created);
        return created;
      });
    },

    /**
     * Creates a PENDING intent in the caller's transaction (a payment link's visit records which
     * link made it in the same commit). The body is trusted as the create route's schema would.
     */
    createIn: (tx: Tx, caller: IntentCreator, body: CreateIntentBody): Promise<CreatedIntent> => insertIntent(tx, caller, body),

    /** These intents of this scope, in the order of `ids` (missing ones left out). */
    async retrieveMany(scope: Scope, intentIds: readonly string[]): Promise<Intent[]> {
      if (intentIds.length === 0) return [];
      const rows = new Map((await repo.findMany(db, scope, intentIds)).map((r) => [r.id, r]));
      return viewsOf(
        db,
        intentIds.flatMap((id) => rows.get(id) ?? []),
        merchantView,
      );
    },

    /** The stored row of an intent of this scope (other modules check its state and amount). */
    /** The intent's row; with `executor`, read ahead with that transaction's next statement (Prepared.ahead). */
    retrieveRow: (scope: Scope, id: string, executor?: Executor): Promise<IntentRow | undefined> =>
      executor === undefined ? repo.find(db, scope, id) : repo.findAhead(executor, scope, id),

    async retrieve(caller: Scope, id: string): Promise<Intent> {
      const row = await repo.find(db, caller, id);
      if (!row) throw notFound(id);
      return viewOf(db, row, merchantView);
    },

    /** The client's read (API key alone): by session token, within the key's merchant and mode. */
    retrieveBySessionToken,

    /**
     * The client's read that waits (a long-poll): while the intent reads `status`, holds the
     * answer until the intent changes or `waitSeconds` pass (a PENDING intent's expiresAt
     * earlier), then answers the intent as it is. `busy` when this process holds as many waiters
     * as it may: the answer comes at once, and the client reads again later.
     */
    async awaitBySessionToken(
      caller: Scope,
      sessionToken: string,
      opts: { status?: IntentStatus; waitSeconds?: number; signal?: AbortSignal },
    ): Promise<{ intent: PublicIntent; busy: boolean }> {
      const id = intentIdOfSessionToken(sessionToken);
      if (opts.status === undefined || !opts.waitSeconds || id === undefined)
        return { intent: await retrieveBySessionToken(caller, sessionToken), busy: false };
      // Spread over the wait's last fifth: payers who all started together (after a restart) do
      // not all come back in the same second, every time.
      let deadline = clock.now().getTime() + Math.min(opts.waitSeconds, MAX_WAIT_SECONDS) * 1000 * (1 - WAIT_SPREAD * Math.random());
      // Waiting before the read: a change that commits while the intent is read still wakes it.
      const done = new AbortController();
      const waiting = waiters.wait(id, new Date(deadline), opts.signal ? AbortSignal.any([opts.signal, done.signal]) : done.signal);
      let intent: PublicIntent;
      try {
        intent = await retrieveBySessionToken(caller, sessionToken);
      } catch (err) {
        done.abort();
        throw err;
      }
      if (intent.status !== opts.status || waiting === undefined) {
        done.abort();
        return { intent, busy: waiting === undefined && intent.status === opts.status };
      }
      // A PENDING intent reads EXPIRED at its expiresAt: the answer comes then.
      const expiresAt = new Date(intent.expiresAt).getTime();
      const expiry = intent.status === 'PENDING' && expiresAt <= deadline;
      if (expiry) {
        deadline = expiresAt;
        waiters.reschedule(waiting, new Date(deadline));
      }
      const outcome = await waiting;
      // Nothing committed meanwhile (a change would have woken it): the same intent, without a
      // read. A wake-up lost on its way from another process is read by the client's next wait.
      if (outcome === 'closed' || (outcome === 'deadline' && !expiry)) return { intent, busy: false };
      return { intent: await retrieveBySessionToken(caller, sessionToken), busy: false };
    },

    async list(caller: Scope, query: ListIntentsQuery): Promise<IntentList> {
      const now = clock.now();
      const limit = query.limit ?? 20;
      // The dashboard's list may read from the replica (docs/scaling.md); the API's reads the primary.
      const reads = readExecutor(db);
      const rows = await repo.list(reads, caller, { limit, startingAfter: query.startingAfter, status: query.status, now });
      return {
        object: 'list',
        data: await viewsOf(reads, rows.slice(0, limit), merchantView),
        hasMore: rows.length > limit,
      };
    },

    /**
     * The dashboard's search box: the intents whose id is `text`, or which have `text` as a
     * metadata value, or whose amount it is (read in each currency it is valid in: "12.50" is
     * EUR and USD only), or whose id is among `ids` (found by the caller: a customer's payments);
     * newest first, at most `limit`.
     */
    async search(caller: Scope, text: string, limit: number, ids: readonly string[] = []): Promise<Intent[]> {
      const amounts = CURRENCY_CODES.flatMap((currency) => {
        try {
          return [{ currency, minor: parseAmount(text.replace(/[\s\u00a0\u202f,]/g, ''), currency) }];
        } catch {
          return [];
        }
      });
      const reads = readExecutor(db);
      const rows = await repo.search(reads, caller, { id: /^pi_[0-9a-z]{26}$/.test(text) ? text : undefined, text, amounts, ids, limit });
      const unique = [...new Map(rows.map((r) => [r.id, r])).values()].sort((a, b) => (a.id < b.id ? 1 : -1));
      return viewsOf(reads, unique.slice(0, limit), merchantView);
    },

    /**
     * Cancels a PENDING intent (`payment.canceled`). An intent past its expiresAt is expired for
     * good instead (`payment.expired`, as the sweeper would) and the answer is 409
     * `intent_state_invalid` (EXPIRED), as for any other state.
     */
    async cancel(caller: Caller, id: string, answer?: IdempotentAnswer): Promise<Intent> {
      const outcome = await db.transaction().execute(async (tx): Promise<Intent | ApiError> => {
        const locked = await repo.lockForUpdate(tx, caller, id);
        if (!locked) throw notFound(id);
        const row = await expireIfDue(tx, locked, caller.pinnedVersion);
        if (row !== locked) {
          // The expiry commits, and so does this answer to it.
          const expired = new ApiError('intent_state_invalid', 'The intent expired before it could be canceled', { extra: { intentStatus: 'EXPIRED' } });
          await answer?.recordProblem(tx, expired);
          return expired;
        }
        const canceled = await viewOf(tx, await transition(tx, row, 'CANCELED', { apiVersion: caller.pinnedVersion }), merchantView);
        await answer?.record(tx, 200, canceled);
        return canceled;
      });
      announceEvents(deps);
      if (outcome instanceof ApiError) throw outcome;
      return outcome;
    },
  };
}

export type IntentsService = ReturnType<typeof createIntentsService>;
