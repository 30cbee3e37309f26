import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAllSerializers } from '../src/platform/http/serialization.ts';
import { compileAllValidators } from '../src/platform/http/validation.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * The platform layer through HTTP: RFC 9457 errors for every kind of bad request, request ids,
 * versioning and the key checks. Routes made here stand in for the modules' routes.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext({
    beforeReady(app) {
      const Body = Type.Object(
        {
          name: Type.String({ maxLength: 5 }),
          amount: Type.Optional(Type.String({ pattern: '^[0-9]+$', 'x-code': 'amount_invalid' })),
        },
        { additionalProperties: false },
      );
      app.post('/t/sk', { config: { auth: 'sk' }, schema: { body: Body } }, async (req) => ({
        mode: req.merchant.mode,
        merchantId: req.merchant.merchantId,
        version: req.apiVersion,
      }));
      app.get('/t/pk', async (req) => ({ mode: req.merchant.mode, merchantId: req.merchant.merchantId }));
      app.get('/t/user', { config: { auth: 'user' } }, async () => ({ ok: true }));
      app.get('/t/item/:id', { config: { auth: 'none' }, schema: { params: Type.Object({ id: Type.String() }) } }, async (req) => req.params);
      app.get('/t/db-data-error', { config: { auth: 'none' } }, async () => {
        throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021', severity: 'ERROR' });
      });
      app.get('/t/crash', { config: { auth: 'none' } }, async () => {
        throw new Error('select * from secrets where password = hunter2');
      });
    },
  });
  m = await createMerchant(ctx, 'Alpha');
  other = await createMerchant(ctx, 'Beta');
});
afterAll(() => ctx.close());

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ type: `/errors/${code}`, status, code });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body.requestId).toBe(res.headers['request-id']);
  return body;
}

describe('route schemas', () => {
  // Validators and serializers compile at a route's first use, not at start: every route's
  // schema must still compile, or its first request would fail.
  it('every route schema of the app compiles (validators with Ajv, answers with fast-json-stringify)', () => {
    expect(compileAllValidators()).toBeGreaterThan(80);
    expect(buildAllSerializers()).toBeGreaterThan(80);
  });
});

