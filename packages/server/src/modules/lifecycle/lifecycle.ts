import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.ts';
import { SECOND } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db.ts';
import type { Currency } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import {
  type CallbackResult,
  callbackDecision,
  type Connector,
  type ConnectorKind,
  type ConnectorSource,
  type Decision,
  decisionOf,
  describeProvider,
  type IncomingCallback,
  type KnownRequest,
  type PaymentRequest,
  pollBackoffMs,
  type ProviderHandle,
  sameAccount,
  type StatusResult,
  type SubmitResult,
} from '../connectors/index.ts';
import { failureLevel } from '../../platform/db-unavailable.ts';
import { ApiError } from '../../platform/errors.ts';
import type { ProviderRequest, RequestKind, RequestStore } from './lifecycle.repository.ts';

/**
 * One provider request's lifecycle (docs/architecture.md, "Connectors"), the same for every money
 * movement: a top-up, a payout, a payment attempt, a refund to mobile money. None of them names
 * a provider, and none of them repeats these rules:
 *
 * 1. The owner commits its row and its request (`open`, table provider_requests) with our
 *    reference first; `submit` calls the provider after the commit, outside any transaction.
 * 2. UNKNOWN (timeout, 5xx, nonsense) is never read as FAILED: the poller asks again.
 * 3. NOT_FOUND means the provider never saw the reference: the same reference is sent again
 *    (it can never make a second payment).
 * 4. A callback is only a hint: the provider's status read decides.
 * 5. The final state is decided once, by the owner's `settle`, under the row's lock.
 * 6. A redirect request with no stored page, whose provider cannot be read by our reference,
 *    fails with PAGE_LOST once its submit can no longer be running (`pageLostAfterMs`).
 * 7. A request given up (TIMEOUT), or left by the payer for another (`abandon`), is closed at a
 *    provider that can close one (`Connector.cancel`: Wave's `/expire`), after the commit, best
 *    effort; what the provider says then still decides (a payment that beat it is late).
 */

/** What the lifecycle reads of an owner's row (its id is its request's). */
export interface ProviderRequestRow {
  id: string;
  mode: KeyMode;
  provider: string;
  /** How Caisse reaches the provider. */
  connector: string;
  /** The provider account it was made with (connectors/connectors.accounts.ts): only that account reads it. */
  provider_account: string;
  reference: string;
  created_at: Date;
}

/** Where the lifecycle finds the owner's row of a request. */
export interface OwnerStore<Row extends ProviderRequestRow> {
  load(id: string): Promise<Row | undefined>;
  /** By its reference, in one read (a callback handed to this lifecycle directly). */
  loadByReference(reference: string): Promise<Row | undefined>;
}

/** The request most rows make: their own amount, currency and number, under their id and reference. */
export function paymentRequestOf(
  row: ProviderRequestRow & { amount_minor: bigint; currency: string; phone_number: string },
  notes: { payerMessage: string; payeeNote?: string },
): PaymentRequest {
  return {
    reference: row.reference,
    amount: row.amount_minor,
    currency: row.currency as Currency,
    phoneNumber: row.phone_number,
    externalId: row.id,
    ...notes,
  };
}

/**
 * What only the first submit of a request carries, never stored: a pre-authorisation code the payer
 * typed. A later submit (after a crash, NOT_FOUND) goes without it, and the connector fails it.
 */
export type OnceOnly = Pick<PaymentRequest, 'preAuthorisationCode'>;

