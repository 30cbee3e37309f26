import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BODY_LIMIT } from '../src/app.ts';
import { ApiError } from '../src/platform/errors.ts';
import { LATEST_API_VERSION } from '../src/platform/versioning.ts';
import { jsonDepth, MAX_JSON_DEPTH } from '../src/platform/http/body-limits.ts';
import { memoryCounters } from '../src/platform/http/rate-limit.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { expectProblem, variantApp } from './security.support.ts';

/**
 * docs/spec/request-rules.md request rules through HTTP: security headers, HTTPS in production, CORS per API
 * key, body and JSON limits, rate limits. Routes under /t stand in for each kind of route.
 */
function testRoutes(app: FastifyInstance) {
  app.get('/t/pk', async (req) => ({ merchantId: req.merchant.merchantId }));
  app.post('/t/pk', async (req) => ({ received: req.body ?? null }));
  app.post('/t/sk', { config: { auth: 'sk' } }, async () => ({ ok: true }));
  app.post('/t/user', { config: { auth: 'user' } }, async () => ({ ok: true }));
  app.post('/t/none', { config: { auth: 'none' } }, async () => ({ ok: true }));
  app.get('/t/item/:id', async (req) => ({ id: (req.params as { id: string }).id }));
  // A route with a check of its own (as the charge's x-otp-token): it runs after authentication, before the rate limits.
  app.post(
    '/t/own-check',
    {
      onRequest: async (req) => {
        if (req.headers['x-own'] === undefined) throw new ApiError('otp_token_missing', 'Send x-own');
      },
    },
    async () => ({ ok: true }),
  );
}

let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext({ beforeReady: testRoutes });
  m = await createMerchant(ctx, 'Alpha');
  other = await createMerchant(ctx, 'Beta');
});
afterAll(() => ctx.close());

const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});
async function variant(opts: Parameters<typeof variantApp>[1]) {
  const app = await variantApp(ctx, { ...opts, beforeReady: testRoutes });
  apps.push(app);
  return app;
}

type Res = Awaited<ReturnType<typeof call>>;

