import type { IncomingMessage, ServerResponse } from 'node:http';
import { type RandomBytes, randomToken, safeEqual } from '../../../platform/crypto.ts';
import type { Checker } from '../connectors.http.ts';
import type { ConnectorKind } from '../connectors.types.ts';
import { type Hangs, headerOf, parseWith, readRequestBody, SandboxAnswer, TEST_ONLY_CREDENTIAL } from '../sandbox/sandbox.http.ts';
import { MOMO_ENVIRONMENTS, MOMO_SANDBOX_ENVIRONMENT } from './mtn-momo.environments.ts';
import { outcomeFor } from './mtn-momo.sandbox.outcomes.ts';
import type { MomoRequests } from './mtn-momo.sandbox.requests.ts';
import type { MomoSandboxOptions, SandboxFaults, Stored } from './mtn-momo.sandbox.types.ts';
import { checkRequestToPayBody, checkTransferBody, type MomoPaymentBody } from './mtn-momo.schema.ts';

/**
 * The part of MTN's MoMo Open API the sandbox speaks: access tokens, requests to pay and
 * transfers (submit, read), and the accounts' balances, with MTN's checks and refusals.
 */

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

export function readBody(req: IncomingMessage): Promise<string> {
  return readRequestBody(req, { code: 'PAYLOAD_TOO_LARGE', message: 'The body is too large.' });
}

/** A request body read with its schema; a 400 like MTN's otherwise. */
export function parseJson<T>(text: string, checker: Checker<T>): T {
  return parseWith(text, checker, (reason, json) => ({ code: json ? 'INVALID_REQUEST' : 'INVALID_JSON', message: reason }));
}

