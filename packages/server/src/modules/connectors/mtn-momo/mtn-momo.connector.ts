import { formatAmount, isCurrency, MAX_MINOR_UNITS } from '../../../platform/money.ts';
import { decimalToMinor } from '../connectors.amounts.ts';
import { type HttpResult, ProviderHttp, readJson } from '../connectors.http.ts';
import { callbackSigner, isReference } from '../connectors.references.ts';
import type {
  AuthenticatedCallback,
  CallbackResult,
  CheckResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  IncomingCallback,
  ListResult,
  PaymentRequest,
  StatusResult,
  SubmitResult,
} from '../connectors.types.ts';
import { fitMessage } from '../connectors.description.ts';
import { MTN_MOMO_DESCRIPTION } from './mtn-momo.description.ts';
import { checkBalanceAnswer, checkErrorBody, checkSandboxListing, checkStatusAnswer, checkTokenAnswer, type MomoStatusAnswer } from './mtn-momo.schema.ts';
import { providerWords } from '../connectors.check.ts';

/**
 * `mtn_momo`: MTN's MoMo Open API (Collection requesttopay, Disbursement transfer), as described
 * in docs/spec/money-in.md. One access token per product, cached and renewed before it expires; every
 * answer validated; every outcome a typed result (connectors.types.ts), never an exception.
 */

export const MTN_MOMO = 'mtn_momo';

export interface MtnMomoSettings {
  baseUrl: string;
  /** X-Target-Environment: `sandbox`, or the market (`mtncameroon`, `mtnivorycoast`, …). */
  targetEnvironment: string;
  apiUser: string;
  apiKey: string;
  /** Ocp-Apim-Subscription-Key of each product; no disbursement key: a collection-only account. */
  collectionKey: string;
  disbursementKey?: string;
  /** The Disbursement product's own API user and key, when they are not the collection's (a provider account's credentials). */
  disbursementApiUser?: string;
  disbursementApiKey?: string;
  /** Base of X-Callback-Url; the connector appends `/{kind}/{reference}/{token}`. Unset: no callbacks. */
  callbackUrl?: string;
  /** Bound on each call (default 10 s). */
  timeoutMs?: number;
  connections?: number;
  /**
   * The base URL is Caisse's MoMo sandbox (`sandboxSettings`), whose control API lists every
   * request: the connector then has `listRequests` (reconciliation). Never set for MTN itself.
   */
  sandboxListing?: boolean;
}

const PRODUCTS = {
  collection: { token: '/collection/token/', submit: '/collection/v1_0/requesttopay', party: 'payer' },
  disbursement: { token: '/disbursement/token/', submit: '/disbursement/v1_0/transfer', party: 'payee' },
} as const;

/**
 * A token is renewed this long before MTN says it expires (at most a tenth of its life), so a
 * call never leaves with a token that dies on the way or while MTN's clock runs ahead of ours.
 */
const RENEW_BEFORE_MS = 60_000;

type TokenResult = { ok: true; token: string; fresh: boolean } | { ok: false; refused: boolean; reason: string };

/** " CODE" from an error body, when it has one, for the logged reason. */
function codeOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (checkErrorBody.Check(parsed) && parsed.code !== undefined) return String(parsed.code);
  } catch {}
  return undefined;
}

function httpReason(status: number, body: string): string {
  const code = codeOf(body);
  return code === undefined ? `HTTP ${status}` : `HTTP ${status} ${code}`;
}

/** Why a request cannot be sent, as a code, or undefined. Checked before anything leaves. */
function invalidRequest(req: PaymentRequest): string | undefined {
  if (!isReference(req.reference)) return 'INVALID_REFERENCE';
  if (!isCurrency(req.currency)) return 'INVALID_CURRENCY';
  if (typeof req.amount !== 'bigint' || req.amount <= 0n || req.amount > MAX_MINOR_UNITS) return 'INVALID_AMOUNT';
  if (!/^\+?[0-9]{5,15}$/.test(req.phoneNumber)) return 'INVALID_PHONE_NUMBER';
  if (req.externalId.length < 1 || req.externalId.length > 64) return 'INVALID_EXTERNAL_ID';
  return undefined;
}

