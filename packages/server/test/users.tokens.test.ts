import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { registerUser } from './flow.support.ts';

/**
 * User access tokens: EdDSA JWTs with a kid, checked by an independent verifier against the JWKS
 * served by a real listening server, refused when expired, forged, unsigned, signed by another
 * key, or presented with another merchant's or mode's API key; signing keys rotate.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
let baseUrl: string;

const PASSWORD = 'limbe-sunset-2026';
let seq = 200000;
const phone = () => `+237670${String(seq++).padStart(6, '0')}`;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Alpha');
  other = await createMerchant(ctx, 'Beta');
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  ctx.app.server.closeAllConnections();
  await ctx.close();
});

async function signIn(merchant = m, live = false): Promise<{ id: string; token: string; expiresAt: string }> {
  const phoneNumber = phone();
  if (live) {
    // Live users register for real; verify the phone through the service's code path.
    const apiKey = merchant.live.apiKey;
    const id = await registerUser(ctx, { apiKey }, { phoneNumber, password: PASSWORD }, 'live');
    await ctx.deps.db.updateTable('users').set({ phone_verified_at: ctx.clock.now() }).where('id', '=', id).execute();
    const res = await call(ctx.app, 'POST', '/auth/web', { apiKey }, { phoneNumber, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    return res.json();
  }
  expect((await call(ctx.app, 'POST', '/test/users', sk(merchant), { phoneNumber, password: PASSWORD, balance: '1000' })).statusCode).toBe(201);
  const res = await call(ctx.app, 'POST', '/auth/web', pk(merchant), { phoneNumber, password: PASSWORD });
  expect(res.statusCode).toBe(200);
  return res.json();
}

function expectProblem(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(res.json()).toMatchObject({ code, status, type: `/errors/${code}` });
}

const wallet = (token: string, apiKey = m.apiKey) => call(ctx.app, 'GET', '/wallet', { apiKey, token });

describe('access tokens', () => {
  it('verify with an independent verifier fed by the JWKS of a real listening server', async () => {
    const { id, token } = await signIn();
    const jwks = jose.createRemoteJWKSet(new URL(`${baseUrl}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jose.jwtVerify(token, jwks, { algorithms: ['EdDSA'], currentDate: ctx.clock.now() });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
    expect(typeof protectedHeader.kid).toBe('string');
    expect(payload).toMatchObject({ sub: id, aud: m.merchantId, iss: 'caisse', mode: 'test', roles: ['USER'] });
    expect((payload.exp as number) - (payload.iat as number)).toBe(15 * 60);

    // The published keys are public Ed25519 keys only.
    const res = await fetch(`${baseUrl}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys.length).toBeGreaterThanOrEqual(1);
    for (const k of body.keys) {
      expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(k).not.toHaveProperty('d');
    }
  });

  it('a token opens GET /wallet; no token is access_token_missing', async () => {
    const { id, token } = await signIn();
    const res = await wallet(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object: 'wallet', userId: id, balances: [{ currency: 'XAF', amount: '1000' }] });
    expectProblem(await call(ctx.app, 'GET', '/wallet', pk(m)), 401, 'access_token_missing');
  });

  it('expires after 15 minutes', async () => {
    const { token, expiresAt } = await signIn();
    ctx.clock.set(new Date(new Date(expiresAt).getTime() - SECOND));
    expect((await wallet(token)).statusCode).toBe(200);
    ctx.clock.advance(SECOND);
    expectProblem(await wallet(token), 401, 'access_token_invalid');
  });

  it('refuses a token of another merchant or of the other mode', async () => {
    const { token } = await signIn();
    expectProblem(await wallet(token, other.apiKey), 401, 'access_token_invalid');
    expectProblem(await wallet(token, m.live.apiKey), 401, 'access_token_invalid');
    const live = await signIn(m, true);
    expect((await wallet(live.token, m.live.apiKey)).statusCode).toBe(200);
    expectProblem(await wallet(live.token, m.apiKey), 401, 'access_token_invalid');
  });

  it('refuses forged, unsigned, re-signed and mangled tokens', async () => {
    const { token } = await signIn();
    const [h, p, s] = token.split('.') as [string, string, string];
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

    // alg: none
    expectProblem(await wallet(`${b64({ alg: 'none', typ: 'at+jwt', kid: header.kid })}.${p}.`), 401, 'access_token_invalid');
    // Payload changed (another user), signature kept.
    expectProblem(await wallet(`${h}.${b64({ ...payload, sub: 'usr_someoneelse' })}.${s}`), 401, 'access_token_invalid');
    // Signed by another Ed25519 key claiming the same kid.
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = await new jose.SignJWT(payload).setProtectedHeader(header).sign(privateKey);
    expectProblem(await wallet(forged), 401, 'access_token_invalid');
    // HS256 keyed with the public key (algorithm confusion).
    const jwks = (await call(ctx.app, 'GET', '/.well-known/jwks.json')).json() as { keys: { x: string }[] };
    const hs = await new jose.SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', kid: header.kid, typ: 'at+jwt' })
      .sign(Buffer.from(jwks.keys[0]?.x ?? '', 'base64url'));
    expectProblem(await wallet(hs), 401, 'access_token_invalid');
    // Unknown kid, garbage, a secret key in place of a token.
    const unknownKid = await new jose.SignJWT(payload).setProtectedHeader({ ...header, kid: 'nope' }).sign(privateKey);
    expectProblem(await wallet(unknownKid), 401, 'access_token_invalid');
    expectProblem(await wallet('not.a.jwt'), 401, 'access_token_invalid');
    expectProblem(await wallet(m.secretKey), 401, 'access_token_invalid');
    // The real one still works.
    expect((await wallet(token)).statusCode).toBe(200);
  });

  it('rotation: a new key signs, the old one stays published until its tokens have expired', async () => {
    const before = await signIn();
    const oldKid = jose.decodeProtectedHeader(before.token).kid;
    const newKid = await ctx.services.users.tokens.rotate();
    expect(newKid).not.toBe(oldKid);
    const after = await signIn();
    expect(jose.decodeProtectedHeader(after.token).kid).toBe(newKid);

    const kids = async () => ((await call(ctx.app, 'GET', '/.well-known/jwks.json')).json() as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    expect(await kids()).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect((await wallet(before.token)).statusCode).toBe(200);
    expect((await wallet(after.token)).statusCode).toBe(200);

    // 15 minutes of token life and a margin later, the old key is gone.
    ctx.clock.advance(21 * MINUTE);
    expect(await kids()).toEqual([newKid]);
    expectProblem(await wallet(before.token), 401, 'access_token_invalid');
  });

  it('keys are stored with the private half encrypted, and survive a restart of the service', async () => {
    const rows = await ctx.deps.db.selectFrom('signing_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const r of rows) {
      expect(r.private_key_enc.toString('utf8')).not.toContain('PRIVATE KEY');
      expect(JSON.stringify(r.public_jwk)).not.toContain('"d"');
    }
    // A second process (a new service over the same database) verifies tokens of the first.
    const { token } = await signIn();
    const { createServices } = await import('../src/services.ts');
    const second = createServices(ctx.deps);
    const merchant = {
      merchantId: m.merchantId,
      mode: 'test' as const,
      apiKeyId: 'k',
      secretKeyId: undefined,
      allowedOrigins: [],
      pinnedVersion: '2026-11-01',
      merchantName: 'Shop',
      intentExpiresIn: 1800,
      approved: true,
      merchantCountry: 'CM' as const,
    };
    await expect(second.users.verifyAccessToken(token, merchant)).resolves.toMatchObject({ userId: expect.stringMatching(/^usr_/) });
  });

  it('processes starting together on a database without a key make exactly one', async () => {
    // Retire every key long ago, as if the database had none that may sign.
    await ctx.deps.db
      .updateTable('signing_keys')
      .set({ retired_at: new Date(0) })
      .execute();
    const { createServices } = await import('../src/services.ts');
    const processes = Array.from({ length: 4 }, () => createServices(ctx.deps));
    const answers = await Promise.all(processes.map((p) => p.users.jwks()));
    const kids = new Set(answers.flatMap((a) => a.keys.map((k) => k.kid)));
    expect(kids.size).toBe(1);
    const active = await ctx.deps.db.selectFrom('signing_keys').select('kid').where('retired_at', 'is', null).execute();
    expect(active.map((r) => r.kid)).toEqual([...kids]);
  });

  it('a key older than 30 days is replaced on next use', async () => {
    const { token } = await signIn();
    const kid = jose.decodeProtectedHeader(token).kid;
    ctx.clock.advance(31 * 24 * 60 * MINUTE);
    const fresh = await signIn();
    expect(jose.decodeProtectedHeader(fresh.token).kid).not.toBe(kid);
  });
});
