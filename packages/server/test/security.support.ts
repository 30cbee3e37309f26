/**
 * Helpers of the security suites: a second app on a test context's database and clock, with a
 * changed configuration (production mode, trusted proxies, real rate limits, TLS).
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config, HardeningConfig, SecurityConfig } from '../src/config.ts';
import type { TlsFiles } from '../src/platform/http/https.ts';
import type { WindowCounters } from '../src/platform/http/rate-limit.ts';
import { createLogger } from '../src/platform/logger.ts';
import type { TestContext } from './harness.ts';

export interface VariantOptions {
  mode?: Config['mode'];
  security?: Partial<Omit<SecurityConfig, 'rateLimit'>> & { rateLimit?: Partial<SecurityConfig['rateLimit']> };
  hardening?: Partial<HardeningConfig>;
  redisUrl?: string;
  tls?: TlsFiles;
  counters?: WindowCounters;
  /** Called on the app before it is ready (to add test routes). */
  beforeReady?: (app: FastifyInstance) => void;
}

/** An app like `ctx.app` (same database, clock and services' world) but configured otherwise. */
export async function variantApp(ctx: TestContext, opts: VariantOptions = {}): Promise<FastifyInstance & { logs: string[] }> {
  const base = ctx.deps.config;
  const config: Config = {
    ...base,
    mode: opts.mode ?? base.mode,
    redisUrl: opts.redisUrl ?? base.redisUrl,
    security: {
      ...base.security,
      ...opts.security,
      rateLimit: { ...base.security.rateLimit, ...opts.security?.rateLimit },
    },
    hardening: { ...base.hardening, ...opts.hardening },
  };
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp({
    deps: { ...ctx.deps, config },
    logger: createLogger({ level: 'info', stream }),
    tls: opts.tls,
    rateLimitCounters: opts.counters,
  });
  opts.beforeReady?.(app);
  await app.ready();
  return Object.assign(app, { logs });
}

type Res = { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown };

/** An RFC 9457 answer with this status and code, and the request id of its header. */
export function expectProblem(res: Res, status: number, code: string): Record<string, unknown> {
  expect({ status: res.statusCode, body: res.body.slice(0, 300) }).toMatchObject({ status });
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ type: `/errors/${code}`, status, code });
  expect(body.requestId).toBe(res.headers['request-id']);
  return body;
}
