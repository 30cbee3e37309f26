import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/runtime.ts';
import { createMerchant, createTestContext, seedDataDir, TEST_MASTER_KEY, type TestContext, type TestMerchant } from './harness.ts';
import { variantApp } from './security.support.ts';

/**
 * Real sockets: the server terminating TLS itself with a certificate made here, and production
 * mode refusing plain HTTP on a real connection (remote address from the socket, not a header).
 */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, opts: { ca?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method: 'GET', headers: opts.headers, ca: opts.ca, servername: 'localhost' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const port = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

let ctx: TestContext;
let m: TestMerchant;
let cert: string;
let key: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Tls');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  cert = pems.cert;
  key = pems.private;
}, 60_000);
afterAll(async () => {
  for (const app of apps) await app.close();
  await ctx.close();
});

describe('TLS terminated by the server', () => {
  it('production mode with a certificate serves HTTPS, with HSTS', async () => {
    const app = await variantApp(ctx, { mode: 'production', tls: { cert: Buffer.from(cert), key: Buffer.from(key) } });
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `https://127.0.0.1:${port(app)}`;

    const health = await get(`${base}/healthz`, { ca: cert });
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');

    const keyed = await get(`${base}/gateway`, { ca: cert, headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}` } });
    expect(keyed.status).not.toBe(403);
    expect(keyed.status).toBeLessThan(500);
    const missing = await get(`${base}/gateway`, { ca: cert });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).code).toBe('api_key_missing');

    // The certificate is checked: a client that does not trust it is refused.
    await expect(get(`${base}/healthz`)).rejects.toThrow(/self-signed|certificate/i);
    // Plain HTTP to the TLS port gets no answer from the API.
    await expect(get(`http://127.0.0.1:${port(app)}/healthz`)).rejects.toThrow();
  });

  it('`caisse start` reads CAISSE_TLS_CERT_FILE and CAISSE_TLS_KEY_FILE and listens with TLS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'caisse-tls-start-'));
    writeFileSync(join(dir, 'cert.pem'), cert);
    writeFileSync(join(dir, 'key.pem'), key, { mode: 0o600 });
    seedDataDir(join(dir, 'data'));
    const config = loadConfig({
      CAISSE_MASTER_KEY: TEST_MASTER_KEY,
      CAISSE_DATA_DIR: join(dir, 'data'),
      CAISSE_TLS_CERT_FILE: join(dir, 'cert.pem'),
      CAISSE_TLS_KEY_FILE: join(dir, 'key.pem'),
      LOG_LEVEL: 'silent',
    });
    const write = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    let started: Awaited<ReturnType<typeof startServer>>;
    try {
      started = await startServer(config, { port: 0, worker: false });
    } finally {
      process.stdout.write = write;
    }
    try {
      const res = await get(`https://127.0.0.1:${port(started.app)}/readyz`, { ca: cert });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'ready' });
    } finally {
      await started.app.close();
      await started.runtime.close();
      // The seeded data directory is some 40 MB: not left in /tmp run after run.
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('production mode over a real plain-HTTP connection', () => {
  it('refuses the API with 403 https_required and lets a local health probe through', async () => {
    const app = await variantApp(ctx, { mode: 'production' });
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${port(app)}`;
    const refused = await get(`${base}/gateway`, { headers: { 'x-api-key': m.apiKey, authorization: `Bearer ${m.secretKey}` } });
    expect(refused.status).toBe(403);
    expect(String(refused.headers['content-type'])).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'https_required', requestId: refused.headers['request-id'] });
    expect(refused.headers['strict-transport-security']).toBeDefined();
    expect((await get(`${base}/healthz`)).status).toBe(200);
    expect((await get(`${base}/metrics`)).status).toBe(200);
  });

  it('behind a trusted proxy that saw https, serves the API', async () => {
    const app = await variantApp(ctx, { mode: 'production', security: { trustedProxies: ['127.0.0.1'] } });
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await get(`http://127.0.0.1:${port(app)}/gateway`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.4', 'x-api-key': m.apiKey },
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).code).toBe('secret_key_required');
  });
});
