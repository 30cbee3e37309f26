import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Agent, request } from 'undici';
import { type Clock, SECOND, systemClock } from '../../../platform/clock.ts';
import { type RandomBytes, randomToken, safeEqual, systemRandom } from '../../../platform/crypto.ts';
import { type Checker, readJson } from '../connectors.http.ts';
import type { ConnectorKind } from '../connectors.types.ts';
import { checkRequestToPayBody, checkTransferBody, type MomoPaymentBody } from './mtn-momo.schema.ts';
import { MOMO_ENVIRONMENTS, MOMO_SANDBOX_ENVIRONMENT } from './mtn-momo.environments.ts';
import { TEST_ONLY_CREDENTIAL } from '../sandbox/sandbox.http.ts';

/**
 * The MoMo sandbox (docs/spec/money-in.md): a small HTTP server speaking the same subset of MTN's MoMo Open
 * API as the `mtn_momo` connector, for tests, CI and development. The payer's or payee's number
 * decides the outcome (docs/spec/providers.md's test-number table); time comes from an injected clock, so tests move
 * it instead of waiting. Fault switches make it misbehave on purpose, and `/_sandbox/*` routes
 * let tests (and the reconciliation command) read and bend what it holds.
 */

/** How long a payer has to approve before MTN expires the request (106); `fast`: for tests and demos. */
export const APPROVAL_WINDOW_MS = 5 * 60 * SECOND;
export const FAST_APPROVAL_WINDOW_MS = 5 * SECOND;

/**
 * What a test number does besides its outcome: `answer500` / `hang` on the request (the request
 * is stored all the same, and decided SUCCESSFUL by the first status read), `callbackAgain` (the
 * callback is sent a second time after the first status read that follows it).
 */
type NumberFault = 'answer500' | 'hang' | 'callbackAgain';

interface Outcome {
  status: 'SUCCESSFUL' | 'FAILED';
  reason?: string;
  /** After creation; null: never by time (PENDING forever, or decided by a status read). */
  afterMs: number | null;
  /** The approval window (106): 5 min, or 5 s with `fast`. */
  window?: true;
  fault?: NumberFault;
}

/**
 * The test-number table of docs/spec/providers.md, by the number's last three digits, whatever the country
 * prefix: the same for every provider's sandbox. Any other number: SUCCESSFUL after about 1 s.
 */