export interface LifecycleSpec<Row extends ProviderRequestRow> {
  /** For the logs: "top-up", "payout", "payment attempt", "refund". */
  what: string;
  /** Which of the four: the request's kind in provider_requests. */
  request_kind: RequestKind;
  /** Money in (`collection`) or out (`disbursement`): what the connector is asked. */
  kind: ConnectorKind;
  /** provider_requests, bound to its database (`requestStore(db)`). */
  requests: RequestStore;
  store: OwnerStore<Row>;
  connectors: ConnectorSource;
  clock: Clock;
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** What to send the provider for this row. */
  request(row: Row): PaymentRequest;
  /** How to send it, when not by `collect` or `disburse` after the kind (a refund: the provider's refund operation). */
  send?(connector: Connector, request: PaymentRequest, row: Row): Promise<SubmitResult>;
  /**
   * What the row stored of the provider's answer, for providers that cannot be asked by our
   * reference alone (Orange's status needs its pay_token and the amount).
   */
  known?(row: Row): KnownRequest;
  /** Stores what the provider answered on accepting the request (its own reference, the payer's redirect URL). */
  remember?(row: Row, handle: ProviderHandle): Promise<void>;
  /**
   * Decides the row, once: in the owner's transaction, under the row's lock, only from PENDING
   * (a second decision finds it decided and does nothing). `seen` is the row as the lifecycle
   * read it, without a lock: what never changes in it (its owner, amount, provider) lets the
   * owner send its other reads with the lock; its status is what the lock reads.
   */
  settle(id: string, decision: Decision, seen: Row): Promise<void>;
  /**
   * A row the provider has not decided this long after its creation fails with reason TIMEOUT
   * (NOT_SUBMITTED when the provider never had it). Absent: never given up (money out must not
   * be declared failed while the provider may still pay it).
   */
  giveUpAfterMs?: number;
}

/** How long a poller holds a claimed row before another may take it (a call is bounded by 10 s). */
export const POLL_LEASE_MS = 30 * SECOND;
/** Requests whose callbacks' news one round reads at once (each a status read at its provider). */
export const CALLBACK_BATCH = 50;
/** The first poll comes after the submit has had its chance. */
export const FIRST_POLL_DELAY_MS = 2 * SECOND;
/** Beyond the connector's own bound on a submit: the commit of what it answered, a slow event loop. */
export const SUBMIT_MARGIN_MS = 5 * SECOND;
/**
 * The reason of a redirect request whose page was lost: the process died after the provider
 * accepted it and before its answer (page and provider reference) was stored, and the provider
 * cannot be asked by our reference (`statusByReference` false, Orange Money), so the payer can
 * never be shown the page (docs/decisions/0038-provider-settings-and-health-per-host.md).
 */
export const PAGE_LOST_REASON = 'PAGE_LOST';

/**
 * How long after its creation a request may still be in its submit: the connector's bound on a
 * submit (from its timeout setting) and the margin. After it, a submit that stored nothing has ended.
 */
export function pageLostAfterMs(connector: Pick<Connector, 'submitTimeoutMs'>): number {
  return connector.submitTimeoutMs + SUBMIT_MARGIN_MS;
}

export interface ProviderLifecycle<Row extends ProviderRequestRow> {
  readonly kind: ConnectorKind;
  readonly requestKind: RequestKind;
  /**
   * Writes the request of a new owner row, in the owner's transaction and before its row (which
   * points to it). `held`: not to be sent until `release` (a payout waiting for its review).
   */
  open(tx: Tx, row: ProviderRequestRow, opts?: { held?: boolean }): Promise<void>;
  /** A held request goes to the provider, through the account of today. */
  release(tx: Tx, id: string, account: string): Promise<void>;
  /** The connector of this name in a mode (undefined: not configured). */
  connectorFor(mode: KeyMode, connector: string): Connector | undefined;
  /** The account a new request through this connector in this mode is made with (undefined: not configured). */
  accountFor(mode: KeyMode, connector: string): string | undefined;
  /**
   * The connector of the account a row was made with (undefined: that account is not configured
   * here any more): the row's own connector, whatever method it carries.
   */
  connectorOf(row: Pick<ProviderRequestRow, 'mode' | 'connector' | 'provider_account'>): Promise<Connector | undefined>;
  /**
   * Sends the committed row to the provider and acts on a definitive answer. Await it when the
   * answer is needed (a redirect provider's URL); otherwise `start` it.
   */
  submit(row: Row): Promise<SubmitResult>;
  /** `submit` in the background, tracked for `drain`. */
  start(row: Row, once?: OnceOnly): void;
  /**
   * A callback for one of this lifecycle's references: false when the reference is not one of its
   * requests. `request`: the one the router already found by that reference. `queue`: records
   * that the request has news (committed when it resolves); given it, a callback whose connector
   * authenticates it alone (`authenticateCallback`) is only recorded, and its status read comes
   * later (`readCallback`); otherwise the status is read and settled before this resolves.
   */
  callback(provider: string, reference: string, callback: IncomingCallback, request?: ProviderRequest, queue?: (id: string) => Promise<void>): Promise<boolean>;
  /**
   * The status read of a request a callback announced (claimed by the router), and its settle.
   * False when it failed (logged): the news stays, read again at its lease's end.
   */
  readCallback(request: ProviderRequest): Promise<boolean>;
  /**
   * A callback the connector of the provider account `account` already verified (providers that
   * sign one webhook URL per account, such as Wave): false when its reference is not one of this
   * lifecycle's requests; a request of another account is acknowledged and decides nothing.
   */
  verified(mode: KeyMode, provider: string, verified: Extract<CallbackResult, { ok: true }>, request?: ProviderRequest, account?: string): Promise<boolean>;
  /** The poller's round for this kind alone: claims its due requests and polls them. Returns how many it claimed. */
  pollDue(limit?: number): Promise<number>;
  /** Polls a request the one poller claimed. */
  pollClaimed(request: ProviderRequest): Promise<void>;
  /**
   * The payer left this pending request for another (came back from a redirect provider's page
   * and chose again): closes it at a provider that can (`Connector.cancel`), then settles it on
   * what the provider says now. Outside any transaction. True when the row is decided by it;
   * false when the provider cannot close it, or it is still open there (the caller waits).
   */
  abandon(row: Row): Promise<boolean>;
  /** Waits for the provider calls started in the background (shutdown). */
  drain(): Promise<void>;
}

