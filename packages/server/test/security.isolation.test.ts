import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/platform/http/security.ts';
import { type Creds, call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { expectProblem } from './security.support.ts';

/**
 * docs/spec/keys-and-modes.md and docs/spec/request-rules.md: test and live never mix, and another merchant's objects are 404. Merchant A
 * makes one object of each kind it can (through the routes that are registered); then every
 * route with an id in its path is called with A's ids by merchant B, and by A's own live keys:
 * each answer must be 404 `not_found`. Ids are found through each collection's list route
 * (`GET /X` for `/X/:id…`), so routes added under an existing collection are covered at once.
 *
 * User routes with another user's token, and the scan of every table after a full payment flow,
 * are in security.flow.test.ts.
 */
let ctx: TestContext;
let a: TestMerchant;
let b: TestMerchant;
const idsByCollection = new Map<string, string[]>();
let sessionToken: string | undefined;

const has = (method: string, url: string) => ctx.app.registeredRoutes.some((r) => r.method === method && r.url === url);
const collectionOf = (url: string) => `/${url.split('/')[1] ?? ''}`;

beforeAll(async () => {
  ctx = await createTestContext();
  a = await createMerchant(ctx, 'Owner');
  b = await createMerchant(ctx, 'Stranger');
  // One object of each kind merchant A can make, in test mode.
  if (has('POST', '/gateway')) {
    const intent = await call(ctx.app, 'POST', '/gateway', sk(a), { amount: '5000', currency: 'XAF', metadata: { order: '42' } });
    expect(intent.statusCode).toBe(201);
    sessionToken = intent.json().sessionToken;
    const second = await call(ctx.app, 'POST', '/gateway', sk(a), { amount: '700', currency: 'XAF' });
    if (has('POST', '/gateway/:id/cancel')) await call(ctx.app, 'POST', `/gateway/${second.json().id}/cancel`, sk(a), {});
  }
  if (has('POST', '/webhook-endpoints')) {
    const ep = await call(ctx.app, 'POST', '/webhook-endpoints', sk(a), { url: 'https://shop.example.com/hooks' });
    expect(ep.statusCode).toBe(201);
  }
  // Ids through the list routes of the secret-key collections.
  for (const route of ctx.app.registeredRoutes) {
    if (route.method !== 'GET' || route.auth !== 'sk' || route.url.slice(1).includes('/') || route.url.includes(':')) continue;
    const list = await call(ctx.app, 'GET', route.url, sk(a));
    if (list.statusCode !== 200) continue;
    const data = (list.json() as { data?: { id?: string }[] }).data;
    const ids = (data ?? []).map((o) => o.id).filter((id): id is string => typeof id === 'string');
    if (ids.length > 0) idsByCollection.set(route.url, ids);
  }
}, 60_000);
afterAll(() => ctx.close());

function fill(url: string, id: string): string {
  return url.replace(/:[A-Za-z]+/g, id);
}

/** The least body each route's schema lets through, so that the answer is about the id, not the body. */
const REQUIRED_BODIES: Record<string, Record<string, unknown>> = {
  '/gateway/:id/refunds/recorded': { method: 'cash' },
};

function bodyFor(route: RegisteredRoute) {
  if (route.method !== 'POST' && route.method !== 'PATCH' && route.method !== 'PUT') return undefined;
  return REQUIRED_BODIES[route.url] ?? {};
}

describe('isolation between merchants and modes', () => {
  it('merchant A has objects to be protected', () => {
    if (has('POST', '/gateway')) expect(idsByCollection.get('/gateway')?.length).toBeGreaterThanOrEqual(2);
    if (has('POST', '/webhook-endpoints')) expect(idsByCollection.get('/webhook-endpoints')?.length).toBe(1);
    if (has('GET', '/events') && has('POST', '/gateway/:id/cancel')) expect(idsByCollection.get('/events')?.length).toBeGreaterThanOrEqual(1);
  });

  it('every secret-key route with an id answers 404 to another merchant and to the other mode', async () => {
    const strangers: [string, Creds][] = [
      ['another merchant (test)', sk(b)],
      ['another merchant (live)', { apiKey: b.live.apiKey, secretKey: b.live.secretKey }],
      ['the same merchant in live mode', { apiKey: a.live.apiKey, secretKey: a.live.secretKey }],
    ];
    const checked: string[] = [];
    const routes = ctx.app.registeredRoutes.filter((r) => r.auth === 'sk' && r.url.includes(':'));
    for (const route of routes) {
      const ids = idsByCollection.get(collectionOf(route.url)) ?? [];
      for (const id of ids) {
        for (const [who, creds] of strangers) {
          const res = await call(ctx.app, route.method as 'GET', fill(route.url, id), creds, bodyFor(route));
          const where = `${route.method} ${route.url} with ${id} by ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect(res.statusCode, where).toBe(404);
          expectProblem(res, 404, 'not_found');
          // Nothing of the object comes back (its id is only echoed in the detail).
          expect(res.body, where).not.toMatch(/shop\.example\.com|"order"|5000|amount/);
        }
        checked.push(`${route.method} ${route.url}`);
      }
    }
    // Control: the owner reads them (nothing that changes state is replayed as the owner).
    for (const route of routes.filter((r) => r.method === 'GET')) {
      for (const id of idsByCollection.get(collectionOf(route.url)) ?? []) {
        const res = await call(ctx.app, 'GET', fill(route.url, id), sk(a));
        expect(res.statusCode, `${route.url} ${id} as the owner`).toBe(200);
      }
    }
    if (has('GET', '/gateway/:id')) expect(checked).toContain('GET /gateway/:id');
    if (has('GET', '/webhook-endpoints/:id')) expect(checked).toContain('DELETE /webhook-endpoints/:id');
  });

  it('lists show only the caller merchant and mode', async () => {
    for (const [collection, ids] of idsByCollection) {
      for (const creds of [sk(b), { apiKey: a.live.apiKey, secretKey: a.live.secretKey }]) {
        const res = await call(ctx.app, 'GET', collection, creds);
        expect(res.statusCode).toBe(200);
        for (const id of ids) expect(res.body, `${collection} leaks ${id}`).not.toContain(id);
      }
    }
  });

  it('a session token of merchant A is 404 to merchant B and to A in live mode', async (t) => {
    if (!sessionToken || !has('GET', '/gateway/sessions/:sessionToken')) t.skip();
    const url = `/gateway/sessions/${sessionToken}`;
    expect((await call(ctx.app, 'GET', url, pk(a))).statusCode).toBe(200);
    expectProblem(await call(ctx.app, 'GET', url, pk(b)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', url, { apiKey: a.live.apiKey }), 404, 'not_found');
  });
});