describe('errors', () => {
  it('answers every request with a request-id header', async () => {
    const ok = await call(ctx.app, 'GET', '/healthz');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['request-id']).toMatch(/^req_[0-9a-z]{26}$/);
    const bad = await call(ctx.app, 'GET', '/nope');
    expect(bad.headers['request-id']).toMatch(/^req_/);
    expect(bad.headers['request-id']).not.toBe(ok.headers['request-id']);
  });

  it('404 not_found for an unknown path, 405 method_not_allowed for a known path', async () => {
    expectProblem(await call(ctx.app, 'GET', '/nope'), 404, 'not_found');
    const res = await call(ctx.app, 'DELETE', '/healthz');
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toContain('GET');
  });

  it('json_invalid for malformed JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/t/sk',
      headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expectProblem(res, 400, 'json_invalid');
  });

  it('unsupported_media_type for a body that is not JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/t/sk',
      headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}`, 'content-type': 'text/plain' },
      payload: 'name=a',
    });
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('payload_too_large over 64 KiB', async () => {
    const res = await call(ctx.app, 'POST', '/t/sk', sk(m), { name: 'x'.repeat(70 * 1024) });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('parameter_unknown names the unknown field', async () => {
    const body = expectProblem(await call(ctx.app, 'POST', '/t/sk', sk(m), { name: 'a', colour: 'red' }), 400, 'parameter_unknown');
    expect(body.param).toBe('colour');
  });

  it('validation_error lists each bad field', async () => {
    const body = expectProblem(await call(ctx.app, 'POST', '/t/sk', sk(m), { name: 'toolong' }), 400, 'validation_error');
    expect(body.errors).toEqual([expect.objectContaining({ param: 'name' })]);
    const missing = expectProblem(await call(ctx.app, 'POST', '/t/sk', sk(m), {}), 400, 'validation_error');
    expect(missing.param).toBe('name');
  });

  it('a field can carry its own code (x-code)', async () => {
    const body = expectProblem(await call(ctx.app, 'POST', '/t/sk', sk(m), { name: 'a', amount: 12 }), 400, 'amount_invalid');
    expect(body.param).toBe('amount');
  });

  it('NUL characters anywhere in the input are a 400, before they reach the database', async () => {
    const inPath = expectProblem(await call(ctx.app, 'GET', '/t/item/a%00b'), 400, 'validation_error');
    expect(inPath.param).toBe('id');
    const inBody = expectProblem(await call(ctx.app, 'POST', '/t/sk', sk(m), { name: 'a\u0000' }), 400, 'validation_error');
    expect(inBody.param).toBe('name');
    expect((await call(ctx.app, 'GET', '/t/item/ab')).json()).toEqual({ id: 'ab' });
  });

  it('a database data exception is the caller input: 400, not 500', async () => {
    const body = expectProblem(await call(ctx.app, 'GET', '/t/db-data-error'), 400, 'validation_error');
    expect(JSON.stringify(body)).not.toContain('UTF8');
  });

  it('an unexpected failure is a 500 internal_error with nothing of it leaked', async () => {
    const res = await call(ctx.app, 'GET', '/t/crash');
    const body = expectProblem(res, 500, 'internal_error');
    expect(res.body).not.toMatch(/select|hunter2|at .*\.ts/);
    expect(body.detail).not.toContain('secrets');
  });
});

describe('versioning', () => {
  it('names the version used, honours pay-version, refuses unknown ones', async () => {
    const res = await call(ctx.app, 'POST', '/t/sk', { ...sk(m), headers: { 'pay-version': '2026-11-01' } }, { name: 'a' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['pay-version']).toBe('2026-11-01');
    expect(res.json().version).toBe('2026-11-01');
    const unknown = await call(ctx.app, 'POST', '/t/sk', { ...sk(m), headers: { 'pay-version': '1999-01-01' } }, { name: 'a' });
    expectProblem(unknown, 400, 'version_unknown');
  });
});

describe('keys', () => {
  it('every credential failure has its own code', async () => {
    expectProblem(await call(ctx.app, 'GET', '/t/pk'), 401, 'api_key_missing');
    expectProblem(await call(ctx.app, 'GET', '/t/pk', { apiKey: 'pk_test_doesnotexist' }), 401, 'api_key_invalid');
    expectProblem(await call(ctx.app, 'GET', '/t/pk', { apiKey: m.secretKey }), 401, 'api_key_invalid');
    expectProblem(await call(ctx.app, 'POST', '/t/sk', pk(m), { name: 'a' }), 401, 'secret_key_required');
    expectProblem(await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: 'sk_test_nope' }, { name: 'a' }), 401, 'secret_key_invalid');
    expectProblem(await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: m.apiKey }, { name: 'a' }), 401, 'secret_key_invalid');
    expect(
      expectProblem(await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: m.live.secretKey }, { name: 'a' }), 401, 'secret_key_required').reason,
    ).toBe('other_mode');
    expect(
      expectProblem(await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: other.secretKey }, { name: 'a' }), 401, 'secret_key_required').reason,
    ).toBe('other_merchant');
    expectProblem(await call(ctx.app, 'GET', '/t/user', pk(m)), 401, 'access_token_missing');
  });

  it('authentication comes before body validation', async () => {
    expectProblem(await call(ctx.app, 'POST', '/t/sk', {}, { bogus: 1 }), 401, 'api_key_missing');
  });

  it('a test key sees test mode, a live key live mode, each for its own merchant', async () => {
    expect((await call(ctx.app, 'GET', '/t/pk', pk(m))).json()).toEqual({ mode: 'test', merchantId: m.merchantId });
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: m.live.apiKey })).json()).toEqual({ mode: 'live', merchantId: m.merchantId });
    const live = await call(ctx.app, 'POST', '/t/sk', { apiKey: m.live.apiKey, secretKey: m.live.secretKey }, { name: 'a' });
    expect(live.json()).toMatchObject({ mode: 'live', merchantId: m.merchantId });
  });

  it('a rolled key works until its grace period ends, then api_key_invalid (expired)', async () => {
    const key = await ctx.services.merchants.createKey(m.merchantId, { kind: 'publishable', mode: 'test', name: 'to roll' });
    const rolled = await ctx.services.merchants.rollKey(m.merchantId, key.id, 3600);
    expect(rolled.new.secret).not.toBe(key.secret);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret })).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: rolled.new.secret })).statusCode).toBe(200);
    ctx.clock.advance(3599_000);
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret })).statusCode).toBe(200);
    ctx.clock.advance(1_000);
    expect(expectProblem(await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret }), 401, 'api_key_invalid').reason).toBe('expired');
    expect((await call(ctx.app, 'GET', '/t/pk', { apiKey: rolled.new.secret })).statusCode).toBe(200);
  });

  it('a rolled secret key expires the same way; a revoked one stops at once', async () => {
    const key = await ctx.services.merchants.createKey(m.merchantId, { kind: 'secret', mode: 'test', name: 'to roll' });
    const rolled = await ctx.services.merchants.rollKey(m.merchantId, key.id, 60);
    expect((await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: key.secret }, { name: 'a' })).statusCode).toBe(200);
    ctx.clock.advance(61_000);
    expect(
      expectProblem(await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: key.secret }, { name: 'a' }), 401, 'secret_key_invalid').reason,
    ).toBe('expired');
    await ctx.services.merchants.revokeKey(m.merchantId, rolled.new.id);
    expect(
      expectProblem(await call(ctx.app, 'POST', '/t/sk', { apiKey: m.apiKey, secretKey: rolled.new.secret }, { name: 'a' }), 401, 'secret_key_invalid').reason,
    ).toBe('revoked');
    const pkKey = await ctx.services.merchants.createKey(m.merchantId, { kind: 'publishable', mode: 'test', name: 'to revoke' });
    await ctx.services.merchants.revokeKey(m.merchantId, pkKey.id);
    expect(expectProblem(await call(ctx.app, 'GET', '/t/pk', { apiKey: pkKey.secret }), 401, 'api_key_invalid').reason).toBe('revoked');
  });

  it('grace is at most 7 days, and keys of another merchant cannot be rolled', async () => {
    const key = await ctx.services.merchants.createKey(m.merchantId, { kind: 'publishable', mode: 'test', name: 'x' });
    await expect(ctx.services.merchants.rollKey(m.merchantId, key.id, 7 * 86400 + 1)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(ctx.services.merchants.rollKey(other.merchantId, key.id, 60)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('records when a key was last used', async () => {
    const key = await ctx.services.merchants.createKey(m.merchantId, { kind: 'publishable', mode: 'test', name: 'used' });
    expect((await ctx.services.merchants.listKeys(m.merchantId)).find((k) => k.id === key.id)?.lastUsedAt).toBeNull();
    await call(ctx.app, 'GET', '/t/pk', { apiKey: key.secret });
    expect((await ctx.services.merchants.listKeys(m.merchantId)).find((k) => k.id === key.id)?.lastUsedAt).toBe(ctx.clock.now().toISOString());
  });

  it('keeps only hashes of keys at rest', async () => {
    const rows = await ctx.deps.db.selectFrom('api_keys').selectAll().execute();
    const dump = JSON.stringify(rows.map((r) => ({ ...r, key_hash: r.key_hash.toString('hex') })));
    for (const secret of [m.apiKey, m.secretKey, m.live.apiKey, m.live.secretKey]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(12, -4));
    }
    expect(rows.every((r) => r.key_hash.length === 32)).toBe(true);
  });

  it('never logs keys', async () => {
    await call(ctx.app, 'GET', '/t/pk', pk(m));
    await call(ctx.app, 'POST', '/t/sk', sk(m), { name: 'a' });
    const logs = ctx.logs.join('\n');
    expect(logs).toContain('request completed');
    for (const secret of [m.apiKey, m.secretKey]) expect(logs).not.toContain(secret);
  });
});

describe('operations', () => {
  it('serves health, readiness, metrics and the OpenAPI document without keys', async () => {
    expect((await call(ctx.app, 'GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await call(ctx.app, 'GET', '/readyz')).json()).toEqual({ status: 'ready' });
    const metrics = await call(ctx.app, 'GET', '/metrics');
    expect(metrics.body).toContain('caisse_http_request_duration_seconds');
    const doc = (await call(ctx.app, 'GET', '/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.description).toContain('other_merchant');
    expect((await call(ctx.app, 'GET', '/docs')).statusCode).toBeLessThan(400);
  });
});
