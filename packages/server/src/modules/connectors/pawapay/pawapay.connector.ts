import type { KeyObject } from 'node:crypto';
import { type Currency, formatAmount, MAX_MINOR_UNITS } from '../../../platform/money.ts';
import { decimalToMinor } from '../connectors.amounts.ts';
import type { Capability } from '../connectors.description.ts';
import { type Checker, ProviderHttp, readJson } from '../connectors.http.ts';
import { bodyObject, outcomeLog } from '../connectors.outcomes.ts';
import { isReference } from '../connectors.references.ts';
import type {
  CallbackResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  IncomingCallback,
  OperatorTarget,
  PaymentRequest,
  StatusResult,
  SubmitResult,
} from '../connectors.types.ts';
import { CUSTOMER_MESSAGE } from './pawapay.description.ts';
import { type PawapayAuthType, type PawapayProvider, pawapayProvider, pawapayProviderFor, pawapayProviderForNumber } from './pawapay.providers.ts';
import {
  type ActiveConf,
  type Availability,
  checkActiveConf,
  checkAvailability,
  checkDepositInitiation,
  checkDepositStatus,
  checkErrorAnswer,
  checkPayoutInitiation,
  checkPayoutStatus,
  checkPrediction,
  checkPublicKeys,
  checkRefundInitiation,
  checkRefundStatus,
  type Deposit,
  type Initiation,
  type Payout,
  type Prediction,
  type Refund,
} from './pawapay.schema.ts';
import { parsePinnedKeys, publicKeyOf, verifyCallbackSignature } from './pawapay.signature.ts';

/**
 * `pawapay`: pawaPay's Merchant API v2 (docs/spec/providers.md, "pawaPay"), an aggregator: one
 * account reaches many operators in many countries. Our reference is the `depositId` /
 * `payoutId` / `refundId`, so every request is read back by our reference alone, also after a
 * crash. The operator (pawaPay's `provider`) comes from the request's payment method and country.
 * Callbacks go to one URL per operation type set in pawaPay's dashboard; they are checked with
 * pawaPay's signature when the account signs them and, always, confirmed by a status read.
 */

export const PAWAPAY = 'pawapay';

export interface PawapaySettings {
  /** https://api.pawapay.io (or the sandbox's /pawapay base). */
  baseUrl: string;
  /** The API token, sent as a bearer token. */
  apiToken: string;
  /** `required`: the account signs its callbacks, and unsigned ones are refused. */
  callbackSignatures?: string;
  /** pawaPay's signing keys, pinned (`keyid:base64,…`): only these verify callbacks, and none is fetched. Unset: fetched from pawaPay. */
  publicKeys?: string;
  /** Bound on each call (default 10 s). */
  timeoutMs?: number;
  connections?: number;
}

/** How a payer authorises a deposit with one operator, in our words. */
export type Authorisation = 'phone_prompt' | 'pre_authorisation_code' | 'redirect';

const AUTHORISATION: Record<PawapayAuthType, Authorisation> = {
  PROVIDER_AUTH: 'phone_prompt',
  PREAUTH: 'pre_authorisation_code',
  REDIRECT_AUTH: 'redirect',
};

/** pawaPay's failure codes that have a name of ours (charges.attempts.settle.ts turns them into the API's codes); the rest are kept as they are. */
const COMMON_REASONS: Readonly<Record<string, string>> = {
  INSUFFICIENT_BALANCE: 'NOT_ENOUGH_FUNDS',
  PAYMENT_NOT_APPROVED: 'APPROVAL_REJECTED',
  AMOUNT_OUT_OF_BOUNDS: 'INVALID_AMOUNT',
  RECIPIENT_NOT_FOUND: 'PAYER_NOT_FOUND',
};
/** The reason of a code the operator refused (our sandbox's name for it too). */
export const PREAUTH_REFUSED = 'INVALID_PREAUTHORISATION_CODE';
const reasonOf = (code: string | undefined) => (code === undefined ? 'FAILED' : (COMMON_REASONS[code] ?? code));

/**
 * A failed payment's reason. A deposit to an operator that takes a code (PREAUTH) prompts nobody:
 * "not approved" there is the operator refusing the code, which the payer replaces by a new one.
 */