function expectSecurityHeaders(res: Res, csp: 'api' | 'page' = 'api') {
  expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  const policy = String(res.headers['content-security-policy']);
  expect(policy).toContain("frame-ancestors 'none'");
  if (csp === 'api') {
    expect(policy).toContain("default-src 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  } else {
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
  }
}

describe('security headers', () => {
  it('HSTS, a strict CSP and the usual headers on every answer, errors included', async () => {
    const answers = [
      await call(ctx.app, 'GET', '/healthz'),
      await call(ctx.app, 'GET', '/t/pk', pk(m)),
      await call(ctx.app, 'GET', '/t/pk'),
      await call(ctx.app, 'GET', '/nope'),
      await call(ctx.app, 'DELETE', '/healthz'),
      await ctx.app.inject({ method: 'POST', url: '/t/pk', headers: { 'x-api-key': m.apiKey, 'content-type': 'application/json' }, payload: '{' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 401, 404, 405, 400]);
    for (const res of answers) expectSecurityHeaders(res);
  });

  it('the /docs pages get a page policy: their own scripts and styles only', async () => {
    const res = await call(ctx.app, 'GET', '/docs');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expectSecurityHeaders(res, 'page');
    expect(String(res.headers['content-security-policy'])).toContain("style-src 'self' 'unsafe-inline'");
  });
});

describe('HTTPS', () => {
  it('development mode accepts plain HTTP', async () => {
    expect((await call(ctx.app, 'GET', '/t/pk', pk(m))).statusCode).toBe(200);
  });

  it('production mode refuses plain HTTP with 403 https_required, before looking at keys', async () => {
    const prod = await variant({ mode: 'production' });
    const withKey = await call(prod, 'GET', '/t/pk', pk(m));
    const body = expectProblem(withKey, 403, 'https_required');
    expect(body.detail).toMatch(/https/i);
    expectSecurityHeaders(withKey);
    expectProblem(await call(prod, 'GET', '/t/pk'), 403, 'https_required');
    expectProblem(await call(prod, 'POST', '/t/sk', sk(m), { a: 1 }), 403, 'https_required');
    expectProblem(await call(prod, 'GET', '/nope'), 403, 'https_required');
  });

  it('believes X-Forwarded-Proto only from a configured trusted proxy', async () => {
    const prod = await variant({ mode: 'production', security: { trustedProxies: ['10.0.0.0/8', '127.0.0.1'] } });
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' };
    // From the proxy, which saw https: served.
    const viaProxy = await prod.inject({ method: 'GET', url: '/t/pk', remoteAddress: '10.1.2.3', headers: { ...https, 'x-api-key': m.apiKey } });
    expect(viaProxy.statusCode).toBe(200);
    expect(viaProxy.headers['strict-transport-security']).toContain('max-age=31536000');
    // From the proxy, which saw plain HTTP: refused.
    const plainViaProxy = await prod.inject({
      method: 'GET',
      url: '/t/pk',
      remoteAddress: '10.1.2.3',
      headers: { 'x-forwarded-proto': 'http', 'x-api-key': m.apiKey },
    });
    expectProblem(plainViaProxy, 403, 'https_required');
    // Anyone else claiming https: refused.
    const spoofed = await prod.inject({ method: 'GET', url: '/t/pk', remoteAddress: '203.0.113.9', headers: { ...https, 'x-api-key': m.apiKey } });
    expectProblem(spoofed, 403, 'https_required');
    // Without any trusted proxy, the header means nothing.
    const untrusting = await variant({ mode: 'production' });
    expectProblem(await untrusting.inject({ method: 'GET', url: '/t/pk', headers: { ...https, 'x-api-key': m.apiKey } }), 403, 'https_required');
  });

  it('health, readiness and metrics answer a plain-HTTP probe from the machine itself, not from elsewhere', async () => {
    const prod = await variant({ mode: 'production' });
    for (const url of ['/healthz', '/readyz', '/metrics']) {
      expect((await prod.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await prod.inject({ method: 'GET', url, remoteAddress: '::1' })).statusCode).toBe(200);
      expectProblem(await prod.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' }), 403, 'https_required');
      // A local proxy relaying someone else's request is not a local probe.
      expectProblem(
        await prod.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } }),
        403,
        'https_required',
      );
    }
    expectProblem(await prod.inject({ method: 'GET', url: '/openapi.json', remoteAddress: '127.0.0.1' }), 403, 'https_required');
  });
});

