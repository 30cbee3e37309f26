import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newReference, SANDBOX_SECRETS_FILE, sandboxSecrets } from '../src/modules/connectors/index.ts';
import { type MomoSandbox, startMomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { ManualClock, SECOND } from '../src/platform/clock.ts';
import { CREDENTIALS, type Receiver, startReceiver } from './connectors.support.ts';
import { processEnv, spawnCaisse } from './processes.ts';

/**
 * The MoMo sandbox seen from outside, over HTTP: MTN's checks (subscription key, Basic, bearer,
 * target environment, reference, body), its answers, and the `/_sandbox` control API that tests
 * and the reconciliation command use. And `caisse momo-sandbox` as users start it.
 */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function sandbox(opts: Parameters<typeof startMomoSandbox>[0] = {}): Promise<{ sb: MomoSandbox; clock: ManualClock }> {
  const clock = new ManualClock();
  const sb = await startMomoSandbox({ clock, tickMs: 0, credentials: CREDENTIALS, ...opts });
  open.push(sb);
  return { sb, clock };
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  open.push(r);
  return r;
}

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

async function call(sb: MomoSandbox, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

async function token(sb: MomoSandbox, product: 'collection' | 'disbursement' = 'collection'): Promise<string> {
  const key = product === 'collection' ? CREDENTIALS.collectionKey : CREDENTIALS.disbursementKey;
  const res = await call(sb, 'POST', `/${product}/token/`, { authorization: basic(CREDENTIALS.apiUser, CREDENTIALS.apiKey), 'ocp-apim-subscription-key': key });
  expect(res).toMatchObject({ status: 200, body: { token_type: 'access_token', expires_in: 3600 } });
  return res.body?.access_token as string;
}

function apiHeaders(bearer: string, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${bearer}`, 'x-target-environment': 'sandbox', 'ocp-apim-subscription-key': CREDENTIALS.collectionKey, ...extra };
}

const body = (partyId = '46733123999') => ({
  amount: '5000',
  currency: 'XAF',
  externalId: 'top_sb',
  payer: { partyIdType: 'MSISDN', partyId },
  payerMessage: 'Top-up',
  payeeNote: 'top_sb',
});

describe('MoMo sandbox: MTN checks', () => {
  it('token: subscription key and Basic credentials, as it was started with', async () => {
    const { sb } = await sandbox();
    const auth = basic(CREDENTIALS.apiUser, CREDENTIALS.apiKey);
    expect((await call(sb, 'POST', '/collection/token/', { authorization: auth })).status).toBe(401);
    expect((await call(sb, 'POST', '/collection/token/', { authorization: auth, 'ocp-apim-subscription-key': CREDENTIALS.disbursementKey })).status).toBe(401);
    expect(
      await call(sb, 'POST', '/collection/token/', {
        authorization: basic(CREDENTIALS.apiUser, 'nope'),
        'ocp-apim-subscription-key': CREDENTIALS.collectionKey,
      }),
    ).toEqual({
      status: 401,
      body: { error: 'login_failed' },
    });
    await token(sb);
    await token(sb, 'disbursement');
    expect(sb.stats().tokensIssued).toEqual({ collection: 1, disbursement: 1 });
  });

  it('started without credentials, it takes any non-empty ones', async () => {
    const { sb } = await sandbox({ credentials: undefined });
    const res = await call(sb, 'POST', '/collection/token/', { authorization: basic('anyone', 'anything'), 'ocp-apim-subscription-key': 'any' });
    expect(res.status).toBe(200);
    expect((await call(sb, 'POST', '/collection/token/', { authorization: basic('anyone', ''), 'ocp-apim-subscription-key': 'any' })).status).toBe(401);
  });

  it('requesttopay: bearer of the product, target environment, UUID reference, valid body; 202 then 409', async () => {
    const { sb, clock } = await sandbox();
    const bearer = await token(sb);
    const ref = newReference();
    const post = (headers: Record<string, string>, b: unknown = body()) => call(sb, 'POST', '/collection/v1_0/requesttopay', headers, b);
    expect((await post(apiHeaders('not-a-token', { 'x-reference-id': ref }))).status).toBe(401);
    expect((await post(apiHeaders(await token(sb, 'disbursement'), { 'x-reference-id': ref }))).status).toBe(401);
    expect(await post(apiHeaders(bearer, { 'x-reference-id': ref, 'x-target-environment': 'mtnghana' }))).toMatchObject({
      status: 400,
      body: { code: 'NOT_ALLOWED_TARGET_ENVIRONMENT' },
    });
    expect(await post(apiHeaders(bearer, { 'x-reference-id': 'order-1' }))).toMatchObject({ status: 400, body: { code: 'INVALID_REFERENCE_ID' } });
    expect(await post(apiHeaders(bearer, { 'x-reference-id': ref }), { ...body(), amount: 5000 })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST' },
    });
    expect(await post(apiHeaders(bearer, { 'x-reference-id': ref }), '{"amount":')).toMatchObject({ status: 400, body: { code: 'INVALID_JSON' } });
    expect(await post(apiHeaders(bearer, { 'x-reference-id': ref, 'x-callback-url': 'ftp://x' }))).toMatchObject({ status: 400 });
    expect(sb.requests()).toEqual([]);

    expect(await post(apiHeaders(bearer, { 'x-reference-id': ref }))).toEqual({ status: 202, body: undefined });
    expect(await post(apiHeaders(bearer, { 'x-reference-id': ref }))).toEqual({
      status: 409,
      body: { code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id. Creation of resource failed.' },
    });
    expect(await call(sb, 'GET', `/collection/v1_0/requesttopay/${ref}`, apiHeaders(bearer))).toEqual({
      status: 200,
      body: { ...body(), status: 'PENDING' },
    });
    expect(await call(sb, 'GET', `/collection/v1_0/requesttopay/${newReference()}`, apiHeaders(bearer))).toEqual({
      status: 404,
      body: { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' },
    });
    // Tokens expire on the sandbox's clock.
    clock.advance(3600 * SECOND);
    expect((await call(sb, 'GET', `/collection/v1_0/requesttopay/${ref}`, apiHeaders(bearer))).status).toBe(401);
  });
});

describe('MoMo sandbox: control API', () => {
  it('faults: set at start, read and changed at run time; unknown switches refused', async () => {
    const { sb } = await sandbox({ faults: { answer500: true } });
    expect(await call(sb, 'GET', '/_sandbox/faults')).toMatchObject({ status: 200, body: { answer500: true, hang: false } });
    expect((await call(sb, 'POST', '/collection/token/', { authorization: basic('a', 'b') })).status).toBe(500);
    expect(await call(sb, 'POST', '/_sandbox/faults', {}, { answer500: false, dropCallbacks: true })).toMatchObject({
      status: 200,
      body: { answer500: false, dropCallbacks: true },
    });
    expect(sb.faults()).toMatchObject({ answer500: false, dropCallbacks: true });
    expect((await call(sb, 'POST', '/_sandbox/faults', {}, { explode: true })).status).toBe(400);
    expect((await call(sb, 'POST', '/_sandbox/faults', {}, { hang: 'yes' })).status).toBe(400);
  });

  it('lists every request with its state, moves the clock, and overrides answers on purpose', async () => {
    const { sb } = await sandbox();
    const cb = await receiver();
    const bearer = await token(sb);
    const ok = newReference();
    const rejected = newReference();
    await call(sb, 'POST', '/collection/v1_0/requesttopay', apiHeaders(bearer, { 'x-reference-id': ok, 'x-callback-url': `${cb.url}/cb` }), body());
    await call(sb, 'POST', '/collection/v1_0/requesttopay', apiHeaders(bearer, { 'x-reference-id': rejected }), body('237650000105'));

    let listed = (await call(sb, 'GET', '/_sandbox/requests')).body?.data as Record<string, unknown>[];
    expect(listed.map((r) => [r.referenceId, r.status])).toEqual([
      [ok, 'PENDING'],
      [rejected, 'PENDING'],
    ]);

    // The sandbox's own clock, for processes that cannot share a ManualClock with it.
    expect((await call(sb, 'POST', '/_sandbox/clock', {}, { advanceMs: SECOND })).status).toBe(200);
    expect((await call(sb, 'POST', '/_sandbox/tick')).status).toBe(200);
    listed = (await call(sb, 'GET', '/_sandbox/requests')).body?.data as Record<string, unknown>[];
    expect(listed[0]).toMatchObject({
      referenceId: ok,
      status: 'SUCCESSFUL',
      overridden: false,
      financialTransactionId: expect.any(String),
      finalAt: expect.any(String),
    });
    expect(listed[0]?.callbacks).toEqual([{ at: expect.any(String), method: 'PUT', httpStatus: 200 }]);
    expect(listed[1]).toMatchObject({ referenceId: rejected, status: 'FAILED', reason: 'APPROVAL_REJECTED' });
    expect(cb.received).toHaveLength(1);

    const changed = await call(sb, 'POST', `/_sandbox/requests/${ok}/override`, {}, { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS', amount: '4000' });
    expect(changed).toMatchObject({ status: 200, body: { referenceId: ok, status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS', amount: '4000', overridden: true } });
    expect(await call(sb, 'GET', `/collection/v1_0/requesttopay/${ok}`, apiHeaders(bearer))).toMatchObject({
      status: 200,
      body: { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS', amount: '4000' },
    });
    expect(await call(sb, 'GET', `/_sandbox/requests/${ok}`)).toMatchObject({ status: 200, body: { status: 'FAILED', overridden: true } });
    // An override is the provider changing its mind silently: no callback.
    expect(cb.received).toHaveLength(1);
    expect((await call(sb, 'POST', `/_sandbox/requests/${newReference()}/override`, {}, { status: 'FAILED' })).status).toBe(404);
    expect((await call(sb, 'POST', `/_sandbox/requests/${ok}/override`, {}, {})).status).toBe(400);
    expect((await call(sb, 'POST', `/_sandbox/requests/${ok}/override`, {}, { status: 'DONE' })).status).toBe(400);
    expect(await call(sb, 'GET', '/_sandbox/stats')).toEqual({ status: 200, body: { tokensIssued: { collection: 1, disbursement: 0 }, requests: 2 } });
    expect(await call(sb, 'POST', '/_sandbox/tokens/revoke')).toEqual({ status: 200, body: { revoked: 1 } });

    // A provider that lost a request: MTN's own 404 from then on, and gone from the listing.
    expect(await call(sb, 'DELETE', `/_sandbox/requests/${ok}`)).toEqual({ status: 204, body: undefined });
    expect((await call(sb, 'DELETE', `/_sandbox/requests/${ok}`)).status).toBe(404);
    const again = await token(sb);
    expect(await call(sb, 'GET', `/collection/v1_0/requesttopay/${ok}`, apiHeaders(again))).toMatchObject({
      status: 404,
      body: { code: 'RESOURCE_NOT_FOUND' },
    });
    listed = (await call(sb, 'GET', '/_sandbox/requests')).body?.data as Record<string, unknown>[];
    expect(listed.map((r) => r.referenceId)).toEqual([rejected]);
  });
});

describe('caisse sandbox (and its old name, momo-sandbox)', () => {
  it("starts every provider's sandbox on one port, with faults from the command line, and stops on SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'caisse-sandbox-cli-'));
    const proc = spawnCaisse(
      ['momo-sandbox', '--port', '0', '--faults', 'dropCallbacks,badJson', '--callbacks-url', 'http://127.0.0.1:9/callbacks'],
      processEnv({ CAISSE_DATA_DIR: dataDir }),
    );
    try {
      const line = await proc.waitForLine(/Sandbox listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
      // Wave's webhook secret is the data directory's, which the gateway reads too; never printed.
      const file = join(dataDir, SANDBOX_SECRETS_FILE);
      await proc.waitForLine(/wave .*signed with the secret in/, 5_000);
      expect(proc.lines.join('\n')).toContain(file);
      const waveWebhookSecret = sandboxSecrets(dataDir).wave?.webhookSecret;
      expect(waveWebhookSecret).toMatch(/^wave_sandbox_whsec_/);
      expect(proc.lines.join('\n')).not.toContain(waveWebhookSecret);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
      const faults = await (await fetch(`${url}/_sandbox/faults`)).json();
      expect(faults).toMatchObject({ dropCallbacks: true, badJson: true, answer500: false });
      // Orange Money and Wave under their own base paths, in the same process.
      expect(await (await fetch(`${url}/orange-money/_sandbox/payments`)).json()).toEqual({ data: [] });
      expect(await (await fetch(`${url}/wave/_sandbox/sessions`)).json()).toEqual({ data: [] });
    } finally {
      proc.kill('SIGTERM');
    }
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an unknown fault', async () => {
    const proc = spawnCaisse(['momo-sandbox', '--faults', 'explode'], processEnv({}));
    expect((await proc.exited).code).toBe(1);
    expect(proc.lines.join('\n')).toContain('unknown fault explode');
  });
});