export function momoApi(ctx: {
  opts: MomoSandboxOptions;
  now: () => number;
  random: RandomBytes;
  faults: () => SandboxFaults;
  requests: MomoRequests;
  hangs: Hangs;
}) {
  const { opts, now, random, faults, requests, hangs } = ctx;
  const targetEnvironment = opts.targetEnvironment ?? 'sandbox';
  const ttlSeconds = opts.tokenTtlSeconds ?? 3600;
  const production = opts.production === true;
  /** Whether the sandbox serves this X-Target-Environment: its own, or in production every market but the sandbox. */
  const serves = (environment: string | undefined) =>
    environment !== undefined &&
    (production ? environment !== MOMO_SANDBOX_ENVIRONMENT && Object.hasOwn(MOMO_ENVIRONMENTS, environment) : environment === targetEnvironment);
  const currenciesOf = (environment: string) => MOMO_ENVIRONMENTS[environment]?.currencies ?? [];
  const tokens = new Map<string, { kind: ConnectorKind; expiresAt: number }>();
  const tokensIssued: Record<ConnectorKind, number> = { collection: 0, disbursement: 0 };

  function subscriptionOk(kind: ConnectorKind, req: IncomingMessage): boolean {
    const key = headerOf(req, 'ocp-apim-subscription-key');
    if (!key) return false;
    // Production knows no subscription of the sandbox's: test mode's placeholder is refused there.
    if (production && key === TEST_ONLY_CREDENTIAL) return false;
    const expected = kind === 'collection' ? opts.credentials?.collectionKey : opts.credentials?.disbursementKey;
    return expected === undefined || safeEqual(key, expected);
  }

  const SUBSCRIPTION_REFUSED = new SandboxAnswer(401, {
    statusCode: 401,
    message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
  });

  function issueToken(kind: ConnectorKind, req: IncomingMessage): SandboxAnswer {
    if (!subscriptionOk(kind, req)) return SUBSCRIPTION_REFUSED;
    const auth = headerOf(req, 'authorization') ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = colon > 0 ? decoded.slice(0, colon) : '';
    const key = colon > 0 ? decoded.slice(colon + 1) : '';
    const c = opts.credentials;
    const ok =
      c === undefined ? user !== '' && key !== '' && !(production && key === TEST_ONLY_CREDENTIAL) : safeEqual(user, c.apiUser) && safeEqual(key, c.apiKey);
    if (!ok) return new SandboxAnswer(401, { error: 'login_failed' });
    const t = now();
    for (const [k, v] of tokens) if (v.expiresAt <= t) tokens.delete(k);
    const token = randomToken(random, 32);
    tokens.set(token, { kind, expiresAt: t + ttlSeconds * 1000 });
    tokensIssued[kind]++;
    if (faults().badJson) return new SandboxAnswer(200, '{"access_token": "');
    if (faults().badSchema) return new SandboxAnswer(200, { token, expires: ttlSeconds });
    return new SandboxAnswer(200, { access_token: token, token_type: 'access_token', expires_in: ttlSeconds });
  }

  /** Subscription key, bearer token of this product (not expired) and target environment, as MTN checks them. */
  function authorize(kind: ConnectorKind, req: IncomingMessage): SandboxAnswer | undefined {
    if (!subscriptionOk(kind, req)) return SUBSCRIPTION_REFUSED;
    const auth = headerOf(req, 'authorization') ?? '';
    const entry = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (entry === undefined || entry.kind !== kind || entry.expiresAt <= now()) {
      return new SandboxAnswer(401, { statusCode: 401, message: 'Access denied due to invalid or expired access token.' });
    }
    if (!serves(headerOf(req, 'x-target-environment'))) {
      return new SandboxAnswer(400, { code: 'NOT_ALLOWED_TARGET_ENVIRONMENT', message: 'Access to target environment is forbidden.' });
    }
    return undefined;
  }

  async function submit(kind: ConnectorKind, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const refused = authorize(kind, req);
    if (refused) return refused;
    const referenceId = headerOf(req, 'x-reference-id') ?? '';
    if (!UUID.test(referenceId)) return new SandboxAnswer(400, { code: 'INVALID_REFERENCE_ID', message: 'X-Reference-Id must be a UUID.' });
    const body = parseJson<MomoPaymentBody>(await readBody(req), kind === 'collection' ? checkRequestToPayBody : checkTransferBody);
    const callbackUrl = headerOf(req, 'x-callback-url');
    if (callbackUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(callbackUrl)) {
      return new SandboxAnswer(400, { code: 'INVALID_CALLBACK_URL_HOST', message: 'Callback URL is not valid.' });
    }
    if (/^0+(\.0+)?$/.test(body.amount)) return new SandboxAnswer(400, { code: 'INVALID_AMOUNT', message: 'Amount must be greater than zero.' });
    const environment = headerOf(req, 'x-target-environment') as string;
    if (!currenciesOf(environment).includes(body.currency)) {
      return new SandboxAnswer(400, { code: 'INVALID_CURRENCY', message: `Currency ${body.currency} is not supported in ${environment}.` });
    }
    const key = referenceId.toLowerCase();
    if (requests.get(key) !== undefined)
      return new SandboxAnswer(409, { code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id. Creation of resource failed.' });
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
    requests.add(r);
    // 107 and 108: the request is taken, but its answer is lost (500, or none at all).
    if (r.outcome.fault === 'answer500')
      return new SandboxAnswer(500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred while processing.' });
    if (r.outcome.fault === 'hang') {
      return hangs.hold(res);
    }
    return new SandboxAnswer(202);
  }

  /**
   * GET /{product}/v1_0/account/balance: `{availableBalance, currency}` as MTN answers it. The
   * sandbox's account opens with 1 000 000 and moves with every SUCCESSFUL request of the product
   * in that environment's currency (collections add, transfers take away).
   */
  function balance(kind: ConnectorKind, req: IncomingMessage): SandboxAnswer {
    const refused = authorize(kind, req);
    if (refused) return refused;
    const currency = currenciesOf(headerOf(req, 'x-target-environment') as string)[0] ?? 'EUR';
    let available = 1_000_000;
    for (const r of requests.all()) {
      const a = requests.answerOf(r);
      if (a.status !== 'SUCCESSFUL' || a.currency !== currency) continue;
      available += (r.kind === 'collection' ? 1 : -1) * Number(a.amount);
    }
    if (faults().badJson) return new SandboxAnswer(200, '{"availableBalance": "');
    return new SandboxAnswer(200, { availableBalance: String(available), currency });
  }

  function status(kind: ConnectorKind, req: IncomingMessage, referenceId: string): SandboxAnswer {
    const refused = authorize(kind, req);
    if (refused) return refused;
    const r = requests.get(referenceId);
    if (r === undefined || r.kind !== kind) return new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
    if (r.final === undefined && (r.outcome.fault === 'answer500' || r.outcome.fault === 'hang')) requests.decide(r, now());
    if (r.outcome.fault === 'callbackAgain' && r.final !== undefined && r.callbacks.length > 0 && !r.calledBackAgain && r.callbackUrl !== undefined) {
      r.calledBackAgain = true;
      requests.callBackAgain(r, r.callbackUrl);
    }
    const answer = requests.answerOf(r);
    if (faults().badJson) return new SandboxAnswer(200, JSON.stringify(answer).slice(0, 40));
    if (faults().badSchema) return new SandboxAnswer(200, { ...answer, amount: Number(answer.amount), status: 'SUCCESSFUL' });
    return new SandboxAnswer(200, answer);
  }

  /** An API route's answer (undefined: it hangs), or MTN's 404 for a path it does not have. */
  async function serve(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const last = path.lastIndexOf('/');
    const route = ROUTES[`${method} ${path}`] ?? ROUTES[`${method} ${path.slice(0, last)}/*`];
    if (route === undefined) return new SandboxAnswer(404, { statusCode: 404, message: 'Resource not found' });
    if (faults().hang) return hangs.hold(res);
    if (faults().answer500) return new SandboxAnswer(500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred while processing.' });
    if (route.op === 'token') return issueToken(route.kind, req);
    if (route.op === 'submit') return submit(route.kind, req, res);
    if (route.op === 'balance') return balance(route.kind, req);
    return status(route.kind, req, decodeURIComponent(path.slice(last + 1)));
  }

  return {
    serve,
    /** Forgets every access token; how many there were. */
    revokeTokens(): number {
      const n = tokens.size;
      tokens.clear();
      return n;
    },
    tokensIssued: () => ({ ...tokensIssued }),
  };
}