export function createProviderLifecycle<Row extends ProviderRequestRow>(spec: LifecycleSpec<Row>): ProviderLifecycle<Row> {
  const { kind, store, clock, connectors, requests } = spec;
  const log = spec.logger;
  const inFlight = new Set<Promise<unknown>>();
  const connectorFor = (mode: KeyMode, connector: string) => connectors.forMode(mode).get(connector);
  const accountFor = (mode: KeyMode, connector: string) => connectors.forMode(mode).account(connector);
  /**
   * Only the account a request records reads it (even disabled or replaced since): another's
   * settings (or credentials) are not those that made it. The row's connector, not its method: a
   * method reached through an aggregator is read, called back and refunded through that
   * aggregator (docs/spec/routes.md).
   */
  const connectorOf = async (row: Pick<ProviderRequestRow, 'mode' | 'connector' | 'provider_account'>): Promise<Connector | undefined> =>
    row.provider_account === null || row.provider_account === undefined ? connectorFor(row.mode, row.connector) : connectors.byAccount(row.provider_account);
  /** The row's account is configured no more, though its connector is: nothing can read it, nor say it failed. */
  const accountGone = async (row: Pick<ProviderRequestRow, 'mode' | 'connector' | 'provider_account'>) =>
    connectorFor(row.mode, row.connector) !== undefined && (await connectorOf(row)) === undefined;

  async function submit(row: Row, once?: OnceOnly): Promise<SubmitResult> {
    const connector = await connectorOf(row);
    if (!connector) return { status: 'UNKNOWN', reason: 'no connector for this provider' };
    const request = { ...spec.request(row), ...once };
    const result = spec.send
      ? await spec.send(connector, request, row)
      : kind === 'collection'
        ? await connector.collect(request)
        : await connector.disburse(request);
    if (result.status === 'PENDING') {
      if (spec.remember && (result.providerReference !== undefined || result.redirectUrl !== undefined)) {
        await spec.remember(row, { providerReference: result.providerReference, redirectUrl: result.redirectUrl });
      }
      await requests.markSubmitted(row.id, clock.now());
    } else if (result.status === 'FAILED') {
      // An earlier call with this reference may have reached the provider: its status decides.
      const status = await connector.status(kind, row.reference, spec.known?.(row));
      const decision = status.status === 'NOT_FOUND' ? ({ status: 'FAILED', reason: result.reason } as const) : decisionOf(status);
      if (decision) await spec.settle(row.id, decision, row);
    }
    return result;
  }

  function start(row: Row, once?: OnceOnly): void {
    const tracked = submit(row, once)
      .catch((err: unknown) => log?.[failureLevel(err)]({ err, id: row.id }, `mobile-money ${spec.what} call failed`))
      .finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }

  /**
   * A redirect request (money in) whose page was never stored, older than its submit can run, at
   * a provider that reads only by what that submit answered: nothing can show the payer its page
   * or read its outcome, so waiting for the give-up only keeps the payer from another try.
   */
  function pageLost(row: Row, connector: Connector, result: StatusResult): boolean {
    if (kind !== 'collection' || !spec.remember || !spec.known) return false;
    const description = describeProvider(row.connector);
    if (description === undefined || description.approval !== 'redirect' || description.statusByReference) return false;
    if (spec.known(row).providerReference !== undefined || ('providerReference' in result && result.providerReference !== undefined)) return false;
    return clock.now().getTime() - row.created_at.getTime() >= pageLostAfterMs(connector);
  }

  /**
   * Asks the provider to close the request (Wave's `/expire`), when it can: best effort, logged,
   * never thrown. True when the provider closed it.
   */
  async function closeAtProvider(row: Row, connector: Connector): Promise<boolean> {
    if (!connector.cancel) return false;
    try {
      const closed = await connector.cancel(kind, row.reference, spec.known?.(row));
      if (!closed.ok) log?.warn({ id: row.id, reason: closed.reason }, `mobile-money ${spec.what} not closed at the provider`);
      return closed.ok;
    } catch (err) {
      log?.warn({ err, id: row.id }, `mobile-money ${spec.what} not closed at the provider`);
      return false;
    }
  }

  /**
   * After giving up on a request: closed at the provider so that nobody pays it any more, then
   * read once, so that a payment that came first is settled now (a late payment to return).
   */
  async function closeGivenUp(row: Row, connector: Connector): Promise<void> {
    if (!connector.cancel) return;
    await closeAtProvider(row, connector);
    try {
      const decision = decisionOf(await connector.status(kind, row.reference, spec.known?.(row)));
      if (decision?.status === 'SUCCESSFUL') await spec.settle(row.id, decision, row);
    } catch (err) {
      log?.warn({ err, id: row.id }, `mobile-money ${spec.what} not read after giving up`);
    }
  }

  const scheduleNextPoll = (request: ProviderRequest) => requests.scheduleNextPoll(request.id, new Date(clock.now().getTime() + pollBackoffMs(request.polls)));

  async function poll(row: Row, request: ProviderRequest): Promise<void> {
    if (await accountGone(row)) {
      // Money may have moved under that account: the request waits, unread and undecided, until its settings come back.
      log?.warn({ id: row.id, providerAccount: row.provider_account }, `mobile-money ${spec.what} waits for its provider account`);
      await scheduleNextPoll(request);
      return;
    }
    const connector = await connectorOf(row);
    const result: StatusResult = connector
      ? await connector.status(kind, row.reference, spec.known?.(row))
      : { status: 'UNKNOWN', reason: 'no connector for this provider' };
    // A redirect request whose submit answer was lost (a crash before `remember`): the status read
    // gives its page back, when the provider can say it.
    if (result.status === 'PENDING' && spec.remember && (result.redirectUrl !== undefined || result.providerReference !== undefined)) {
      await spec.remember(row, { providerReference: result.providerReference, redirectUrl: result.redirectUrl });
    }
    const decision = decisionOf(result);
    if (decision) return spec.settle(row.id, decision, row);
    if (connector && pageLost(row, connector, result)) return spec.settle(row.id, { status: 'FAILED', reason: PAGE_LOST_REASON }, row);
    if (request.deadline_at !== null && clock.now().getTime() >= request.deadline_at.getTime()) {
      const notSubmitted = result.status === 'NOT_FOUND';
      await spec.settle(row.id, { status: 'FAILED', reason: notSubmitted ? 'NOT_SUBMITTED' : 'TIMEOUT' }, row);
      // Committed: now the provider's page is closed, so that the payer cannot pay what we gave up.
      if (!notSubmitted && connector) await closeGivenUp(row, connector);
      return;
    }
    if (result.status === 'NOT_FOUND' && connector) await submit(row);
    await scheduleNextPoll(request);
  }

  /** The owner of this lifecycle's request with this reference (undefined: not one of its requests). */
  async function ownerOf(reference: string, known?: ProviderRequest): Promise<Row | undefined> {
    if (!known) return store.loadByReference(reference);
    if (known.kind !== spec.request_kind || known.reference !== reference) return undefined;
    return store.load(known.id);
  }

  async function pollClaimed(request: ProviderRequest): Promise<void> {
    try {
      const row = await store.load(request.id);
      if (!row) {
        log?.error({ id: request.id, kind: request.kind }, 'provider request without its owner');
        return;
      }
      await poll(row, request);
    } catch (err) {
      log?.[failureLevel(err)]({ err, id: request.id }, `mobile-money ${spec.what} poll failed`);
    }
  }

  return {
    kind,
    requestKind: spec.request_kind,
    async open(tx, row, opts = {}) {
      await requests.insert(tx, {
        id: row.id,
        kind: spec.request_kind,
        reference: row.reference,
        mode: row.mode,
        connector: row.connector,
        provider_account: row.provider_account,
        status: opts.held ? 'HELD' : 'PENDING',
        submitted_at: null,
        next_poll_at: new Date(row.created_at.getTime() + FIRST_POLL_DELAY_MS),
        polls: 0,
        deadline_at: spec.giveUpAfterMs === undefined ? null : new Date(row.created_at.getTime() + spec.giveUpAfterMs),
        created_at: row.created_at,
        updated_at: row.created_at,
        finished_at: null,
        callback_at: null,
      });
    },
    release: (tx, id, account) => requests.release(tx, id, account, new Date(clock.now().getTime() + FIRST_POLL_DELAY_MS)),
    connectorFor,
    accountFor,
    connectorOf,
    submit,
    start,
    async callback(provider, reference, callback, known, queue) {
      if (queue && known) {
        // What the answer needs is in the request: the owner's row is read with the status.
        if (known.kind !== spec.request_kind || known.reference !== reference) return false;
        if (known.connector === provider && (await accountGone(known))) return true;
        const connector = await connectorOf(known);
        if (!connector || known.connector !== provider) return false;
        if (connector.authenticateCallback) {
          const authenticated = await connector.authenticateCallback(callback);
          if (!authenticated.ok || authenticated.reference !== reference || authenticated.kind !== kind)
            throw new ApiError('callback_invalid', 'The callback could not be authenticated');
          await queue(known.id);
          return true;
        }
      }
      const row = await ownerOf(reference, known);
      if (!row) return false;
      // `provider`: the connector the callback's URL names.
      if (row.connector === provider && (await accountGone(row))) return true;
      const connector = await connectorOf(row);
      if (!connector || row.connector !== provider) return false;
      const decision = await callbackDecision(connector, kind, reference, { ...callback, known: spec.known?.(row) });
      if (decision) await spec.settle(row.id, decision, row);
      return true;
    },
    async verified(mode, provider, verified, known, account) {
      if (verified.kind !== kind) return false;
      const row = await ownerOf(verified.reference, known);
      if (!row || row.mode !== mode || row.connector !== provider) return false;
      // Verified by one account: a request of another account is not decided by it.
      if (account !== undefined && !sameAccount(row.provider_account, account, row.connector)) return true;
      if ((await connectorOf(row)) === undefined) return true;
      const decision = decisionOf(verified.result);
      if (decision) await spec.settle(row.id, decision, row);
      return true;
    },
    async pollDue(limit = 20) {
      const now = clock.now();
      const claimed = await requests.claimDue(now, new Date(now.getTime() + POLL_LEASE_MS), limit, spec.request_kind);
      await Promise.all(claimed.map(pollClaimed));
      return claimed.length;
    },
    pollClaimed,
    async readCallback(request) {
      try {
        const row = await store.load(request.id);
        if (!row) {
          log?.error({ id: request.id, kind: request.kind }, 'provider request without its owner');
          return true;
        }
        if (await accountGone(row)) return true;
        const connector = await connectorOf(row);
        if (!connector) return true;
        const decision = decisionOf(await connector.status(kind, row.reference, spec.known?.(row)));
        if (decision) await spec.settle(row.id, decision, row);
        return true;
      } catch (err) {
        log?.[failureLevel(err)]({ err, id: request.id }, `mobile-money ${spec.what} callback's status read failed`);
        return false;
      }
    },
    async abandon(row) {
      const connector = await connectorOf(row);
      if (!connector?.cancel) return false;
      // Closed, or not (already paid, or expired): either way the provider's status decides.
      await closeAtProvider(row, connector);
      const decision = decisionOf(await connector.status(kind, row.reference, spec.known?.(row)));
      if (decision === undefined) return false;
      await spec.settle(row.id, decision, row);
      return true;
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
