import { CaisseClient, type PublicPaymentIntent, type Topup } from '@caisse/browser';

/** The MoMo sandbox's numbers: rejected on the phone, and never answered. */
export const REJECTED_NUMBER = '+237650000105';
export const SILENT_NUMBER = '+237650000102';

/**
 * A small in-memory stand-in for the gateway's customer routes, behind a fetch: enough state
 * (password, code, token, wallet, top-ups, intent status) for the checkout to walk every branch.
 * A top-up settles on its `topupReadsToSettle`-th read, as the MoMo sandbox decides by number.
 */
/** The methods of a gateway that offers mobile money (docs/spec/mobile-money-payments.md): MTN by prompt, Orange by redirect, and the wallet. */
export const METHODS = [
  {
    type: 'mobile_money',
    provider: 'mtn_momo',
    name: 'MTN MoMo',
    approval: 'phone_prompt',
    available: true,
    minAmount: '100',
    maxAmount: '1000000',
    prefixes: ['650', '651', '652', '653', '654', '67', '680', '681', '682', '683'],
    ussd: '*126#',
  },
  {
    type: 'mobile_money',
    provider: 'orange_money',
    name: 'Orange Money',
    approval: 'redirect',
    available: true,
    minAmount: '100',
    maxAmount: '1000000',
    prefixes: ['655', '656', '657', '658', '659', '69'],
    ussd: '#150#',
  },
  { type: 'wallet' },
];

/** The card method as a gateway with a card route lists it. */
export const CARD_METHOD = { type: 'card', name: 'Visa / Mastercard', approval: 'redirect', available: true, minAmount: '100', maxAmount: '1500000' };

