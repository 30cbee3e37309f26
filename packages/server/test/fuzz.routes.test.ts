import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/platform/http/security.ts';
import { allows, API_RESOURCES, type KeyPermissions } from '../src/platform/tenancy.ts';
import { type Creds, createMerchant, createTestContext, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Property-based tests over every registered route (the list grows as modules land): random
 * methods, paths, query strings, headers and bodies, with good and bad credentials. Whatever is
 * sent, the answer is never a 5xx, always carries a request id, and every answer that is not a
 * success is an RFC 9457 problem with a code and the request id.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
let routes: RegisteredRoute[];
let credentialSets: Creds[];
/** The restricted keys' credentials (test mode) and their permissions. */
const restrictedSets = new Map<Creds, KeyPermissions>();
/** Ids of real objects, so random bodies sometimes name something that exists. */
const known: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Fuzz');
  other = await createMerchant(ctx, 'Other');
  routes = [...ctx.app.registeredRoutes];
  credentialSets = [
    {},
    { apiKey: m.apiKey },
    { apiKey: m.apiKey, secretKey: m.secretKey },
    { apiKey: m.live.apiKey, secretKey: m.live.secretKey },
    { apiKey: m.apiKey, secretKey: other.secretKey },
    { apiKey: m.apiKey, secretKey: m.live.secretKey },
    { apiKey: 'pk_test_0000000000000000000000000000000' },
    { apiKey: m.secretKey },
    { apiKey: m.apiKey, token: 'eyJhbGciOiJFZERTQSIsImtpZCI6Im5vcGUifQ.eyJzdWIiOiJ1c3JfeCJ9.c2lnbmF0dXJl' },
    { apiKey: m.apiKey, token: 'not a token' },
  ];
  // Restricted keys of each permission set: all read, all write, and each resource alone at write
  // (test mode), and a live one; the routes they may not call answer 403 permission_denied.
  const sets = [API_RESOURCES.map((r) => `${r}:read`).join(','), API_RESOURCES.map((r) => `${r}:write`).join(','), ...API_RESOURCES.map((r) => `${r}:write`)];
  for (const permissions of sets) {
    const key = await ctx.services.merchants.createKey(m.merchantId, { kind: 'restricted', mode: 'test', name: permissions, permissions });
    const creds = { apiKey: m.apiKey, secretKey: key.secret };
    credentialSets.push(creds);
    restrictedSets.set(creds, key.permissions ?? {});
  }
  const live = await ctx.services.merchants.createKey(m.merchantId, {
    kind: 'restricted',
    mode: 'live',
    name: 'live',
    permissions: 'payments:read,balance:read',
  });
  credentialSets.push({ apiKey: m.live.apiKey, secretKey: live.secret });
  // A real user and access token, where the users module is there, to reach past authentication.
  const user = await ctx.app.inject({
    method: 'POST',
    url: '/test/users',
    headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}` },
    payload: { phoneNumber: '+237650001234', password: 'fuzz-password-1', balance: '100000' },
  });
  if (user.statusCode === 201) {
    known.push(user.json().id);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/auth/web',
      headers: { 'x-api-key': m.apiKey },
      payload: { phoneNumber: '+237650001234', password: 'fuzz-password-1' },
    });
    if (login.statusCode === 200) credentialSets.push({ apiKey: m.apiKey, token: login.json().token }, { apiKey: m.apiKey, token: login.json().token });
  }
  // A signed-in dashboard owner (cookie and CSRF token), so random requests reach past the
  // dashboard API's session check into its routes (team, audit log, refunds…).
  const login = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: m.dashboard });
  if (login.statusCode === 200) {
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    credentialSets.push({ headers: { cookie, 'x-csrf-token': login.json().csrfToken } });
  }
  const intent = await ctx.app.inject({
    method: 'POST',
    url: '/gateway',
    headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}` },
    payload: { amount: '5000', currency: 'XAF' },
  });
  if (intent.statusCode === 201) known.push(intent.json().id, intent.json().sessionToken);
  const link = await ctx.app.inject({
    method: 'POST',
    url: '/payment-links',
    headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}` },
    payload: { amount: '5000', currency: 'XAF', description: 'Fuzz' },
  });
  if (link.statusCode === 201) known.push(link.json().id);
}, 60_000);
afterAll(() => ctx.close());

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** Field names the modules read, so random bodies reach past "unknown parameter" now and then. */
const FIELDS = [
  'amount',
  'currency',
  'description',
  'metadata',
  'expiresIn',
  'userId',
  'phoneNumber',
  'password',
  'email',
  'channel',
  'intentionId',
  'otp',
  'code',
  'url',
  'events',
  'enabledEvents',
  'balance',
  'limit',
  'startingAfter',
  'reason',
  'name',
  'disabled',
];

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const idLike = fc.oneof(
  fc.constant(null).map(() => known[known.length - 1] ?? 'ps_x'),
  fc.constant(null).map(() => known[1] ?? 'pi_x'),
  // A tuple, not `.chain`: chain builds the regex's arbitrary again for every value (~5 ms each).
  fc.tuple(fc.constantFrom('pi_', 'evt_', 'we_', 'usr_', 'ps_', 're_', 'key_', 'plink_', ''), fc.stringMatching(/^[0-9a-z]{0,30}$/)).map(([p, s]) => p + s),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('0', '-1', 'null', 'undefined', '__proto__', 'constructor', '..', '%', '%zz', '%00', 'a'.repeat(300)),
);
/** A path parameter: encoded text, or raw percent sequences the router has to cope with. */
const segment = fc.oneof(
  { weight: 4, arbitrary: idLike.map((s) => encodeURIComponent(s)) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%c3%28', '%2e%2e', '%00', '%2F', '..') },
);
const query = fc.option(
  fc
    .dictionary(fc.constantFrom('limit', 'startingAfter', 'userId', 'type', 'x', 'limit[]'), fc.oneof(printable, fc.integer().map(String)), { maxKeys: 3 })
    .map((d) =>
      Object.entries(d)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&'),
    ),
  { nil: undefined },
);
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
  fc.dictionary(
    fc.constantFrom(...FIELDS),
    fc.oneof(
      printable,
      fc.integer(),
      fc.constantFrom('5000', '12.50', 'XAF', 'EUR', 'sms', 'email', '123456', 'https://example.com/hook'),
      fc.constant(null).map(() => known[0] ?? 'usr_x'),
      fc.constant(null).map(() => known[1] ?? 'pi_x'),
    ),
    { maxKeys: 6 },
  ),
);
const body = fc.option(
  fc.oneof(
    { weight: 5, arbitrary: json.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[1,', '{"__proto__":{"a":1}}', 'null', '"x"', '1e400', '{"a":1}{"b":2}') },
  ),
  { nil: undefined },
);
/** Present now and then (1 time in `1 + absent`), so most requests get past the header checks. */
const sometimes = <T>(value: fc.Arbitrary<T>, absent = 4) => fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
const headers = fc
  .record({
    'content-type': fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.constantFrom(
            'application/json; charset=utf-8',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
          ),
          printable,
        ),
      },
    ),
    'pay-version': sometimes(fc.oneof(fc.constant('2026-11-01'), printable)),
    'idempotency-key': sometimes(printable),
    origin: sometimes(fc.oneof(fc.constantFrom('https://shop.example', 'null', 'http://localhost'), printable), 8),
    'x-otp-token': sometimes(printable),
    'access-control-request-method': sometimes(fc.constantFrom('GET', 'POST', 'DELETE', 'nope'), 8),
    accept: sometimes(fc.constantFrom('application/json', 'text/html', '*/*', 'application/problem+json')),
  })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

function fill(url: string, params: string[]): string {
  let i = 0;
  return url.replace(/:[A-Za-z]+|\*/g, () => params[i++ % Math.max(params.length, 1)] ?? 'x');
}

async function send(request: { method: string; url: string; creds: Creds; headers: Record<string, string>; body?: string }) {
  // The dashboard session is kept for every request: signing out would leave the rest at 401.
  const creds = request.url.startsWith('/dashboard/api/logout') ? {} : request.creds;
  const h: Record<string, string> = { ...request.headers, ...creds.headers };
  if (creds.apiKey) h['x-api-key'] = creds.apiKey;
  const bearer = creds.token ?? creds.secretKey;
  if (bearer) h.authorization = `Bearer ${bearer}`;
  const options: InjectOptions = { method: request.method as InjectOptions['method'], url: request.url, headers: h };
  if (request.body !== undefined) options.payload = request.body;
  return ctx.app.inject(options);
}

/** The path as a URL parser reads it (a leading `//` is a path here, not a host). */
function pathOf(url: string): string {
  try {
    return new URL(`http://caisse.test${url}`).pathname;
  } catch {
    return url;
  }
}

/**
 * What is wrong with an answer, whatever was sent: nothing, or a line per broken rule. Checked
 * with plain conditions and asserted once per answer: the runs send about 8,000 requests, and
 * eight `expect` calls each were about a tenth of the file's CPU (20.1 → 18.2 CPU-s).
 */
function wrongWith(request: { method: string; url: string }, res: Awaited<ReturnType<typeof send>>): string[] {
  const wrong: string[] = [];
  if (res.statusCode >= 500) wrong.push('a 5xx');
  if (!/^req_/.test(String(res.headers['request-id']))) wrong.push('no request id');
  const path = pathOf(request.url);
  const page = request.method === 'GET' || request.method === 'HEAD';
  const html = /^text\/html/.test(String(res.headers['content-type']));
  // A payment link's visit is a page for people: a redirect to the checkout, or an HTML page
  // (a URL the router cannot even read is still a problem, checked below).
  // As a URL parser reads the path (`/%2e%2e/pay/x` is `/pay/x`), as the router did.
  if (/^\/pay\//.test(path) && page) {
    if (res.statusCode === 303) return /^\/checkout\/ps_/.test(String(res.headers.location)) ? wrong : [...wrong, 'a redirect elsewhere than a checkout'];
    if (html) return wrong;
  }
  // The hosted checkout is a page for people: an unknown or expired link is its own page, with a
  // 404 status, not a problem.
  if (/^\/checkout\//.test(path) && page && res.statusCode === 404 && html) return wrong;
  // The customer's account page is for people too: a refused form is the form again, in HTML,
  // with the reason; a signed-in form redirects to the page.
  if (/^\/account(\/|$)/.test(path)) {
    if (res.statusCode === 303) return /^\/account(\/test)?$/.test(String(res.headers.location)) ? wrong : [...wrong, 'a redirect elsewhere than the account'];
    if (html) return wrong;
  }
  if (res.statusCode >= 300 && res.statusCode < 400) {
    // Only the documentation UI redirects (to its index page).
    return /^\/docs/.test(request.url) ? wrong : [...wrong, 'a redirect outside /docs'];
  }
  if (res.statusCode < 400) return wrong;
  if (!/^application\/problem\+json/.test(String(res.headers['content-type']))) wrong.push('not a problem');
  if (request.method === 'HEAD') return wrong;
  let problem: Record<string, unknown> = {};
  try {
    problem = res.json() as Record<string, unknown>;
  } catch {
    return [...wrong, 'a body that is not JSON'];
  }
  if (typeof problem.code !== 'string') wrong.push('no code');
  if (problem.type !== `/errors/${String(problem.code)}`) wrong.push('a type that is not its code');
  if (problem.status !== res.statusCode) wrong.push('a status unlike the answer');
  if (problem.requestId !== res.headers['request-id']) wrong.push('a request id unlike the header');
  // `stack` as a word: a random request id (`req_…cestackspha…`) holds any five letters now and then.
  if (/\bat .+\.(ts|js):\d+|SELECT |INSERT |\bstack\b/i.test(res.body)) wrong.push('a stack trace or SQL');
  return wrong;
}

/** The property every answer must have, whatever was sent. */
function checkAnswer(request: { method: string; url: string }, res: Awaited<ReturnType<typeof send>>) {
  const wrong = wrongWith(request, res);
  if (wrong.length > 0) expect(wrong, `${request.method} ${request.url} → ${res.statusCode} ${res.body.slice(0, 200)}`).toEqual([]);
}

describe('fuzzing every registered route', () => {
  it('finds the routes of the modules that are there', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain('GET /healthz');
    expect(routes.length).toBeGreaterThan(5);
  });

  it('random requests at registered routes: no 5xx, every failure a problem with a code and request id', async () => {
    const request = fc.record({
      route: fc.integer({ min: 0, max: 10_000 }),
      method: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      params: fc.array(segment, { minLength: 1, maxLength: 3 }),
      query,
      creds: fc.integer({ min: 0, max: 1000 }),
      headers,
      body,
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const route = routes[r.route % routes.length] as RegisteredRoute;
        const method = r.method ?? route.method;
        const url = fill(route.url, r.params) + (r.query ? `?${r.query}` : '');
        const req = { method, url, creds: credentialSets[r.creds % credentialSets.length] as Creds, headers: r.headers, body: r.body };
        checkAnswer(req, await send(req));
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('every route with every kind of credential and a random body', async () => {
    const bodies = fc.sample(body, { numRuns: routes.length * credentialSets.length, seed: 42 });
    let n = 0;
    let pastDashboardSession = 0;
    let restrictedRefusals = 0;
    // A route that takes no secret key reads a restricted key's secret as it reads any other: one
    // restricted key stands for all of them there (about a fifth fewer requests).
    const oneRestricted = [...restrictedSets.keys()][0];
    for (const route of routes) {
      for (const creds of credentialSets) {
        const payload = bodies[n++];
        if (route.auth !== 'sk' && restrictedSets.has(creds) && creds !== oneRestricted) continue;
        const req = {
          method: route.method,
          url: fill(route.url, ['pi_00000000000000000000000000']),
          creds,
          headers: payload === undefined ? {} : ({ 'content-type': 'application/json' } as Record<string, string>),
          body: payload,
        };
        const res = await send(req);
        checkAnswer(req, res);
        // A restricted key is refused exactly where its permissions fall short (none declared: always).
        const permissions = restrictedSets.get(creds);
        if (permissions && route.auth === 'sk') {
          const denied = res.statusCode === 403 && res.json().code === 'permission_denied';
          const access = route.config.access;
          expect(denied, `${route.method} ${route.url} (${access ?? 'no access'}) with ${JSON.stringify(permissions)} → ${res.statusCode}`).toBe(
            access === undefined || !allows(permissions, access),
          );
          if (denied) restrictedRefusals++;
        }
        if (creds.headers?.cookie && route.url.startsWith('/dashboard/api/') && res.statusCode !== 401) pastDashboardSession++;
      }
    }
    // The signed-in dashboard owner reached the dashboard API's routes, not only its 401.
    expect(pastDashboardSession).toBeGreaterThan(40);
    expect(restrictedRefusals).toBeGreaterThan(50);
  }, 120_000);

  it('random paths and methods anywhere: 404, 405 or a route answer, never a 5xx', async () => {
    const anyPath = fc.array(
      fc.oneof(segment, fc.constantFrom('gateway', 'users', 'events', 'webhook-endpoints', 'test', 'docs', 'otp', 'payment-links', 'pay', '')),
      { maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), anyPath, query, fc.integer({ min: 0, max: 1000 }), headers, body, async (method, parts, q, c, h, b) => {
        const url = `/${parts.join('/')}${q ? `?${q}` : ''}`;
        const req = { method, url, creds: credentialSets[c % credentialSets.length] as Creds, headers: h, body: b };
        checkAnswer(req, await send(req));
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