const SANDBOX_OUTCOMES: Record<string, Outcome> = {
  '101': { status: 'SUCCESSFUL', afterMs: 10 * SECOND },
  '102': { status: 'SUCCESSFUL', afterMs: null },
  '103': { status: 'FAILED', reason: 'PAYER_NOT_FOUND', afterMs: 0 },
  '104': { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS', afterMs: 0 },
  '105': { status: 'FAILED', reason: 'APPROVAL_REJECTED', afterMs: SECOND },
  '106': { status: 'FAILED', reason: 'EXPIRED', afterMs: APPROVAL_WINDOW_MS, window: true },
  '107': { status: 'SUCCESSFUL', afterMs: null, fault: 'answer500' },
  '108': { status: 'SUCCESSFUL', afterMs: null, fault: 'hang' },
  '109': { status: 'SUCCESSFUL', afterMs: SECOND, fault: 'callbackAgain' },
};
const DEFAULT_OUTCOME: Outcome = { status: 'SUCCESSFUL', afterMs: SECOND };

/**
 * The test numbers MTN's own sandbox documents (momodeveloper.mtn.com, "API testing"), whole
 * numbers, with the outcomes MTN's sandbox gives them, so that a test written against MTN's
 * sandbox behaves the same here: failed, rejected, timed out, and two that stay pending ("ongoing"
 * and "pending"). Every other number follows our table (docs/decisions/0079-wave-as-wave-does.md).
 */
const MTN_DOCUMENTED_NUMBERS: Readonly<Record<string, Outcome>> = {
  '46733123450': { status: 'FAILED', reason: 'INTERNAL_PROCESSING_ERROR', afterMs: 0 },
  '46733123451': { status: 'FAILED', reason: 'APPROVAL_REJECTED', afterMs: 0 },
  '46733123452': { status: 'FAILED', reason: 'EXPIRED', afterMs: 0 },
  '46733123453': { status: 'SUCCESSFUL', afterMs: null },
  '46733123454': { status: 'SUCCESSFUL', afterMs: null },
};

/** The outcome of a number (digits only): MTN's documented number, else by its last three digits. */
function sandboxOutcome(partyId: string): Outcome {
  return MTN_DOCUMENTED_NUMBERS[partyId] ?? SANDBOX_OUTCOMES[partyId.slice(-3)] ?? DEFAULT_OUTCOME;
}

/** A transfer's payee is not a payer: MTN names it PAYEE_NOT_FOUND. */
function outcomeFor(kind: ConnectorKind, partyId: string): Outcome {
  const outcome = sandboxOutcome(partyId);
  return kind === 'disbursement' && outcome.reason === 'PAYER_NOT_FOUND' ? { ...outcome, reason: 'PAYEE_NOT_FOUND' } : outcome;
}

const Faults = Type.Object(
  {
    /** Every MoMo API route answers 500 INTERNAL_PROCESSING_ERROR (nothing is stored). */
    answer500: Type.Optional(Type.Boolean()),
    /** Every MoMo API route takes the request and never answers. */
    hang: Type.Optional(Type.Boolean()),
    /** Final states are reached without sending the callback. */
    dropCallbacks: Type.Optional(Type.Boolean()),
    /** Every callback is sent twice. */
    duplicateCallbacks: Type.Optional(Type.Boolean()),
    /** Answers with a body (token, status) are cut short: not JSON. */
    badJson: Type.Optional(Type.Boolean()),
    /** Answers with a body are JSON of the wrong shape (a "SUCCESSFUL" with a numeric amount, a token without access_token). */
    badSchema: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SandboxFaults = Required<Static<typeof Faults>>;
const NO_FAULTS: SandboxFaults = { answer500: false, hang: false, dropCallbacks: false, duplicateCallbacks: false, badJson: false, badSchema: false };
/** Its fault switches by name (`caisse sandbox --faults`). */
export const SANDBOX_FAULTS = Object.keys(NO_FAULTS) as readonly (keyof SandboxFaults)[];

const Override = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCESSFUL'), Type.Literal('FAILED')])),
    amount: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$' })),
    reason: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
/** What the sandbox answers instead of the truth, for one request: disagreement on purpose. */
export type SandboxOverride = Static<typeof Override>;

const ClockMove = Type.Object({ advanceMs: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

const checkFaults = Compile(Faults);
const checkOverride = Compile(Override);
const checkClockMove = Compile(ClockMove);

export interface MomoSandboxOptions {
  port?: number;
  host?: string;
  /** Default: the system clock. Tests share a ManualClock with the connector. */
  clock?: Clock;
  random?: RandomBytes;
  /** When given, only these credentials are accepted; otherwise any non-empty ones. */
  credentials?: { apiUser: string; apiKey: string; collectionKey?: string; disbursementKey?: string };
  /** X-Target-Environment it expects (default `sandbox`; ignored with `production`). */
  targetEnvironment?: string;
  /**
   * Answers as MTN's production API does (`caisse sandbox --production`): every production market
   * (`mtncameroon`, `mtnivorycoast`, …) is taken, each in its own currency; the target environment
   * `sandbox` and the test-only credentials Caisse's test mode sends (`sandbox`) are refused.
   */
  production?: boolean;
  faults?: Partial<SandboxFaults>;
  /** Access-token life in seconds (default 3600, as MTN). */
  tokenTtlSeconds?: number;
  /** How often it looks for requests that reached their final state (default 200 ms; 0: only on tick() and on each request). */
  tickMs?: number;
  /** Bound on each callback (default 2 s, as MTN). */
  callbackTimeoutMs?: number;
  /** One line per request handled. */
  log?: (line: string) => void;
  /** The approval window (106) is 5 s instead of 5 min. */
  fast?: boolean;
}

export interface SandboxCallback {
  at: string;
  method: 'PUT' | 'POST';
  httpStatus?: number;
  error?: string;
}

/** One request as `GET /_sandbox/requests` lists it: what the sandbox answers about it now. */
export interface SandboxRequestView {
  referenceId: string;
  kind: ConnectorKind;
  partyId: string;
  amount: string;
  currency: string;
  externalId: string;
  /** What the payer's prompt (or the payee's notice) showed: the merchant's short name for a payment. */
  payerMessage: string;
  payeeNote: string;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason?: string;
  financialTransactionId?: string;
  createdAt: string;
  /** When the final state was reached (before any override). */
  finalAt?: string;
  overridden: boolean;
  callbackUrl?: string;
  callbacks: SandboxCallback[];
}

export interface MomoSandbox {
  readonly url: string;
  readonly port: number;
  faults(): SandboxFaults;
  setFaults(faults: Partial<SandboxFaults>): SandboxFaults;
  requests(): SandboxRequestView[];
  override(referenceId: string, change: SandboxOverride): SandboxRequestView | undefined;
  /**
   * Sends a request's callback now, with what a status read would answer (its override
   * included): a provider that decides after the receiver stopped waiting. False without a
   * callback URL. `tick()` waits for it.
   */
  callBack(referenceId: string): boolean;
  /** Loses a request, as a provider that dropped it would: `404 RESOURCE_NOT_FOUND` from then on. */
  forget(referenceId: string): boolean;
  /** Moves the sandbox's own time forward (on top of its clock). */
  advance(ms: number): void;
  /** Forgets every access token, as MTN does when an API key is regenerated. */
  revokeTokens(): number;
  stats(): { tokensIssued: Record<ConnectorKind, number>; requests: number };
  /** Reaches every final state that is due and waits until their callbacks are delivered. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

interface Stored {
  kind: ConnectorKind;
  referenceId: string;
  body: MomoPaymentBody;
  partyId: string;
  callbackUrl: string | undefined;
  createdAt: number;
  outcome: Outcome;
  /** 109: the second callback has left. */
  calledBackAgain?: boolean;
  final?: { status: 'SUCCESSFUL' | 'FAILED'; reason?: string; financialTransactionId?: string; at: number };
  override?: SandboxOverride & { financialTransactionId?: string };
  callbacks: SandboxCallback[];
}

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body?: unknown,
  ) {}
}

const ROUTES: Record<string, { kind: ConnectorKind; op: 'token' | 'submit' | 'status' | 'balance' }> = {
  'GET /collection/v1_0/account/balance': { kind: 'collection', op: 'balance' },
  'GET /disbursement/v1_0/account/balance': { kind: 'disbursement', op: 'balance' },
  'POST /collection/token': { kind: 'collection', op: 'token' },
  'POST /disbursement/token': { kind: 'disbursement', op: 'token' },
  'POST /collection/v1_0/requesttopay': { kind: 'collection', op: 'submit' },
  'POST /disbursement/v1_0/transfer': { kind: 'disbursement', op: 'submit' },
  'GET /collection/v1_0/requesttopay/*': { kind: 'collection', op: 'status' },
  'GET /disbursement/v1_0/transfer/*': { kind: 'disbursement', op: 'status' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_BODY = 64 * 1024;

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpAnswer(413, { code: 'PAYLOAD_TOO_LARGE', message: 'The body is too large.' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A request body read with its schema; a 400 like MTN's otherwise. */
function parseJson<T>(text: string, checker: Checker<T>): T {
  const read = readJson(text === '' ? '{}' : text, checker, 'the body');
  if (read.ok) return read.value;
  throw new HttpAnswer(400, { code: read.json ? 'INVALID_REQUEST' : 'INVALID_JSON', message: read.reason });
}

export async function startMomoSandbox(opts: MomoSandboxOptions = {}): Promise<MomoSandbox> {
  const baseClock = opts.clock ?? systemClock;
  const random = opts.random ?? systemRandom;
  const targetEnvironment = opts.targetEnvironment ?? 'sandbox';
  const ttlSeconds = opts.tokenTtlSeconds ?? 3600;
  const callbackTimeoutMs = opts.callbackTimeoutMs ?? 2000;
  const log = opts.log ?? (() => {});
  const approvalWindowMs = opts.fast ? FAST_APPROVAL_WINDOW_MS : APPROVAL_WINDOW_MS;
  const production = opts.production === true;
  /** Whether the sandbox serves this X-Target-Environment: its own, or in production every market but the sandbox. */
  const serves = (environment: string | undefined) =>
    environment !== undefined &&
    (production ? environment !== MOMO_SANDBOX_ENVIRONMENT && Object.hasOwn(MOMO_ENVIRONMENTS, environment) : environment === targetEnvironment);
  const currenciesOf = (environment: string) => MOMO_ENVIRONMENTS[environment]?.currencies ?? [];
  let offset = 0;
  const now = () => baseClock.now().getTime() + offset;
  let faults: SandboxFaults = { ...NO_FAULTS, ...opts.faults };
  const store = new Map<string, Stored>();
  const pending = new Set<Stored>();
  const tokens = new Map<string, { kind: ConnectorKind; expiresAt: number }>();
  const tokensIssued: Record<ConnectorKind, number> = { collection: 0, disbursement: 0 };
  const deliveries = new Set<Promise<void>>();
  const hanging = new Set<ServerResponse>();
  const agent = new Agent({ keepAliveTimeout: 1000 });

  const financialTransactionId = () => (random(8).readBigUInt64BE() % 10_000_000_000n).toString().padStart(10, '0');

  /** What MTN's GET answers for a request right now; the callback body is the same. */
  function answerOf(r: Stored) {
    const status = r.override?.status ?? r.final?.status ?? 'PENDING';
    const reason = r.override?.reason ?? (r.override?.status === undefined ? r.final?.reason : undefined);
    const ftid = r.override?.financialTransactionId ?? r.final?.financialTransactionId;
    const { amount, currency, externalId, payerMessage, payeeNote } = r.body;
    const party = 'payer' in r.body ? { payer: r.body.payer } : { payee: r.body.payee };
    return {
      amount: r.override?.amount ?? amount,
      currency,
      externalId,
      ...party,
      payerMessage,
      payeeNote,
      status,
      ...(status === 'FAILED' && reason !== undefined ? { reason } : {}),
      ...(status === 'SUCCESSFUL' && ftid !== undefined ? { financialTransactionId: ftid } : {}),
    };
  }

  function view(r: Stored): SandboxRequestView {
    const a = answerOf(r);
    return {
      referenceId: r.referenceId,
      kind: r.kind,
      partyId: r.partyId,
      amount: a.amount,
      currency: a.currency,
      externalId: a.externalId,
      payerMessage: a.payerMessage,
      payeeNote: a.payeeNote,
      status: a.status,
      ...('reason' in a ? { reason: a.reason } : {}),
      ...('financialTransactionId' in a ? { financialTransactionId: a.financialTransactionId } : {}),
      createdAt: new Date(r.createdAt).toISOString(),
      ...(r.final ? { finalAt: new Date(r.final.at).toISOString() } : {}),
      overridden: r.override !== undefined,
      ...(r.callbackUrl !== undefined ? { callbackUrl: r.callbackUrl } : {}),
      callbacks: r.callbacks,
    };
  }

  /** MTN sends requesttopay callbacks with PUT and transfer callbacks with POST; receivers must take both. */
  async function deliver(r: Stored, url: string): Promise<void> {
    const method = r.kind === 'collection' ? 'PUT' : 'POST';
    const entry: SandboxCallback = { at: new Date(now()).toISOString(), method };
    r.callbacks.push(entry);
    try {
      const res = await request(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(answerOf(r)),
        dispatcher: agent,
        signal: AbortSignal.timeout(callbackTimeoutMs),
      });
      await res.body.dump();
      entry.httpStatus = res.statusCode;
    } catch (err) {
      // Like MTN, no retry: the receiver learns the outcome by polling instead.
      entry.error = (err as { code?: string; name?: string }).code ?? (err as Error).name;
    }
    log(`callback ${method} ${r.referenceId} → ${entry.httpStatus ?? entry.error}`);
  }

  function track(p: Promise<void>) {
    deliveries.add(p);
    void p.finally(() => deliveries.delete(p));
  }

  function decide(r: Stored, t: number): void {
    pending.delete(r);
    r.final = {
      status: r.outcome.status,
      at: t,
      ...(r.outcome.reason !== undefined ? { reason: r.outcome.reason } : {}),
      ...(r.outcome.status === 'SUCCESSFUL' ? { financialTransactionId: financialTransactionId() } : {}),
    };
  }

  /** Every request whose time has come reaches its final state, and its callback leaves. */
  function settle(): void {
    const t = now();
    for (const r of pending) {
      const after = r.outcome.window ? approvalWindowMs : r.outcome.afterMs;
      if (after === null || t < r.createdAt + after) continue;
      decide(r, t);
      const url = r.callbackUrl;
      if (url === undefined || faults.dropCallbacks) continue;
      const twice = faults.duplicateCallbacks;
      track(deliver(r, url).then(() => (twice ? deliver(r, url) : undefined)));
    }
  }

  function subscriptionOk(kind: ConnectorKind, req: IncomingMessage): boolean {
    const key = header(req, 'ocp-apim-subscription-key');
    if (!key) return false;
    // Production knows no subscription of the sandbox's: test mode's placeholder is refused there.
    if (production && key === TEST_ONLY_CREDENTIAL) return false;
    const expected = kind === 'collection' ? opts.credentials?.collectionKey : opts.credentials?.disbursementKey;
    return expected === undefined || safeEqual(key, expected);
  }

  const SUBSCRIPTION_REFUSED = new HttpAnswer(401, {
    statusCode: 401,
    message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
  });

  function issueToken(kind: ConnectorKind, req: IncomingMessage): HttpAnswer {
    if (!subscriptionOk(kind, req)) return SUBSCRIPTION_REFUSED;
    const auth = header(req, 'authorization') ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = colon > 0 ? decoded.slice(0, colon) : '';
    const key = colon > 0 ? decoded.slice(colon + 1) : '';
    const c = opts.credentials;
    const ok =
      c === undefined ? user !== '' && key !== '' && !(production && key === TEST_ONLY_CREDENTIAL) : safeEqual(user, c.apiUser) && safeEqual(key, c.apiKey);
    if (!ok) return new HttpAnswer(401, { error: 'login_failed' });
    const t = now();
    for (const [k, v] of tokens) if (v.expiresAt <= t) tokens.delete(k);
    const token = randomToken(random, 32);
    tokens.set(token, { kind, expiresAt: t + ttlSeconds * 1000 });
    tokensIssued[kind]++;
    if (faults.badJson) return new HttpAnswer(200, '{"access_token": "');
    if (faults.badSchema) return new HttpAnswer(200, { token, expires: ttlSeconds });
    return new HttpAnswer(200, { access_token: token, token_type: 'access_token', expires_in: ttlSeconds });
  }

  /** Subscription key, bearer token of this product (not expired) and target environment, as MTN checks them. */
  function authorize(kind: ConnectorKind, req: IncomingMessage): HttpAnswer | undefined {
    if (!subscriptionOk(kind, req)) return SUBSCRIPTION_REFUSED;
    const auth = header(req, 'authorization') ?? '';
    const entry = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (entry === undefined || entry.kind !== kind || entry.expiresAt <= now()) {
      return new HttpAnswer(401, { statusCode: 401, message: 'Access denied due to invalid or expired access token.' });
    }
    if (!serves(header(req, 'x-target-environment'))) {
      return new HttpAnswer(400, { code: 'NOT_ALLOWED_TARGET_ENVIRONMENT', message: 'Access to target environment is forbidden.' });
    }
    return undefined;
  }

  async function submit(kind: ConnectorKind, req: IncomingMessage, res: ServerResponse): Promise<HttpAnswer | undefined> {
    const refused = authorize(kind, req);
    if (refused) return refused;
    const referenceId = header(req, 'x-reference-id') ?? '';
    if (!UUID.test(referenceId)) return new HttpAnswer(400, { code: 'INVALID_REFERENCE_ID', message: 'X-Reference-Id must be a UUID.' });
    const body = parseJson<MomoPaymentBody>(await readBody(req), kind === 'collection' ? checkRequestToPayBody : checkTransferBody);
    const callbackUrl = header(req, 'x-callback-url');
    if (callbackUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(callbackUrl)) {
      return new HttpAnswer(400, { code: 'INVALID_CALLBACK_URL_HOST', message: 'Callback URL is not valid.' });
    }
    if (/^0+(\.0+)?$/.test(body.amount)) return new HttpAnswer(400, { code: 'INVALID_AMOUNT', message: 'Amount must be greater than zero.' });
    const environment = header(req, 'x-target-environment') as string;
    if (!currenciesOf(environment).includes(body.currency)) {
      return new HttpAnswer(400, { code: 'INVALID_CURRENCY', message: `Currency ${body.currency} is not supported in ${environment}.` });
    }
    const key = referenceId.toLowerCase();
    if (store.has(key)) return new HttpAnswer(409, { code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id. Creation of resource failed.' });
    const partyId = 'payer' in body ? body.payer.partyId : body.payee.partyId;
    const r: Stored = {
      kind,
      referenceId: key,
      body,
      partyId,
      callbackUrl,
      createdAt: now(),
      outcome: outcomeFor(kind, partyId),
      callbacks: [],
    };
    store.set(key, r);
    pending.add(r);
    // 107 and 108: the request is taken, but its answer is lost (500, or none at all).
    if (r.outcome.fault === 'answer500')
      return new HttpAnswer(500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred while processing.' });
    if (r.outcome.fault === 'hang') {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return undefined;
    }
    return new HttpAnswer(202);
  }

  /**
   * GET /{product}/v1_0/account/balance: `{availableBalance, currency}` as MTN answers it. The
   * sandbox's account opens with 1 000 000 and moves with every SUCCESSFUL request of the product
   * in that environment's currency (collections add, transfers take away).
   */
  function balance(kind: ConnectorKind, req: IncomingMessage): HttpAnswer {
    const refused = authorize(kind, req);
    if (refused) return refused;
    const currency = currenciesOf(header(req, 'x-target-environment') as string)[0] ?? 'EUR';
    let available = 1_000_000;
    for (const r of store.values()) {
      const a = answerOf(r);
      if (a.status !== 'SUCCESSFUL' || a.currency !== currency) continue;
      available += (r.kind === 'collection' ? 1 : -1) * Number(a.amount);
    }
    if (faults.badJson) return new HttpAnswer(200, '{"availableBalance": "');
    return new HttpAnswer(200, { availableBalance: String(available), currency });
  }

  function status(kind: ConnectorKind, req: IncomingMessage, referenceId: string): HttpAnswer {
    const refused = authorize(kind, req);
    if (refused) return refused;
    const r = store.get(referenceId.toLowerCase());
    if (r === undefined || r.kind !== kind) return new HttpAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
    if (r.final === undefined && (r.outcome.fault === 'answer500' || r.outcome.fault === 'hang')) decide(r, now());
    if (r.outcome.fault === 'callbackAgain' && r.final !== undefined && r.callbacks.length > 0 && !r.calledBackAgain && r.callbackUrl !== undefined) {
      r.calledBackAgain = true;
      track(deliver(r, r.callbackUrl));
    }
    const answer = answerOf(r);
    if (faults.badJson) return new HttpAnswer(200, JSON.stringify(answer).slice(0, 40));
    if (faults.badSchema) return new HttpAnswer(200, { ...answer, amount: Number(answer.amount), status: 'SUCCESSFUL' });
    return new HttpAnswer(200, answer);
  }

  function overrideOne(referenceId: string, change: SandboxOverride): SandboxRequestView | undefined {
    const r = store.get(referenceId.toLowerCase());
    if (r === undefined) return undefined;
    const merged = { ...r.override, ...change };
    if (merged.status === 'SUCCESSFUL' && r.final?.financialTransactionId === undefined && merged.financialTransactionId === undefined) {
      merged.financialTransactionId = financialTransactionId();
    }
    r.override = merged;
    return view(r);
  }

  function callBackOne(referenceId: string): boolean {
    const r = store.get(referenceId.toLowerCase());
    if (r?.callbackUrl === undefined) return false;
    track(deliver(r, r.callbackUrl));
    return true;
  }

  function forgetOne(referenceId: string): boolean {
    const r = store.get(referenceId.toLowerCase());
    if (r === undefined) return false;
    store.delete(r.referenceId);
    pending.delete(r);
    return true;
  }

  async function control(method: string, path: string, req: IncomingMessage): Promise<HttpAnswer> {
    if (method === 'GET' && path === '/_sandbox/faults') return new HttpAnswer(200, faults);
    if (method === 'POST' && path === '/_sandbox/faults') return new HttpAnswer(200, api.setFaults(parseJson(await readBody(req), checkFaults)));
    if (method === 'GET' && path === '/_sandbox/requests') return new HttpAnswer(200, { data: api.requests() });
    if (method === 'GET' && path === '/_sandbox/stats') return new HttpAnswer(200, api.stats());
    if (method === 'POST' && path === '/_sandbox/tick') {
      await api.tick();
      return new HttpAnswer(200, { ok: true });
    }
    if (method === 'POST' && path === '/_sandbox/clock') {
      api.advance(parseJson(await readBody(req), checkClockMove).advanceMs);
      return new HttpAnswer(200, { now: new Date(now()).toISOString() });
    }
    if (method === 'POST' && path === '/_sandbox/tokens/revoke') return new HttpAnswer(200, { revoked: api.revokeTokens() });
    const m = /^\/_sandbox\/requests\/([^/]+)(\/override)?$/.exec(path);
    if (m && method === 'GET' && m[2] === undefined) {
      const r = store.get((m[1] as string).toLowerCase());
      return r ? new HttpAnswer(200, view(r)) : new HttpAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such request.' });
    }
    if (m && method === 'DELETE' && m[2] === undefined) {
      return forgetOne(m[1] as string) ? new HttpAnswer(204) : new HttpAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such request.' });
    }
    if (m && method === 'POST' && m[2] !== undefined) {
      const v = overrideOne(m[1] as string, parseJson(await readBody(req), checkOverride));
      return v ? new HttpAnswer(200, v) : new HttpAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such request.' });
    }
    return new HttpAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such sandbox route.' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<HttpAnswer | undefined> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname.replace(/\/+$/, '') || '/';
    settle();
    if (path.startsWith('/_sandbox/')) return control(method, path, req);
    const last = path.lastIndexOf('/');
    const route = ROUTES[`${method} ${path}`] ?? ROUTES[`${method} ${path.slice(0, last)}/*`];
    if (route === undefined) return new HttpAnswer(404, { statusCode: 404, message: 'Resource not found' });
    if (faults.hang) {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return undefined;
    }
    if (faults.answer500) return new HttpAnswer(500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred while processing.' });
    if (route.op === 'token') return issueToken(route.kind, req);
    if (route.op === 'submit') return submit(route.kind, req, res);
    if (route.op === 'balance') return balance(route.kind, req);
    return status(route.kind, req, decodeURIComponent(path.slice(last + 1)));
  }

  const server = createServer((req, res) => {
    handle(req, res)
      .catch((err: unknown) => {
        if (err instanceof HttpAnswer) return err;
        return new HttpAnswer(500, { code: 'INTERNAL_PROCESSING_ERROR', message: (err as Error).message });
      })
      .then((answer) => {
        if (answer === undefined) return;
        const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        // Numbers that fail at once do so right after the 202, callback included.
        res.once('finish', settle);
        res.writeHead(answer.status, text === '' ? {} : { 'content-type': 'application/json' });
        res.end(text);
        log(`${req.method} ${req.url} ${answer.status}`);
      });
  });

  const ticker = (opts.tickMs ?? 200) > 0 ? setInterval(settle, opts.tickMs ?? 200) : undefined;
  ticker?.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const api: MomoSandbox = {
    url,
    port,
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    requests: () => [...store.values()].sort((a, b) => a.createdAt - b.createdAt).map(view),
    override: overrideOne,
    callBack: callBackOne,
    forget: forgetOne,
    advance(ms) {
      offset += ms;
    },
    revokeTokens() {
      const n = tokens.size;
      tokens.clear();
      return n;
    },
    stats: () => ({ tokensIssued: { ...tokensIssued }, requests: store.size }),
    async tick() {
      settle();
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
    close() {
      closing ??= (async () => {
        if (ticker) clearInterval(ticker);
        for (const res of hanging) res.destroy();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await Promise.allSettled([...deliveries]);
        await agent.close();
      })();
      return closing;
    },
  };
  return api;
}