/** Why a collection-only account cannot send money, said wherever a refund or payout is refused. */
export const NO_DISBURSEMENT_KEY =
  'this MTN MoMo account has no disbursement key: it collects only (set CAISSE_MOMO_DISBURSEMENT_KEY, an MTN Disbursement subscription, to send refunds and payouts)';

export function createMtnMomoConnector(settings: MtnMomoSettings, deps: ConnectorDeps): Connector {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const http = new ProviderHttp(settings.baseUrl, { timeoutMs, connections: settings.connections });
  const signer = callbackSigner(deps.callbackKey, MTN_MOMO);
  const basicOf = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
  const basic = (kind: ConnectorKind) =>
    kind === 'disbursement' && settings.disbursementApiUser !== undefined && settings.disbursementApiKey !== undefined
      ? basicOf(settings.disbursementApiUser, settings.disbursementApiKey)
      : basicOf(settings.apiUser, settings.apiKey);
  const subscriptionKey = (kind: ConnectorKind) => (kind === 'collection' ? settings.collectionKey : (settings.disbursementKey ?? ''));
  const collectionOnly = settings.disbursementKey === undefined;
  const tokens = new Map<ConnectorKind, { token: string; renewAt: number }>();
  const fetching = new Map<ConnectorKind, Promise<TokenResult>>();
  const log = deps.logger;

  function unknown(op: string, kind: ConnectorKind, reference: string, reason: string): { status: 'UNKNOWN'; reason: string } {
    log.warn({ provider: MTN_MOMO, op, kind, reference, reason }, 'mobile-money provider gave no usable answer');
    return { status: 'UNKNOWN', reason };
  }

  function failed(op: string, kind: ConnectorKind, reference: string, reason: string, detail?: string): { status: 'FAILED'; reason: string } {
    log.warn({ provider: MTN_MOMO, op, kind, reference, reason, detail }, 'mobile-money request refused');
    return { status: 'FAILED', reason };
  }

  async function fetchToken(kind: ConnectorKind): Promise<TokenResult> {
    // The token's life is counted from before the call: never longer than MTN's.
    const issuedAt = deps.clock.now().getTime();
    const res = await http.send('POST', PRODUCTS[kind].token, {
      authorization: basic(kind),
      'ocp-apim-subscription-key': subscriptionKey(kind),
    });
    if (!res.ok) return { ok: false, refused: false, reason: `token: ${res.reason}` };
    if (res.status === 401 || res.status === 403) {
      return { ok: false, refused: true, reason: `token: credentials refused (${httpReason(res.status, res.body)})` };
    }
    if (res.status !== 200) return { ok: false, refused: false, reason: `token: ${httpReason(res.status, res.body)}` };
    const answer = readJson(res.body, checkTokenAnswer);
    if (!answer.ok) return { ok: false, refused: false, reason: `token: ${answer.reason}` };
    const life = answer.value.expires_in * 1000;
    tokens.set(kind, { token: answer.value.access_token, renewAt: issuedAt + life - Math.min(RENEW_BEFORE_MS, life / 10) });
    log.debug({ provider: MTN_MOMO, kind, expiresIn: answer.value.expires_in }, 'mobile-money access token obtained');
    return { ok: true, token: answer.value.access_token, fresh: true };
  }

  function token(kind: ConnectorKind): Promise<TokenResult> {
    const cached = tokens.get(kind);
    if (cached !== undefined && deps.clock.now().getTime() < cached.renewAt) return Promise.resolve({ ok: true, token: cached.token, fresh: false });
    // One token request per product at a time: concurrent calls share it.
    let pending = fetching.get(kind);
    if (pending === undefined) {
      pending = fetchToken(kind).finally(() => fetching.delete(kind));
      fetching.set(kind, pending);
    }
    return pending;
  }

  /**
   * Sends with a bearer token. A 401 on a cached token (MTN revokes tokens when the API key is
   * regenerated) drops it and tries once more with a new one: a 401 means the request was not
   * taken, and the reference makes a second POST harmless anyway.
   */
  async function authorized(kind: ConnectorKind, send: (headers: Record<string, string>) => Promise<HttpResult>) {
    const headers = (bearer: string) => ({
      authorization: `Bearer ${bearer}`,
      'x-target-environment': settings.targetEnvironment,
      'ocp-apim-subscription-key': subscriptionKey(kind),
    });
    let t = await token(kind);
    if (!t.ok) return t;
    let res = await send(headers(t.token));
    if (res.ok && res.status === 401 && !t.fresh) {
      if (tokens.get(kind)?.token === t.token) tokens.delete(kind);
      t = await token(kind);
      if (!t.ok) return t;
      res = await send(headers(t.token));
    }
    return { ok: true as const, res };
  }

  async function submit(kind: ConnectorKind, req: PaymentRequest): Promise<SubmitResult> {
    const op = kind === 'collection' ? 'collect' : 'disburse';
    const invalid = invalidRequest(req);
    if (invalid !== undefined) return failed(op, kind, req.reference, invalid, 'not sent');
    // Refused before this point (refunds, payouts); never sent to MTN without its product's key.
    if (kind === 'disbursement' && collectionOnly) return failed(op, kind, req.reference, 'DISBURSEMENT_NOT_CONFIGURED', NO_DISBURSEMENT_KEY);
    const body = JSON.stringify({
      amount: formatAmount(req.amount, req.currency),
      currency: req.currency,
      externalId: req.externalId,
      [PRODUCTS[kind].party]: { partyIdType: 'MSISDN', partyId: req.phoneNumber.replace(/^\+/, '') },
      payerMessage: fitMessage(MTN_MOMO_DESCRIPTION.messages, req.payerMessage ?? '', req.externalId),
      payeeNote: fitMessage(MTN_MOMO_DESCRIPTION.messages, req.payeeNote ?? '', req.externalId),
    });
    const extra: Record<string, string> = { 'x-reference-id': req.reference };
    if (settings.callbackUrl !== undefined) {
      extra['x-callback-url'] = `${settings.callbackUrl}/${kind}/${req.reference}/${signer.sign(kind, req.reference)}`;
    }
    const out = await authorized(kind, (headers) => http.send('POST', PRODUCTS[kind].submit, { ...headers, ...extra }, body));
    if (!out.ok) return out.refused ? failed(op, kind, req.reference, 'CREDENTIALS_REFUSED', out.reason) : unknown(op, kind, req.reference, out.reason);
    const res = out.res;
    if (!res.ok) return unknown(op, kind, req.reference, res.reason);
    if (res.status === 202 || res.status === 409) {
      // 409: MTN already has this reference (an earlier try whose answer we lost): accepted.
      log.info({ provider: MTN_MOMO, op, kind, reference: req.reference, duplicate: res.status === 409 }, 'mobile-money request accepted');
      return { status: 'PENDING', duplicate: res.status === 409 };
    }
    if (res.status === 401 || res.status === 403) return failed(op, kind, req.reference, 'CREDENTIALS_REFUSED', httpReason(res.status, res.body));
    // Throttled, timed out or broken on MTN's side: whether it took the request is not known.
    if (res.status === 408 || res.status === 429 || res.status >= 500) return unknown(op, kind, req.reference, httpReason(res.status, res.body));
    if (res.status >= 400) return failed(op, kind, req.reference, codeOf(res.body) ?? `HTTP_${res.status}`, httpReason(res.status, res.body));
    return unknown(op, kind, req.reference, `unexpected ${httpReason(res.status, res.body)}`);
  }

  function fromAnswer(kind: ConnectorKind, reference: string, a: MomoStatusAnswer): StatusResult {
    if (!isCurrency(a.currency)) return unknown('status', kind, reference, `the answer's currency ${a.currency} is not one we handle`);
    const amount = decimalToMinor(a.amount, a.currency);
    if (amount === undefined) return unknown('status', kind, reference, `the answer's amount ${a.amount} is not a ${a.currency} amount`);
    const view = {
      amount,
      currency: a.currency,
      ...(a.financialTransactionId !== undefined ? { providerTransactionId: a.financialTransactionId } : {}),
      ...(a.externalId !== undefined ? { externalId: a.externalId } : {}),
    };
    if (a.status !== 'FAILED') return { status: a.status, ...view };
    const reason = typeof a.reason === 'string' ? a.reason : a.reason?.code;
    return { status: 'FAILED', ...view, ...(reason !== undefined ? { reason } : {}) };
  }

  async function status(kind: ConnectorKind, reference: string): Promise<StatusResult> {
    // Nothing else may reach the URL path; MTN would not know such a reference anyway.
    if (!isReference(reference)) return unknown('status', kind, reference, 'the reference is not a UUID v4');
    if (kind === 'disbursement' && collectionOnly) return unknown('status', kind, reference, NO_DISBURSEMENT_KEY);
    const out = await authorized(kind, (headers) => http.send('GET', `${PRODUCTS[kind].submit}/${reference}`, headers));
    if (!out.ok) return unknown('status', kind, reference, out.reason);
    const res = out.res;
    if (!res.ok) return unknown('status', kind, reference, res.reason);
    // Only MTN's own "not found" says the reference is unknown: a 404 from a wrong base URL or a
    // proxy must not invite the caller to send the payment again.
    if (res.status === 404 && codeOf(res.body) === 'RESOURCE_NOT_FOUND') return { status: 'NOT_FOUND' };
    if (res.status !== 200) return unknown('status', kind, reference, httpReason(res.status, res.body));
    const answer = readJson(res.body, checkStatusAnswer);
    if (!answer.ok) return unknown('status', kind, reference, answer.reason);
    return fromAnswer(kind, reference, answer.value);
  }

  /** The status a callback body claims, when it is readable; it decides nothing. */
  function claimedStatus(body: unknown): 'PENDING' | 'SUCCESSFUL' | 'FAILED' | undefined {
    let value = body;
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      try {
        value = JSON.parse(body.toString());
      } catch {
        return undefined;
      }
    }
    const s = (value as { status?: unknown } | null)?.status;
    return s === 'PENDING' || s === 'SUCCESSFUL' || s === 'FAILED' ? s : undefined;
  }

  /**
   * MTN signs nothing. The callback URL's last three segments are `{kind}/{reference}/{token}`;
   * the token must be ours for that reference (constant-time compare), and then the body is only
   * a hint (docs/decisions/0018-connectors.md).
   */
  async function authenticateCallback(callback: IncomingCallback): Promise<AuthenticatedCallback> {
    const refuse = (reason: string): AuthenticatedCallback => {
      log.warn({ provider: MTN_MOMO, reason }, 'mobile-money callback refused');
      return { ok: false, reason };
    };
    let segments: string[];
    try {
      segments = new URL(callback.url, 'http://callback.invalid').pathname.split('/').filter((s) => s !== '');
    } catch {
      return refuse('the callback URL cannot be read');
    }
    const [kind, reference, token] = segments.slice(-3);
    if (kind !== 'collection' && kind !== 'disbursement') return refuse('the callback URL names no product');
    if (reference === undefined || token === undefined || !isReference(reference) || !signer.verify(kind, reference, token)) {
      return refuse('the callback URL token does not match');
    }
    return { ok: true, kind, reference, claimed: claimedStatus(callback.body) };
  }

  /** Authenticated, then the result is what `status` answers now. */
  async function verifyCallback(callback: IncomingCallback): Promise<CallbackResult> {
    const authenticated = await authenticateCallback(callback);
    if (!authenticated.ok) return authenticated;
    const { kind, reference, claimed } = authenticated;
    const result = await status(kind, reference);
    if (claimed !== undefined && claimed !== result.status) {
      log.info({ provider: MTN_MOMO, kind, reference, claimed, status: result.status }, 'mobile-money callback and status differ; status wins');
    }
    return { ok: true, kind, reference, claimed, result };
  }

  /**
   * A token for each configured product (collection; disbursement when its key is set) and a
   * read of the collection account's balance: what these keys may do without moving money. The
   * balance itself is neither kept nor said; only that it could be read, and in which currency.
   */
  async function check(): Promise<CheckResult> {
    const said: string[] = [];
    const products: ConnectorKind[] = collectionOnly ? ['collection'] : ['collection', 'disbursement'];
    for (const kind of products) {
      const res = await http.send('POST', PRODUCTS[kind].token, { authorization: basic(kind), 'ocp-apim-subscription-key': subscriptionKey(kind) });
      if (!res.ok || res.status !== 200) return { ok: false, detail: [...said, `${kind} token refused: ${providerWords(res)}`].join('; ') };
      const answer = readJson(res.body, checkTokenAnswer);
      if (!answer.ok) return { ok: false, detail: [...said, `${kind} token: ${answer.reason}`].join('; ') };
      const life = answer.value.expires_in * 1000;
      tokens.set(kind, { token: answer.value.access_token, renewAt: deps.clock.now().getTime() + life - Math.min(RENEW_BEFORE_MS, life / 10) });
      said.push(`${kind} token issued`);
    }
    const out = await authorized('collection', (headers) => http.send('GET', '/collection/v1_0/account/balance', headers));
    if (!out.ok) return { ok: false, detail: [...said, `balance: ${out.reason}`].join('; ') };
    if (!out.res.ok || out.res.status !== 200) return { ok: false, detail: [...said, `balance refused: ${providerWords(out.res)}`].join('; ') };
    const balance = readJson(out.res.body, checkBalanceAnswer);
    if (!balance.ok) return { ok: false, detail: [...said, `balance: ${balance.reason}`].join('; ') };
    said.push(`collection balance read (${balance.value.currency}) in ${settings.targetEnvironment}`);
    return { ok: true, detail: said.join('; ') };
  }

  /** The sandbox's own listing (no credentials: its control API), cut to one product and period. */
  async function listRequests(kind: ConnectorKind, from: Date, to: Date): Promise<ListResult> {
    const res = await http.send('GET', '/_sandbox/requests', {});
    const fail = (reason: string): ListResult => {
      log.warn({ provider: MTN_MOMO, op: 'list', kind, reason }, 'mobile-money sandbox listing failed');
      return { ok: false, reason };
    };
    if (!res.ok) return fail(res.reason);
    if (res.status !== 200) return fail(httpReason(res.status, res.body));
    const answer = readJson(res.body, checkSandboxListing);
    if (!answer.ok) return fail(answer.reason);
    const requests = [];
    for (const r of answer.value.data) {
      const createdAt = new Date(r.createdAt);
      if (Number.isNaN(createdAt.getTime())) return fail(`the listing's createdAt ${r.createdAt} is not a time`);
      if (r.kind !== kind || createdAt < from || createdAt >= to) continue;
      requests.push({ kind, reference: r.referenceId, status: r.status, amount: r.amount, currency: r.currency, createdAt, externalId: r.externalId });
    }
    return { ok: true, requests };
  }

  return {
    provider: MTN_MOMO,
    // A token and the request, both again after a refused cached token.
    submitTimeoutMs: 4 * timeoutMs,
    collect: (req) => submit('collection', req),
    disburse: (req) => submit('disbursement', req),
    status,
    verifyCallback,
    authenticateCallback,
    check,
    ...(settings.sandboxListing === true ? { listRequests } : {}),
    ...(collectionOnly ? { lacks: { disburse: NO_DISBURSEMENT_KEY, refund: NO_DISBURSEMENT_KEY } } : {}),
    close: () => http.close(),
  };
}