export function fakeGateway(
  opts: {
    status?: PublicPaymentIntent['status'];
    balance?: number;
    expiresInMs?: number;
    language?: 'fr' | 'en';
    mobileMoney?: boolean;
    /** Answers a read with `status` and `wait` as a server that holds reads does (`Caisse-Wait: held`; here at once). */
    longPoll?: boolean;
    /** The methods `GET /payment-methods` lists (default METHODS) when `mobileMoney`. */
    methods?: readonly Record<string, unknown>[];
  } = {},
) {
  const methods = opts.methods ?? METHODS;
  const state = {
    intent: {
      id: 'pi_1',
      object: 'payment_intent',
      amount: '5000',
      currency: 'XAF',
      description: 'Order 42: one basket of mangoes',
      status: opts.status ?? 'PENDING',
      expiresAt: new Date(Date.now() + (opts.expiresInMs ?? 30 * 60_000)).toISOString(),
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      livemode: false,
      amountRefunded: '0',
      lastError: null as null | { code: string; message: string },
      attempts: 0,
    } satisfies PublicPaymentIntent as PublicPaymentIntent,
    balance: opts.balance ?? 10_000,
    password: 'correct horse',
    /** Goes up when the password is set: every access token issued before is refused. */
    tokenVersion: 1,
    resetCode: '654321',
    resetsSent: 0,
    wrongResetCodes: 0,
    code: '123456',
    codesSent: 0,
    wrongCodes: 0,
    token: undefined as string | undefined,
    requests: [] as string[],
    topups: [] as (Topup & { reads: number })[],
    /** The Idempotency-Key of each POST /wallet/topups. */
    topupKeys: [] as string[],
    topupReadsToSettle: 1,
    /** Makes the next request to this path fail without an answer. */
    dropNext: new Set<string>(),
    /** Makes the next request to this path answer 500. */
    failNext: new Set<string>(),
    /** Direct mobile-money attempts: a number ending in 105 is declined, any other approved, on the `attemptReadsToSettle`-th read (the first read is the waiting's own, right after the charge). */
    mmAttempts: [] as {
      id: string;
      provider: string;
      status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
      failureCode?: string;
      createdAt: string;
      phoneNumber: string;
      reads: number;
    }[],
    attemptReadsToSettle: 2,
    /** The query of each session-token read (`?status=PROCESSING&wait=25` for a long-poll). */
    sessionReads: [] as string[],
    /** Each direct charge: its session token header, Idempotency-Key and body. */
    mmCharges: [] as { sessionToken: string | undefined; key: string | undefined; body: unknown }[],
    /** Makes every request to this path answer 429 with this code and Retry-After (seconds). */
    tooMany: new Map<string, { code: string; retryAfter: number }>(),
  };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const jwt = () => `jwt-${state.tokenVersion}`;
  const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) => json(status, { code, status, detail, ...extra });

  const attemptsView = () => state.mmAttempts.map(({ phoneNumber: _p, reads: _r, ...a }) => a);
  /** The intent as the session-token read shows it; a PENDING attempt is settled on its N-th read. */
  const readWithAttempts = () => {
    const attempt = state.mmAttempts.find((a) => a.status === 'PENDING');
    if (attempt && ++attempt.reads >= state.attemptReadsToSettle) {
      if (attempt.phoneNumber.endsWith('105')) {
        attempt.status = 'FAILED';
        attempt.failureCode = 'approval_rejected';
        state.intent = { ...state.intent, status: 'PENDING', lastError: { code: 'approval_rejected', message: 'The payer declined' } };
      } else {
        attempt.status = 'SUCCEEDED';
        state.intent = { ...state.intent, status: 'SUCCEEDED', lastError: null };
      }
    }
    // A redirect provider's page still open: the session read shows it, as the gateway's does.
    const open = state.mmAttempts.find((a) => a.status === 'PENDING' && a.provider === 'orange_money');
    return { ...state.intent, attempts: attemptsView(), ...(open ? { nextAction: { type: 'redirect', url: 'https://sandbox.example/orange/pay/1' } } : {}) };
  };
  const directCharge = (
    body: { intentionId: string; paymentMethod: { type?: string; provider: string; phoneNumber: string; cardholder?: Record<string, string> } },
    headers: Record<string, string>,
  ) => {
    state.mmCharges.push({ sessionToken: headers['x-session-token'], key: headers['idempotency-key'], body });
    if (headers['x-session-token'] !== 'ps_good') return problem(401, 'session_token_invalid', 'Wrong session token');
    if (body.paymentMethod.type === 'card') {
      // As the gateway does: a card holder's field it refuses is named by `param`; else the card page.
      if (!methods.some((m) => m.type === 'card')) return problem(400, 'payment_method_unsupported', 'No card here', { param: 'paymentMethod.type' });
      if (body.paymentMethod.cardholder?.email?.endsWith('.invalid'))
        return problem(400, 'cardholder_invalid', 'email must match format "email"', { param: 'paymentMethod.cardholder.email' });
      state.intent = { ...state.intent, status: 'PROCESSING' };
      return json(202, { ...state.intent, attempts: attemptsView(), nextAction: { type: 'redirect', url: 'https://sandbox.example/card/pay/1' } });
    }
    const { provider, phoneNumber } = body.paymentMethod;
    if (!methods.some((m) => m.type === 'mobile_money' && m.provider === provider))
      return problem(400, 'provider_unsupported', 'Unknown provider', { param: 'paymentMethod.provider' });
    if (!/^\+[1-9]\d{6,14}$/.test(phoneNumber))
      return problem(400, 'phone_invalid', 'phoneNumber must be in E.164 format', { param: 'paymentMethod.phoneNumber' });
    // As the gateway does: a page left open at a redirect provider is closed first, its attempt failed.
    for (const open of state.mmAttempts.filter((a) => a.status === 'PENDING' && a.provider === 'orange_money')) {
      open.status = 'FAILED';
      open.failureCode = 'approval_rejected';
      state.intent = { ...state.intent, status: 'PENDING' };
    }
    if (state.mmAttempts.some((a) => a.status === 'PENDING')) return problem(409, 'attempt_in_progress', 'An attempt is in flight');
    if (state.intent.status !== 'PENDING') return problem(409, 'intent_state_invalid', 'Not payable');
    const createdAt = new Date().toISOString();
    state.mmAttempts.push({ id: `att_${state.mmAttempts.length + 1}`, provider, status: 'PENDING', createdAt, phoneNumber, reads: 0 });
    state.intent = { ...state.intent, status: 'PROCESSING' };
    const nextAction =
      provider === 'orange_money'
        ? { type: 'redirect', url: 'https://sandbox.example/orange/pay/1' }
        : {
            type: 'approve_on_phone',
            provider,
            phoneNumber,
            expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
            message: 'Approve on your phone',
            ussd: '*126#',
          };
    return json(202, { ...state.intent, attempts: attemptsView(), nextAction });
  };

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const path = url.pathname;
    state.requests.push(`${init?.method ?? 'GET'} ${path}`);
    if (state.dropNext.delete(path)) throw new TypeError('Failed to fetch');
    if (state.failNext.delete(path)) return problem(500, 'internal_error', 'Something went wrong on our side');
    const limit = state.tooMany.get(path);
    if (limit) {
      return new Response(JSON.stringify({ code: limit.code, status: 429, detail: 'Too many attempts' }), {
        status: 429,
        headers: { 'content-type': 'application/problem+json', 'retry-after': String(limit.retryAfter) },
      });
    }
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const expired = state.intent.status === 'PENDING' && Date.parse(state.intent.expiresAt) <= Date.now();
    if (expired) state.intent = { ...state.intent, status: 'EXPIRED' };
    if (path.startsWith('/gateway/sessions/')) {
      if (!path.endsWith('/ps_good')) return problem(404, 'not_found', 'No such payment');
      state.sessionReads.push(url.search);
      const answer = json(200, opts.mobileMoney ? readWithAttempts() : state.intent);
      if (opts.longPoll && url.searchParams.has('status') && url.searchParams.has('wait')) answer.headers.set('caisse-wait', 'held');
      return answer;
    }
    if (opts.mobileMoney && path === '/payment-methods') {
      return url.searchParams.get('sessionToken') === 'ps_good' ? json(200, { data: methods }) : problem(404, 'not_found', 'No such payment');
    }
    if (opts.mobileMoney && path === '/charge' && body.paymentMethod) return directCharge(body, headers);
    if (path === '/auth/web') {
      if (body.password !== state.password) return problem(401, 'invalid_credentials', 'Invalid phone number or password');
      return json(200, {
        id: 'usr_1',
        token: jwt(),
        phoneNumber: body.phoneNumber,
        roles: ['USER'],
        expiresAt: new Date(Date.now() + 900_000).toISOString(),
        language: opts.language ?? null,
      });
    }
    // The same answer for any possible number: nothing tells whether it has an account.
    if (path === '/auth/password-reset') {
      if (!/^\+[1-9]\d{6,14}$/.test(body.phoneNumber)) return problem(400, 'phone_invalid', 'phoneNumber must be in E.164 format');
      state.resetsSent++;
      state.wrongResetCodes = 0;
      return json(202, { object: 'password_reset', phoneNumber: body.phoneNumber, channel: 'sms', expiresAt: new Date(Date.now() + 600_000).toISOString() });
    }
    if (path === '/auth/password-reset/confirm') {
      if (typeof body.newPassword !== 'string' || body.newPassword.length < 8 || body.newPassword === 'password') {
        return problem(400, 'password_weak', 'The new password is too weak', { param: 'newPassword' });
      }
      if (state.wrongResetCodes >= 5) return problem(429, 'otp_attempts_exceeded', 'Too many wrong codes');
      if (body.code !== state.resetCode || state.resetsSent === 0) {
        state.wrongResetCodes++;
        return problem(400, 'otp_incorrect', 'Incorrect code', { attemptsRemaining: 5 - state.wrongResetCodes });
      }
      state.password = body.newPassword;
      state.tokenVersion++;
      state.resetsSent = 0;
      return new Response(null, { status: 204 });
    }
    if (headers.authorization === undefined) return problem(401, 'access_token_missing', 'Sign in first');
    if (headers.authorization !== `Bearer ${jwt()}`) return problem(401, 'access_token_invalid', 'The access token is not valid or has expired');
    if (path === '/wallet') {
      return json(200, { object: 'wallet', userId: 'usr_1', livemode: false, balances: [{ currency: 'XAF', amount: String(state.balance) }], movements: [] });
    }
    if (path === '/wallet/topups' && init?.method === 'POST') {
      if (!/^\+[1-9]\d{6,14}$/.test(body.phoneNumber)) return problem(400, 'phone_invalid', 'phoneNumber must be in E.164 format', { param: 'phoneNumber' });
      if (!methods.some((m) => m.type === 'mobile_money' && m.approval === 'phone_prompt' && m.provider === body.provider))
        return problem(400, 'provider_unsupported', 'Unknown provider');
      state.topupKeys.push(headers['idempotency-key'] ?? '');
      const now = new Date().toISOString();
      const topup = {
        id: `top_${state.topups.length + 1}`,
        object: 'topup' as const,
        amount: String(body.amount),
        currency: String(body.currency),
        provider: String(body.provider),
        connector: String(body.provider),
        providerAccount: `pac_sandbox_${String(body.provider)}`,
        phoneNumber: String(body.phoneNumber),
        status: 'PENDING' as Topup['status'],
        failureReason: null as string | null,
        livemode: false,
        createdAt: now,
        updatedAt: now,
        completedAt: null as string | null,
        reads: 0,
      };
      state.topups.push(topup);
      const { reads: _reads, ...view } = topup;
      return json(202, view);
    }
    if (path.startsWith('/wallet/topups/')) {
      const topup = state.topups.find((t) => t.id === path.slice('/wallet/topups/'.length));
      if (!topup) return problem(404, 'not_found', 'No such top-up');
      topup.reads++;
      if (topup.status === 'PENDING' && topup.reads >= state.topupReadsToSettle && topup.phoneNumber !== SILENT_NUMBER) {
        const completedAt = new Date().toISOString();
        if (topup.phoneNumber === REJECTED_NUMBER)
          Object.assign(topup, { status: 'FAILED', failureReason: 'APPROVAL_REJECTED', completedAt, updatedAt: completedAt });
        else {
          Object.assign(topup, { status: 'SUCCEEDED', completedAt, updatedAt: completedAt });
          state.balance += Number(topup.amount);
        }
      }
      const { reads: _reads, ...view } = topup;
      return json(200, view);
    }
    if (path === '/otp/init') {
      state.codesSent++;
      state.wrongCodes = 0;
      return json(200, {
        object: 'otp_challenge',
        userId: 'usr_1',
        channel: body.channel,
        destination: '+237 6•• •• ••01',
        intentionId: body.intentionId ?? null,
        expiresAt: new Date(Date.now() + 300_000).toISOString(),
        resendAvailableAt: new Date(Date.now() + 30_000).toISOString(),
      });
    }
    if (path === '/otp/verify') {
      if (body.otp !== state.code) {
        state.wrongCodes++;
        return problem(400, 'otp_incorrect', 'Incorrect code', { attemptsRemaining: 5 - state.wrongCodes });
      }
      state.token = `otpa_${state.codesSent}`;
      return json(200, {
        object: 'otp_authorization',
        authorizationToken: state.token,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
        userId: 'usr_1',
        intentionId: 'pi_1',
      });
    }
    if (path === '/charge') {
      if (!headers['x-otp-token'] || headers['x-otp-token'] !== state.token) return problem(401, 'otp_token_invalid', 'Invalid token');
      state.token = undefined;
      if (state.intent.status === 'EXPIRED') return problem(409, 'intent_expired', 'The intent has expired');
      if (state.intent.status === 'PROCESSING') return problem(409, 'attempt_in_progress', 'An attempt is in flight');
      if (state.intent.status !== 'PENDING') return problem(409, 'intent_state_invalid', 'Not payable');
      // The wallet flow's count (a direct payment's reads list attempts instead).
      const walletAttempts = typeof state.intent.attempts === 'number' ? state.intent.attempts : 0;
      if (state.balance < Number(state.intent.amount)) {
        const attempts = walletAttempts + 1;
        state.intent = {
          ...state.intent,
          attempts,
          status: attempts >= 3 ? 'FAILED' : 'PENDING',
          lastError: { code: 'insufficient_funds', message: 'Insufficient funds' },
        };
        return problem(402, 'insufficient_funds', 'Insufficient funds in the wallet', { intentStatus: state.intent.status, attempts });
      }
      state.balance -= Number(state.intent.amount);
      state.intent = { ...state.intent, status: 'SUCCEEDED', attempts: walletAttempts + 1 };
      return json(200, state.intent);
    }
    return problem(404, 'not_found', `No route ${path}`);
  };
  const client = new CaisseClient({ apiKey: 'pk_test_abcdefghijklmnopqrstuvwx', baseUrl: 'http://localhost:8080', fetch, maxRetries: 0 });
  return { state, client, fetch };
}