function failedReason(p: Deposit | Payout | Refund): string {
  const code = p.failureReason?.failureCode;
  const preauth = 'payer' in p && pawapayProvider(p.payer.accountDetails.provider)?.authType === 'PREAUTH';
  return preauth && code === 'PAYMENT_NOT_APPROVED' ? PREAUTH_REFUSED : reasonOf(code);
}

/** Refusals that say the token is not good for this call. */
const CREDENTIAL_CODES = new Set(['NO_AUTHENTICATION', 'AUTHENTICATION_ERROR', 'AUTHORISATION_ERROR', 'HTTP_SIGNATURE_ERROR']);

/** The connector, with what only pawaPay has (the toolkit endpoints), for checkout and the console. */
export interface PawapayConnector extends Connector {
  refund(request: PaymentRequest & { providerReference: string }): Promise<SubmitResult>;
  check(): Promise<{ ok: boolean; detail: string }>;
  activeConfiguration(): Promise<{ ok: true; value: ActiveConf } | { ok: false; reason: string }>;
  availability(): Promise<{ ok: true; value: Availability } | { ok: false; reason: string }>;
  predictProvider(phoneNumber: string): Promise<{ ok: true; value: Prediction & { method?: string } } | { ok: false; reason: string }>;
  /** What the account's active configuration leaves out for one operator, as last read (refreshed a minute old by `refreshLacks`). */
  lacksFor(capability: Capability, target: OperatorTarget): string | undefined;
  refreshLacks(): Promise<void>;
  /** How the payer authorises a deposit with this method in this country, as the account's active configuration says (cached a minute). */
  authorisation(method: string, country: string): Promise<Authorisation | undefined>;
}

function failureOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (checkErrorAnswer.Check(parsed)) return parsed.failureReason.failureCode;
  } catch {}
  return undefined;
}

function httpReason(status: number, body: string): string {
  const code = failureOf(body);
  return code === undefined ? `HTTP ${status}` : `HTTP ${status} ${code}`;
}

/** The payer-facing name as pawaPay takes it, or undefined (pawaPay then shows the account's company name). */
export function customerMessageOf(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const cleaned = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, CUSTOMER_MESSAGE.maxLength)
    .trim();
  return CUSTOMER_MESSAGE.pattern.test(cleaned) ? cleaned : undefined;
}

/** pawaPay's operation for each of our capabilities, and how a refusal names it. */
const OPERATION = { collect: 'DEPOSIT', disburse: 'PAYOUT', refund: 'REFUND' } as const satisfies Record<Capability, string>;
const OPERATION_WORDS = { DEPOSIT: 'deposits from', PAYOUT: 'payouts to', REFUND: 'refunds to' } as const;

const PUBLIC_KEYS_REFRESH_MS = 60_000;
const ACTIVE_CONF_TTL_MS = 60_000;