describe('/metrics (issue 20)', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  const viaProxy = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' };

  it('production without a token: this machine only, even over HTTPS through a trusted proxy', async () => {
    const prod = await variant({ mode: 'production', security: { trustedProxies: ['10.0.0.0/8'] } });
    const remote = await prod.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: viaProxy });
    expect(expectProblem(remote, 403, 'metrics_local_only').detail).toMatch(/CAISSE_METRICS_TOKEN/);
    expect((await prod.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body).toContain('caisse_http_request_duration_seconds');
    // Health and readiness stay open to the proxy.
    expect((await prod.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.1.2.3', headers: viaProxy })).statusCode).toBe(200);
  });

  it('with CAISSE_METRICS_TOKEN: the bearer token, from anywhere, and nothing without it', async () => {
    const prod = await variant({
      mode: 'production',
      security: { trustedProxies: ['10.0.0.0/8'] },
      hardening: { metrics: { token: TOKEN, port: undefined, host: '127.0.0.1' } },
    });
    const scrape = (headers: Record<string, string>, remoteAddress = '10.1.2.3') =>
      prod.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { ...viaProxy, ...headers } });
    expect((await scrape({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    const missing = await scrape({});
    expectProblem(missing, 401, 'metrics_token_invalid');
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expectProblem(await scrape({ authorization: `Bearer ${TOKEN}x` }), 401, 'metrics_token_invalid');
    expectProblem(await prod.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' }), 401, 'metrics_token_invalid');
    // Development too, once a token is set.
    const dev = await variant({ hardening: { metrics: { token: TOKEN, port: undefined, host: '127.0.0.1' } } });
    expectProblem(await dev.inject({ method: 'GET', url: '/metrics' }), 401, 'metrics_token_invalid');
  });

  it('with CAISSE_METRICS_PORT: a listener of its own, and none on the API port', async () => {
    const { listenMetrics } = await import('../src/platform/metrics.ts');
    const app = await variant({ hardening: { metrics: { token: TOKEN, port: 9, host: '127.0.0.1' } } });
    expectProblem(await app.inject({ method: 'GET', url: '/metrics' }), 404, 'not_found');
    const listener = await listenMetrics(app.metrics, { port: 0, host: '127.0.0.1', token: TOKEN });
    try {
      const base = `http://127.0.0.1:${listener.port}`;
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('caisse_http_request_duration_seconds');
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/healthz`)).status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

describe('CORS', () => {
  const origin = 'https://shop.example';
  const preflight = (app: FastifyInstance, url: string, method: string, from = origin) =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: from, 'access-control-request-method': method, 'access-control-request-headers': 'x-api-key, content-type' },
    });

  it('answers a preflight for an API-key or user route, without credentials', async () => {
    for (const [url, method] of [
      ['/t/pk', 'GET'],
      ['/t/pk', 'POST'],
      ['/t/user', 'POST'],
      ['/t/item/pi_123', 'GET'],
    ] as const) {
      const res = await preflight(ctx.app, url, method);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers['access-control-allow-methods'])).toContain(method);
      expect(String(res.headers['access-control-allow-headers'])).toContain('x-api-key');
      expect(String(res.headers['access-control-allow-headers'])).toContain('x-otp-token');
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(String(res.headers.vary)).toMatch(/origin/i);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('refuses a preflight for a secret-key or operations route (403 origin_not_allowed), and 404 for no route', async () => {
    for (const [url, method] of [
      ['/t/sk', 'POST'],
      ['/t/none', 'POST'],
      ['/metrics', 'GET'],
    ] as const) {
      const res = await preflight(ctx.app, url, method);
      expectProblem(res, 403, 'origin_not_allowed');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    expectProblem(await preflight(ctx.app, '/nope', 'GET'), 404, 'not_found');
    expectProblem(await preflight(ctx.app, '/t/pk', 'PATCH'), 404, 'not_found');
  });

  it('a key that lists no origin may be used from any origin', async () => {
    const res = await call(ctx.app, 'GET', '/t/pk', { apiKey: m.apiKey, headers: { origin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(String(res.headers['access-control-expose-headers'])).toContain('request-id');
    expect(String(res.headers['access-control-expose-headers'])).toContain('ratelimit-remaining');
  });

  it('a key that lists origins serves those and refuses the others with 403 origin_not_allowed', async () => {
    const key = await ctx.services.merchants.createKey(m.merchantId, {
      kind: 'publishable',
      mode: 'test',
      name: 'browser',
      allowedOrigins: ['https://Shop.Example', 'http://localhost:3000'],
    });
    expect(key.allowedOrigins).toEqual(['https://shop.example', 'http://localhost:3000']);
    const ok = await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(origin);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin: 'http://localhost:3000' } })).statusCode).toBe(200);

    for (const bad of ['https://evil.example', 'https://shop.example.evil.example', 'http://shop.example', 'null']) {
      const res = await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin: bad } });
      const body = expectProblem(res, 403, 'origin_not_allowed');
      expect(body.detail).toContain(bad);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    // The same key from a server (no Origin) and from this server's own pages (same origin).
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret })).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin: 'http://localhost' } })).statusCode).toBe(200);

    // The list can be changed; an empty list opens the key to any origin again.
    await ctx.services.merchants.setAllowedOrigins(m.merchantId, key.id, ['https://evil.example']);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin: 'https://evil.example' } })).statusCode).toBe(200);
    expectProblem(await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin } }), 403, 'origin_not_allowed');
    await ctx.services.merchants.setAllowedOrigins(m.merchantId, key.id, []);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret, headers: { origin } })).statusCode).toBe(200);
  });

  it('an authentication error stays readable by the page that made the request', async () => {
    const res = await call(ctx.app, 'GET', '/t/pk', { apiKey: 'pk_test_nope', headers: { origin } });
    expectProblem(res, 401, 'api_key_invalid');
    expect(res.headers['access-control-allow-origin']).toBe(origin);
  });

  it('secret-key routes never serve a browser: any Origin is 403 origin_not_allowed, without CORS headers', async () => {
    for (const from of [origin, 'http://localhost', 'null']) {
      const res = await call(ctx.app, 'POST', '/t/sk', { ...sk(m), headers: { origin: from } }, { a: 1 });
      expectProblem(res, 403, 'origin_not_allowed');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await call(ctx.app, 'POST', '/t/sk', sk(m), { a: 1 })).statusCode).toBe(200);
  });

  it('allowed origins are checked when a key is made: origins only, on API keys only', async () => {
    const make = (kind: 'publishable' | 'secret', allowedOrigins: string[]) =>
      ctx.services.merchants.createKey(m.merchantId, { kind, mode: 'test', name: 'x', allowedOrigins });
    for (const bad of ['shop.example', 'https://shop.example/path', 'ftp://shop.example', 'https://shop.example?x=1', 'null']) {
      await expect(make('publishable', [bad])).rejects.toMatchObject({ code: 'validation_error', options: { param: 'allowedOrigins' } });
    }
    await expect(make('secret', ['https://shop.example'])).rejects.toMatchObject({ code: 'validation_error' });
    await expect(ctx.services.merchants.setAllowedOrigins(other.merchantId, (await make('publishable', [])).id, [])).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('body limits', () => {
  const big = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) });

  it('413 payload_too_large over 64 KiB on every kind of route, before authentication', async () => {
    for (const url of ['/t/pk', '/t/sk', '/t/user', '/t/none']) {
      const anonymous = await ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: big });
      expectProblem(anonymous, 413, 'payload_too_large');
      const withKeys = await call(ctx.app, 'POST', url, sk(m), JSON.parse(big));
      expectProblem(withKeys, 413, 'payload_too_large');
    }
  });

  it('413 for a body sent without a length, cut off at the limit', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/t/pk',
      headers: { 'content-type': 'application/json', 'x-api-key': m.apiKey },
      payload: Readable.from([Buffer.from(big)]),
    });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('exactly 64 KiB is accepted', async () => {
    const filler = 'x'.repeat(BODY_LIMIT - JSON.stringify({ a: '' }).length);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/t/pk',
      headers: { 'content-type': 'application/json', 'x-api-key': m.apiKey },
      payload: JSON.stringify({ a: filler }),
    });
    expect(res.statusCode).toBe(200);
  });

  it(`JSON nesting is bounded: ${MAX_JSON_DEPTH} levels pass, one more is 400 json_invalid`, async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const send = (payload: string) =>
      ctx.app.inject({ method: 'POST', url: '/t/pk', headers: { 'content-type': 'application/json', 'x-api-key': m.apiKey }, payload });
    expect((await send(nested(MAX_JSON_DEPTH))).statusCode).toBe(200);
    const body = expectProblem(await send(nested(MAX_JSON_DEPTH + 1)), 400, 'json_invalid');
    expect(body.detail).toContain(String(MAX_JSON_DEPTH));
    // As deep as 64 KiB allows: refused at once, no stack overflow.
    expectProblem(await send(nested(30_000)), 400, 'json_invalid');
    expectProblem(await send(`{"a":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`), 400, 'json_invalid');
  });

  it('counts depth outside strings only', () => {
    expect(jsonDepth('{"a":"[[[[{{{{","b":[1,{"c":"]]]\\"[["}]}')).toBe(3);
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('"x"')).toBe(0);
  });

  it('refuses prototype-pollution members with a clear 400 json_invalid', async () => {
    const send = (payload: string) =>
      ctx.app.inject({ method: 'POST', url: '/t/pk', headers: { 'content-type': 'application/json', 'x-api-key': m.apiKey }, payload });
    for (const payload of [
      '{"__proto__":{"admin":true}}',
      '{"a":{"b":{"__proto__":{"x":1}}}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '[{"__proto__":null}]',
    ]) {
      const body = expectProblem(await send(payload), 400, 'json_invalid');
      expect(body.detail).toMatch(/__proto__|constructor/);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    // The words themselves, as values or as a plain "constructor" member, are fine.
    expect((await send('{"note":"__proto__","constructor":"x"}')).statusCode).toBe(200);
  });

  it('a malformed JSON body is 400 json_invalid; an empty one is no body, as without a content type', async () => {
    const send = (payload: string) =>
      ctx.app.inject({ method: 'POST', url: '/t/pk', headers: { 'content-type': 'application/json', 'x-api-key': m.apiKey }, payload });
    // Clients that set the JSON content type on every request send it on body-less operations too.
    expect((await send('')).json()).toEqual({ received: null });
    expectProblem(await send(' '), 400, 'json_invalid');
    expectProblem(await send('{"a":'), 400, 'json_invalid');
    expectProblem(await send('\u0000'), 400, 'json_invalid');
  });

  it('a body that is not UTF-8 is 400 json_invalid, not stored with replacement characters', async () => {
    const send = (payload: Buffer) =>
      ctx.app.inject({ method: 'POST', url: '/t/pk', headers: { 'content-type': 'application/json', 'x-api-key': m.apiKey }, payload });
    const body = expectProblem(await send(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])), 400, 'json_invalid');
    expect(body.detail).toContain('UTF-8');
    // Overlong and surrogate encodings are not UTF-8 either; real multi-byte text is.
    expectProblem(await send(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d])), 400, 'json_invalid');
    expectProblem(await send(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])), 400, 'json_invalid');
    expect((await send(Buffer.from('{"a":"Crème brûlée, 5 000 F CFA ✓"}'))).json()).toEqual({ received: { a: 'Crème brûlée, 5 000 F CFA ✓' } });
  });

  it('a request Node cannot parse gets a problem with the request id and security headers, then the connection closes', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
    const parse = (text: string) => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [status = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { status, headers, body: JSON.parse(body) as Record<string, unknown> };
    };
    const cases: [string, string, string][] = [
      ['GARBAGE\r\n\r\n', '400', 'request_malformed'],
      ['POST /t/pk HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}', '400', 'request_malformed'],
      [`GET /t/pk HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, '431', 'headers_too_large'],
    ];
    for (const [request, status, code] of cases) {
      const answer = parse(await raw(request));
      expect(answer.status, request.slice(0, 40)).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toMatchObject({ type: `/errors/${code}`, status: Number(status), code, requestId: answer.headers['request-id'] });
      expect(String(answer.headers['request-id'])).toMatch(/^req_/);
      expect(answer.headers['pay-version']).toBe(LATEST_API_VERSION);
    }
  });

  it('a URL the router cannot decode is a problem too, with the usual headers', async () => {
    const res = await call(ctx.app, 'GET', '/t/item/%zz', pk(m));
    expectProblem(res, 400, 'validation_error');
    expectSecurityHeaders(res);
    expect(res.headers['pay-version']).toBe(LATEST_API_VERSION);
    const long = await call(ctx.app, 'GET', `/t/item/${'a'.repeat(500)}`, pk(m));
    expectProblem(long, 404, 'not_found');
    expect(long.headers['strict-transport-security']).toBeDefined();
  });
});

describe('rate limits (memory counters, windows of the injected clock)', () => {
  const limits = { test: 5, live: 8, ipPerMinute: 3 };

  it('a test key gets 5 requests a second, over all its routes; the 6th is 429 rate_limited with Retry-After', async () => {
    const app = await variant({ security: { rateLimit: limits }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:00:00.000Z');
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = i % 2 === 0 ? await call(app, 'GET', '/t/pk', pk(m)) : await call(app, 'POST', '/t/sk', sk(m), { a: 1 });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-reset']).toBe('1');
      remaining.push(String(res.headers['ratelimit-remaining']));
      // The same figures in the one-field form of the IETF draft, with the policy they count against.
      expect(res.headers.ratelimit).toBe(`limit=5, remaining=${4 - i}, reset=1`);
      expect(res.headers['ratelimit-policy']).toBe('5;w=1');
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    ctx.clock.advance(400);
    const over = await call(app, 'GET', '/t/pk', pk(m));
    const body = expectProblem(over, 429, 'rate_limited');
    expect(over.headers['retry-after']).toBe('1');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(over.headers['ratelimit-limit']).toBe('5');
    expect(over.headers.ratelimit).toBe('limit=5, remaining=0, reset=1');
    expect(body.detail).toMatch(/5 requests per second/);
    expectSecurityHeaders(over);
    // Another merchant's key has its own count.
    expect((await call(app, 'GET', '/t/pk', pk(other))).statusCode).toBe(200);
    // The next second starts a new window.
    ctx.clock.advance(600);
    const next = await call(app, 'GET', '/t/pk', pk(m));
    expect(next.statusCode).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('4');
  });

  it('a live key gets its own limit (8 a second)', async () => {
    const app = await variant({ security: { rateLimit: limits }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:01:00.000Z');
    const codes: number[] = [];
    for (let i = 0; i < 9; i++) codes.push((await call(app, 'GET', '/t/pk', { apiKey: m.live.apiKey })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });

  it('refused credentials are not counted; unauthenticated routes are not limited', async () => {
    const app = await variant({ security: { rateLimit: limits }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:02:00.000Z');
    for (let i = 0; i < 10; i++) {
      expectProblem(await call(app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: 'sk_test_wrong' }, { a: 1 }), 401, 'secret_key_invalid');
      expect((await call(app, 'GET', '/healthz')).statusCode).toBe(200);
    }
    const first = await call(app, 'GET', '/t/pk', pk(m));
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect((await call(app, 'GET', '/healthz')).headers['ratelimit-limit']).toBeUndefined();
  });

  it('a browser reading a 429 from an allowed origin sees the headers', async () => {
    const app = await variant({ security: { rateLimit: { test: 1 } }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:03:00.000Z');
    const origin = 'https://shop.example';
    await call(app, 'GET', '/t/pk', { apiKey: m.apiKey, headers: { origin } });
    const over = await call(app, 'GET', '/t/pk', { apiKey: m.apiKey, headers: { origin } });
    expectProblem(over, 429, 'rate_limited');
    expect(over.headers['access-control-allow-origin']).toBe(origin);
    expect(String(over.headers['access-control-expose-headers'])).toContain('retry-after');
    expect(String(over.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy']));
  });
});

describe('the request hooks (issue 23: two synchronous hooks instead of eight async ones)', () => {
  /** An answer's headers but those that differ between any two answers. */
  const stable = (res: Res) => {
    const { 'request-id': id, date: _date, 'content-length': _length, 'ratelimit-remaining': _remaining, ratelimit: _ratelimit, ...rest } = res.headers;
    expect(id).toMatch(/^req_/);
    return rest;
  };

  it('a key answered from the cache (no await) gets what a key read from the database gets', async () => {
    // A fresh app: its key cache is empty, so the first request waits for the lookup.
    const app = await variant({ counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:05:00.000Z');
    const fresh = await call(app, 'POST', '/t/sk', { ...sk(m), headers: { 'pay-version': LATEST_API_VERSION } }, { a: 1 });
    const cached = await call(app, 'POST', '/t/sk', { ...sk(m), headers: { 'pay-version': LATEST_API_VERSION } }, { a: 1 });
    expect([fresh.statusCode, cached.statusCode]).toEqual([200, 200]);
    expect(stable(cached)).toEqual(stable(fresh));
    expect(cached.headers['pay-version']).toBe(LATEST_API_VERSION);
    expectSecurityHeaders(cached);
    // A user route: the key from the cache, then the token still checked (and refused).
    expectProblem(await call(app, 'POST', '/t/user', { apiKey: m.apiKey, token: 'not-a-token' }, {}), 401, 'access_token_invalid');
    expectProblem(await call(app, 'POST', '/t/user', { apiKey: m.apiKey }, {}), 401, 'access_token_missing');
    // A cached key whose secret key is wrong is refused as before, and counted as a failure.
    expectProblem(await call(app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: 'sk_test_wrong' }, { a: 1 }), 401, 'secret_key_invalid');
  });

  it('every answer carries the request id, the version and security headers: refusals of each step, 404s and preflights', async () => {
    const app = await variant({ security: { rateLimit: { test: 1 } }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:06:00.000Z');
    const answers = [
      await call(app, 'GET', '/t/pk', pk(m)),
      await call(app, 'GET', '/t/pk', pk(m)),
      await call(app, 'GET', '/t/pk', { apiKey: 'pk_test_unknown' }),
      await call(app, 'GET', '/t/pk', { ...pk(m), headers: { 'pay-version': '1999-01-01' } }),
      await call(app, 'POST', '/t/sk', { ...sk(m), headers: { origin: 'https://shop.example' } }, { a: 1 }),
      await app.inject({
        method: 'POST',
        url: '/t/pk',
        headers: { 'x-api-key': m.apiKey, 'content-type': 'application/json', 'content-length': String(BODY_LIMIT + 1) },
        payload: 'x'.repeat(BODY_LIMIT + 1),
      }),
      await app.inject({ method: 'OPTIONS', url: '/t/pk', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } }),
      await call(app, 'GET', '/nope', pk(m)),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 429, 401, 400, 403, 413, 204, 404]);
    for (const res of answers) {
      expect(res.headers['request-id']).toMatch(/^req_/);
      // Refusals before the key is read name the version they were answered in too.
      expect(res.headers['pay-version'], String(res.statusCode)).toBe(LATEST_API_VERSION);
      expectSecurityHeaders(res);
    }
  });

  it("when several checks fail, the same one answers as before: body, CORS, key, the route's own check, then the limit", async () => {
    const app = await variant({ security: { rateLimit: { test: 1 } }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:07:00.000Z');
    expect((await call(app, 'GET', '/t/pk', pk(m))).statusCode).toBe(200);
    // The key's one request of this second is spent: every answer below would otherwise be 429.
    const big = 'x'.repeat(BODY_LIMIT + 1);
    const tooLarge = await app.inject({
      method: 'POST',
      url: '/t/sk',
      headers: { origin: 'https://shop.example', 'content-type': 'application/json', 'content-length': String(big.length) },
      payload: big,
    });
    expectProblem(tooLarge, 413, 'payload_too_large');
    expectProblem(await call(app, 'POST', '/t/sk', { headers: { origin: 'https://shop.example' } }, { a: 1 }), 403, 'origin_not_allowed');
    expectProblem(await call(app, 'GET', '/t/pk'), 401, 'api_key_missing');
    expectProblem(await call(app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: 'sk_test_wrong' }, { a: 1 }), 401, 'secret_key_invalid');
    expectProblem(await call(app, 'POST', '/t/own-check', pk(m), {}), 401, 'otp_token_missing');
    const limited = await call(app, 'POST', '/t/own-check', { ...pk(m), headers: { 'x-own': '1' } }, {});
    expectProblem(limited, 429, 'rate_limited');
    expect(limited.headers['retry-after']).toBe('1');
  });

  it('the duration histogram counts each request by method, route pattern and status', async () => {
    const app = await variant({});
    for (let i = 0; i < 3; i++) await call(app, 'GET', `/t/item/pi_${i}`, pk(m));
    await call(app, 'GET', '/t/item/pi_x');
    for (let i = 0; i < 2; i++) await call(app, 'GET', '/nope');
    const text = (await call(app, 'GET', '/metrics')).body;
    const count = (labels: string) => Number(new RegExp(`caisse_http_request_duration_seconds_count\\{${labels}\\} (\\d+)`).exec(text)?.[1] ?? 0);
    expect(count('method="GET",route="/t/item/:id",status="200"')).toBe(3);
    expect(count('method="GET",route="/t/item/:id",status="401"')).toBe(1);
    expect(count('method="GET",route="unknown",status="404"')).toBe(2);
  });
});

describe('failed authentications per client address (issue 20)', () => {
  it('3 a minute: then 429 for that address without a key lookup, until the window ends; other addresses go on', async () => {
    const app = await variant({ hardening: { authFailuresPerMinute: 3 }, counters: memoryCounters(ctx.clock) });
    ctx.clock.set('2026-11-01T11:20:00.000Z');
    const lookups = vi.spyOn(app.services.merchants, 'authenticate');
    const from = (remoteAddress: string, apiKey?: string, url = '/t/pk') =>
      app.inject({ method: 'GET', url, remoteAddress, headers: apiKey ? { 'x-api-key': apiKey } : {} });
    const unknown = `pk_test_${'x'.repeat(32)}`;
    expectProblem(await from('203.0.113.50', unknown), 401, 'api_key_invalid');
    expectProblem(await from('203.0.113.50'), 401, 'api_key_missing');
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/t/sk',
        remoteAddress: '203.0.113.50',
        headers: { 'x-api-key': m.apiKey, authorization: 'Bearer sk_test_wrong' },
        payload: { a: 1 },
      }),
      401,
      'secret_key_invalid',
    );
    ctx.clock.advance(10_000);
    // Refused before any lookup, a good key included, for the rest of the window.
    lookups.mockClear();
    const over = await from('203.0.113.50', unknown);
    const body = expectProblem(over, 429, 'rate_limited');
    expect(body.detail).toMatch(/3 failed authentications per minute from this address/);
    expect(over.headers['retry-after']).toBe('50');
    expectProblem(await from('203.0.113.50', unknown), 429, 'rate_limited');
    expectProblem(await from('203.0.113.50', m.apiKey), 429, 'rate_limited');
    expect(lookups).not.toHaveBeenCalled();
    // Another address, and routes without credentials, are not concerned.
    expect((await from('198.51.100.60', m.apiKey)).statusCode).toBe(200);
    expect((await from('203.0.113.50', undefined, '/healthz')).statusCode).toBe(200);
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/caisse_auth_failures_refused_total 3/);
    ctx.clock.advance(50_000);
    expect((await from('203.0.113.50', m.apiKey)).statusCode).toBe(200);
  });
});

describe('per-IP limits on login and registration (live mode)', () => {
  const hasRoute = (method: string, url: string) => ctx.app.registeredRoutes.some((r) => r.method === method && r.url === url);

  it('3 a minute per address and route from a live key; other addresses and test keys are not held back', async (t) => {
    const routes = [
      ['POST', '/auth/web'],
      ['POST', '/users'],
    ].filter(([method, url]) => hasRoute(method as string, url as string));
    if (routes.length === 0) t.skip();
    const app = await variant({
      security: { rateLimit: { ipPerMinute: 3 }, trustedProxies: ['10.0.0.1'] },
      counters: memoryCounters(ctx.clock),
    });
    ctx.clock.set('2026-11-01T11:10:00.000Z');
    for (const [method, url] of routes) {
      const send = (creds: { apiKey: string }, from: string) =>
        app.inject({
          method: method as 'POST',
          url: url as string,
          remoteAddress: '10.0.0.1',
          headers: { 'x-api-key': creds.apiKey, 'x-forwarded-for': from, 'content-type': 'application/json' },
          payload: '{}',
        });
      const live = { apiKey: m.live.apiKey };
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await send(live, '198.51.100.1')).statusCode);
      expect(codes.filter((c) => c === 429)).toEqual([]);
      const over = await send(live, '198.51.100.1');
      const body = expectProblem(over, 429, 'rate_limited');
      expect(body.detail).toMatch(/this address/);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await send(live, '198.51.100.2')).statusCode).not.toBe(429);
      for (let i = 0; i < 5; i++) expect((await send(pk(m) as { apiKey: string }, '198.51.100.1')).statusCode).not.toBe(429);
    }
    ctx.clock.advance(60_000);
    const [method, url] = routes[0] as [string, string];
    const again = await app.inject({
      method: method as 'POST',
      url,
      remoteAddress: '10.0.0.1',
      headers: { 'x-api-key': m.live.apiKey, 'x-forwarded-for': '198.51.100.1', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(again.statusCode).not.toBe(429);
  });
});