export function createPawapayConnector(settings: PawapaySettings, deps: ConnectorDeps): PawapayConnector {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const http = new ProviderHttp(settings.baseUrl, { timeoutMs, connections: settings.connections });
  const out = outcomeLog(PAWAPAY, deps.logger);
  const auth = { authorization: `Bearer ${settings.apiToken}`, accept: 'application/json' };
  const signaturesRequired = settings.callbackSignatures === 'required';
  const now = () => deps.clock.now().getTime();

  /** The operator of a request: its method and country, else its number's calling code. */
  function operatorOf(req: PaymentRequest): PawapayProvider | undefined {
    if (req.method === undefined) return undefined;
    return req.country !== undefined ? pawapayProviderFor(req.method, req.country) : pawapayProviderForNumber(req.method, req.phoneNumber);
  }

  function invalidRequest(req: PaymentRequest, operator: PawapayProvider | undefined): string | undefined {
    if (!isReference(req.reference)) return 'INVALID_REFERENCE';
    if (typeof req.amount !== 'bigint' || req.amount <= 0n || req.amount > MAX_MINOR_UNITS) return 'INVALID_AMOUNT';
    if (!/^\+?[1-9][0-9]{6,14}$/.test(req.phoneNumber)) return 'INVALID_PHONE_NUMBER';
    if (operator === undefined) return 'INVALID_PROVIDER';
    if (req.currency !== operator.currency) return 'INVALID_CURRENCY';
    if (!req.phoneNumber.replace(/^\+/, '').startsWith(operator.prefix)) return 'INVALID_PHONE_NUMBER';
    return undefined;
  }

  /** An initiation's answer: ACCEPTED and DUPLICATE_IGNORED are the same request in flight, REJECTED created nothing. */
  function initiated(op: string, kind: ConnectorKind, reference: string, res: { status: number; body: string }, checker: Checker<unknown>): SubmitResult {
    if (res.status === 200) {
      const answer = readJson(res.body, checker as Checker<Initiation>);
      if (!answer.ok) return out.unknown(op, kind, reference, answer.reason);
      const a = answer.value;
      if (a.status === 'REJECTED') return out.failed(op, kind, reference, reasonOf(a.failureReason?.failureCode), a.failureReason?.failureMessage);
      deps.logger.info({ provider: PAWAPAY, op, kind, reference, status: a.status }, 'mobile-money request accepted');
      // DUPLICATE_IGNORED: pawaPay already has this id (an earlier call whose answer we lost): still the one request.
      return { status: 'PENDING', duplicate: a.status === 'DUPLICATE_IGNORED', providerReference: reference };
    }
    const code = failureOf(res.body);
    if (res.status === 401 || (res.status === 403 && (code === undefined || CREDENTIAL_CODES.has(code))))
      return out.failed(op, kind, reference, 'CREDENTIALS_REFUSED', httpReason(res.status, res.body));
    if (res.status === 408 || res.status === 429 || res.status >= 500) return out.unknown(op, kind, reference, httpReason(res.status, res.body));
    // 400 (a body pawaPay cannot take), 403 DEPOSITS_NOT_ALLOWED…: this call created nothing.
    if (res.status >= 400) return out.failed(op, kind, reference, code ?? `HTTP_${res.status}`, httpReason(res.status, res.body));
    return out.unknown(op, kind, reference, `unexpected ${httpReason(res.status, res.body)}`);
  }

  async function submit(kind: ConnectorKind, req: PaymentRequest): Promise<SubmitResult> {
    const op = kind === 'collection' ? 'collect' : 'disburse';
    const operator = operatorOf(req);
    const invalid = invalidRequest(req, operator);
    if (invalid !== undefined || operator === undefined) return out.failed(op, kind, req.reference, invalid ?? 'INVALID_PROVIDER', 'not sent');
    // The operator takes a code the payer made beforehand instead of prompting: without it, pawaPay refuses the deposit.
    if (kind === 'collection' && operator.authType === 'PREAUTH' && (req.preAuthorisationCode ?? '') === '')
      return out.failed(op, kind, req.reference, 'PRE_AUTHORISATION_CODE_REQUIRED', 'not sent');
    const party = { type: 'MMO', accountDetails: { phoneNumber: req.phoneNumber.replace(/^\+/, ''), provider: operator.code } };
    const message = customerMessageOf(req.payerName);
    const common = {
      amount: formatAmount(req.amount, req.currency),
      currency: req.currency,
      clientReferenceId: req.externalId.slice(0, 36),
      ...(message !== undefined ? { customerMessage: message } : {}),
    };
    const body =
      kind === 'collection'
        ? {
            depositId: req.reference,
            ...common,
            payer: party,
            ...(req.preAuthorisationCode !== undefined ? { preAuthorisationCode: req.preAuthorisationCode } : {}),
            // Where a redirect operator's page sends the payer back.
            ...(operator.authType === 'REDIRECT_AUTH' && req.returnUrl !== undefined
              ? { successfulUrl: req.returnUrl, failedUrl: req.cancelUrl ?? req.returnUrl }
              : {}),
          }
        : { payoutId: req.reference, ...common, recipient: party };
    const res = await http.send('POST', kind === 'collection' ? '/v2/deposits' : '/v2/payouts', auth, JSON.stringify(body));
    if (!res.ok) return out.unknown(op, kind, req.reference, res.reason);
    return initiated(op, kind, req.reference, res, kind === 'collection' ? checkDepositInitiation : checkPayoutInitiation);
  }

  /**
   * pawaPay's refund: the deposit (by its depositId, our attempt's reference) back to the payer,
   * the whole or a part (several parts may follow one another, one at a time). Asynchronous:
   * ACCEPTED, then COMPLETED or FAILED, read back by `status('disbursement', refundId)`.
   */
  async function refund(req: PaymentRequest & { providerReference: string }): Promise<SubmitResult> {
    if (!isReference(req.reference)) return out.failed('refund', 'disbursement', req.reference, 'INVALID_REFERENCE', 'not sent');
    if (!isReference(req.providerReference)) return out.failed('refund', 'disbursement', req.reference, 'INVALID_PROVIDER_REFERENCE', 'not sent');
    if (typeof req.amount !== 'bigint' || req.amount <= 0n || req.amount > MAX_MINOR_UNITS)
      return out.failed('refund', 'disbursement', req.reference, 'INVALID_AMOUNT', 'not sent');
    const body = {
      refundId: req.reference,
      depositId: req.providerReference,
      amount: formatAmount(req.amount, req.currency),
      currency: req.currency,
      clientReferenceId: req.externalId.slice(0, 36),
    };
    const res = await http.send('POST', '/v2/refunds', auth, JSON.stringify(body));
    if (!res.ok) return out.unknown('refund', 'disbursement', req.reference, res.reason);
    return initiated('refund', 'disbursement', req.reference, res, checkRefundInitiation);
  }

  function view(kind: ConnectorKind, reference: string, p: Deposit | Payout | Refund): StatusResult {
    if (p.currency !== 'XAF' && p.currency !== 'XOF') return out.unknown('status', kind, reference, `the answer's currency ${p.currency} is not one we handle`);
    const currency: Currency = p.currency;
    const amount = decimalToMinor(p.amount, currency);
    if (amount === undefined) return out.unknown('status', kind, reference, `the answer's amount ${p.amount} is not a ${currency} amount`);
    const v = { amount, currency };
    switch (p.status) {
      case 'COMPLETED':
        return { status: 'SUCCESSFUL', ...v, ...(p.providerTransactionId !== undefined ? { providerTransactionId: p.providerTransactionId } : {}) };
      case 'FAILED':
        return { status: 'FAILED', ...v, reason: failedReason(p) };
      default: {
        // Still in flight (ACCEPTED, SUBMITTED, ENQUEUED, PROCESSING, IN_RECONCILIATION): a
        // redirect operator's page once pawaPay has it.
        const url = 'authorizationUrl' in p ? p.authorizationUrl : undefined;
        return { status: 'PENDING', ...v, ...(url !== undefined ? { redirectUrl: url, providerReference: reference } : {}) };
      }
    }
  }

  async function read<T extends Deposit | Payout | Refund>(
    kind: ConnectorKind,
    reference: string,
    path: string,
    checker: Checker<{ status: 'FOUND'; data: T } | { status: 'NOT_FOUND' }>,
    idOf: (p: T) => string,
  ): Promise<StatusResult> {
    const res = await http.send('GET', `${path}/${reference}`, auth);
    if (!res.ok) return out.unknown('status', kind, reference, res.reason);
    if (res.status !== 200) return out.unknown('status', kind, reference, httpReason(res.status, res.body));
    const answer = readJson(res.body, checker);
    if (!answer.ok) return out.unknown('status', kind, reference, answer.reason);
    const a = answer.value;
    if (a.status === 'NOT_FOUND') return { status: 'NOT_FOUND' };
    if (idOf(a.data) !== reference) return out.unknown('status', kind, reference, 'the answer is about another id');
    return view(kind, reference, a.data);
  }

  /** A disbursement is a payout or a refund: the same reference is never both, so a payout pawaPay does not know is looked for among refunds. */
  async function status(kind: ConnectorKind, reference: string): Promise<StatusResult> {
    if (!isReference(reference)) return out.unknown('status', kind, reference, 'the reference is not a UUID v4');
    if (kind === 'collection') return read(kind, reference, '/v2/deposits', checkDepositStatus, (d: Deposit) => d.depositId);
    const payout = await read(kind, reference, '/v2/payouts', checkPayoutStatus, (p: Payout) => p.payoutId);
    if (payout.status !== 'NOT_FOUND') return payout;
    return read(kind, reference, '/v2/refunds', checkRefundStatus, (r: Refund) => r.refundId);
  }

  /**
   * pawaPay's callback signing keys by id: the account's pinned ones, else fetched when a
   * signature names one we do not hold (at most once a minute).
   */
  const pinned = settings.publicKeys === undefined ? undefined : parsePinnedKeys(settings.publicKeys);
  if (pinned !== undefined && !pinned.ok) throw new Error(`publicKeys: ${pinned.message}`);
  const keys = pinned?.keys ?? new Map<string, KeyObject>();
  let keysFetchedAt = Number.NEGATIVE_INFINITY;
  async function keyOf(keyid: string): Promise<KeyObject | undefined> {
    if (pinned !== undefined || keys.has(keyid) || now() - keysFetchedAt < PUBLIC_KEYS_REFRESH_MS) return keys.get(keyid);
    keysFetchedAt = now();
    const res = await http.send('GET', '/v2/public-key/http', auth);
    if (!res.ok || res.status !== 200) {
      deps.logger.warn({ provider: PAWAPAY, reason: res.ok ? httpReason(res.status, res.body) : res.reason }, "pawaPay's public keys could not be read");
      return undefined;
    }
    const answer = readJson(res.body, checkPublicKeys);
    if (!answer.ok) return undefined;
    for (const k of answer.value) {
      const key = publicKeyOf(k.key);
      if (key !== undefined) keys.set(k.id, key);
    }
    return keys.get(keyid);
  }

  function headerText(headers: IncomingCallback['headers'], name: string): string | undefined {
    const v = headers?.[name];
    return Array.isArray(v) ? v[0] : v;
  }

  /**
   * A callback names its payment by `depositId`, `payoutId` or `refundId` (one URL per operation
   * type, or the same URL for all three). Signed: the signature must hold over the raw body; with
   * `callbackSignatures: required`, an unsigned one is refused. Then the result is what pawaPay
   * answers to a status read now, never the body; an unsigned callback for an id pawaPay does not
   * know is refused (it proves nothing, and another mode's account may know it).
   */
  async function verifyCallback(callback: IncomingCallback): Promise<CallbackResult> {
    const raw = typeof callback.body === 'string' ? callback.body : Buffer.isBuffer(callback.body) ? callback.body.toString('utf8') : undefined;
    const signed = headerText(callback.headers, 'signature') !== undefined || headerText(callback.headers, 'signature-input') !== undefined;
    if (signaturesRequired || signed) {
      if (raw === undefined) return out.refused("the raw body is needed to check pawaPay's signature");
      let url: URL;
      try {
        url = new URL(callback.url, 'http://callback.invalid');
      } catch {
        return out.refused('the callback URL cannot be read');
      }
      const checked = await verifyCallbackSignature(
        {
          method: 'POST',
          authority: headerText(callback.headers, 'host') ?? url.host,
          path: url.pathname,
          query: url.search || '?',
          headers: callback.headers ?? {},
        },
        raw,
        now(),
        keyOf,
      );
      if (!checked.ok) return out.refused(checked.reason);
    }
    const event = bodyObject(raw ?? callback.body) as Record<string, unknown> | undefined;
    if (typeof event !== 'object' || event === null) return out.refused('the body is not a pawaPay callback');
    // A refund's callback names its deposit too: its own id first.
    const [kind, id] =
      typeof event.refundId === 'string'
        ? (['disbursement', event.refundId] as const)
        : typeof event.payoutId === 'string'
          ? (['disbursement', event.payoutId] as const)
          : typeof event.depositId === 'string'
            ? (['collection', event.depositId] as const)
            : (['collection', undefined] as const);
    if (id === undefined || !isReference(id)) return out.refused('the callback names none of our references');
    const claimed = event.status === 'COMPLETED' ? 'SUCCESSFUL' : event.status === 'FAILED' ? 'FAILED' : event.status === undefined ? undefined : 'PENDING';
    const result = await status(kind, id);
    if (!signed && result.status === 'NOT_FOUND') return out.refused('pawaPay does not know the id this unsigned callback names');
    return { ok: true, kind, reference: id, claimed, result };
  }

  async function getJson<T>(path: string, checker: Checker<T>): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
    const res = await http.send('GET', path, auth);
    if (!res.ok) return { ok: false, reason: res.reason };
    if (res.status !== 200) return { ok: false, reason: httpReason(res.status, res.body) };
    const answer = readJson(res.body, checker);
    return answer.ok ? { ok: true, value: answer.value } : { ok: false, reason: answer.reason };
  }

  let conf: { at: number; value: ActiveConf } | undefined;
  async function activeConfiguration() {
    const got = await getJson('/v2/active-conf', checkActiveConf);
    if (got.ok) conf = { at: now(), value: got.value };
    return got;
  }

  /**
   * The account's check: its active configuration, the one read every token may make; nothing
   * moves. The detail says, in pawaPay's words, whom the account reaches.
   */
  async function check(): Promise<{ ok: boolean; detail: string }> {
    const got = await activeConfiguration();
    if (!got.ok) return { ok: false, detail: `active configuration: ${got.reason}` };
    const operators = got.value.countries.flatMap((c) => c.providers.map((p) => p.provider));
    const signing = got.value.signatureConfiguration?.signedCallbacks;
    const signatures = signing === undefined ? '' : `; callbacks ${signing ? 'signed' : 'not signed'}`;
    if (operators.length === 0) return { ok: false, detail: `${got.value.companyName}: no operator is configured on this account` };
    return { ok: true, detail: `${got.value.companyName}: ${operators.join(', ')}${signatures}` };
  }

  function preAuthorisationUssd(method: string, country: string): string | undefined {
    return pawapayProviderFor(method, country)?.codeUssd;
  }

  /**
   * The active configuration, read again once a minute old (never inside a transaction). At most
   * one read a minute, answered or not: while pawaPay does not answer, requests go on with the
   * last copy (or none) instead of each waiting for it, as does a caller while the read runs.
   */
  let confTriedAt = Number.NEGATIVE_INFINITY;
  async function freshConf(): Promise<void> {
    if (conf !== undefined && now() - conf.at <= ACTIVE_CONF_TTL_MS) return;
    if (now() - confTriedAt < ACTIVE_CONF_TTL_MS) return;
    confTriedAt = now();
    await activeConfiguration();
  }

  /** What the account's active configuration lists for one operator and its currency, from the last read. */
  function listedFor(operator: PawapayProvider) {
    return conf?.value.countries
      .find((c) => c.country === operator.country3)
      ?.providers.find((p) => p.provider === operator.code)
      ?.currencies.find((c) => c.currency === operator.currency);
  }

  /**
   * pawaPay enables each operation per operator and currency: one the active configuration does
   * not list is refused by pawaPay, so Caisse refuses it first, saying why. Not read yet: unknown.
   */
  function lacksFor(capability: Capability, target: OperatorTarget): string | undefined {
    if (conf === undefined) return undefined;
    const operator =
      target.country !== undefined ? pawapayProviderFor(target.method, target.country) : pawapayProviderForNumber(target.method, target.phoneNumber ?? '');
    if (operator === undefined) return undefined;
    const operation = OPERATION[capability];
    if (listedFor(operator)?.operationTypes[operation] !== undefined) return undefined;
    return `pawaPay's active configuration of this account does not enable ${OPERATION_WORDS[operation]} ${operator.code} (${operator.currency}): ask pawaPay to enable it`;
  }

  async function authorisation(method: string, country: string): Promise<Authorisation | undefined> {
    const operator = pawapayProviderFor(method, country);
    if (operator === undefined) return undefined;
    await freshConf();
    const listed = listedFor(operator)?.operationTypes.DEPOSIT?.authType;
    // Without an answer, the provider list's (documented) authorisation.
    return AUTHORISATION[listed ?? operator.authType];
  }

  return {
    provider: PAWAPAY,
    // One POST: a bearer token, no token endpoint.
    submitTimeoutMs: timeoutMs,
    collect: (req) => submit('collection', req),
    disburse: (req) => submit('disbursement', req),
    refund,
    // Any part of a deposit, one part at a time; ACCEPTED first, COMPLETED or FAILED read back.
    refundOperation: { partial: true, asynchronous: true },
    status,
    verifyCallback,
    check,
    activeConfiguration,
    availability: () => getJson('/v2/availability', checkAvailability),
    async predictProvider(phoneNumber) {
      const res = await http.send('POST', '/v2/predict-provider', auth, JSON.stringify({ phoneNumber }));
      if (!res.ok) return { ok: false, reason: res.reason };
      if (res.status !== 200) return { ok: false, reason: httpReason(res.status, res.body) };
      const answer = readJson(res.body, checkPrediction);
      if (!answer.ok) return { ok: false, reason: answer.reason };
      const method = pawapayProvider(answer.value.provider)?.method;
      return { ok: true, value: { ...answer.value, ...(method !== undefined ? { method } : {}) } };
    },
    authorisation,
    lacksFor,
    refreshLacks: () => freshConf().catch(() => undefined),
    preAuthorisationUssd,
    close: () => http.close(),
  };
}
