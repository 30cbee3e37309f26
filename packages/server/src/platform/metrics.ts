import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Config, MetricsConfig } from '../config.ts';
import { sha256 } from './crypto.ts';
import { ApiError } from './errors.ts';
import { isLocalRequest } from './http/https.ts';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Rate-limit counter store (Redis) failures: limits then count in this process's memory. */
  rateLimitStoreErrors: Counter;
  /** Requests refused because their address failed authentication too often. */
  authFailuresRefused: Counter;
}

/** One registry per app, so several apps in one process (tests) never collide. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'caisse_' });
  const httpDuration = new Histogram({
    name: 'caisse_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rateLimitStoreErrors = new Counter({
    name: 'caisse_rate_limit_store_errors_total',
    help: 'Rate-limit counter store (Redis) failures; each time, the limits counted in this process instead',
    registers: [registry],
  });
  const authFailuresRefused = new Counter({
    name: 'caisse_auth_failures_refused_total',
    help: 'Requests refused with 429 because their client address failed authentication too often',
    registers: [registry],
  });
  return { registry, httpDuration, rateLimitStoreErrors, authFailuresRefused };
}

/**
 * Records a request's duration: `labels()` validates and copies the label set on every call, so
 * each set's child is kept. Bounded: methods are those Node's parser accepts, routes are the
 * registered patterns (`unknown` for no route), statuses are three digits.
 */
export function httpDurationObserver(metrics: Metrics): (method: string, route: string | undefined, status: number, seconds: number) => void {
  const children = new Map<string, { observe(value: number): void }>();
  return (method, route = 'unknown', status, seconds) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = metrics.httpDuration.labels(method, route, String(status));
      children.set(key, child);
    }
    child.observe(seconds);
  };
}

/** `Authorization: Bearer <token>` with the configured token, compared in constant time. */
function bearerMatches(headers: IncomingHttpHeaders, token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(sha256(sent), sha256(token));
}

/**
 * Who may read `/metrics` on the API's port (issue 20): nobody when it has a listener of its own
 * (404); with CAISSE_METRICS_TOKEN, whoever sends it (else 401 `metrics_token_invalid`); without
 * one, anyone in development and, in production, requests made on this machine only (403
 * `metrics_local_only`): process and route figures are nobody else's business.
 */
export function assertMetricsAccess(request: FastifyRequest, config: Pick<Config, 'mode' | 'hardening'>): void {
  const { token, port } = config.hardening.metrics;
  if (port !== undefined) throw new ApiError('not_found', `Metrics are served on their own port (CAISSE_METRICS_PORT), not here`);
  if (token !== undefined) {
    if (!bearerMatches(request.headers, token)) {
      throw new ApiError('metrics_token_invalid', 'Send the metrics token (CAISSE_METRICS_TOKEN) in Authorization: Bearer <token>', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    return;
  }
  if (config.mode === 'production' && !isLocalRequest(request)) {
    throw new ApiError(
      'metrics_local_only',
      'In production /metrics answers this machine only; set CAISSE_METRICS_TOKEN or CAISSE_METRICS_PORT to scrape it from elsewhere',
    );
  }
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The listener of its own (CAISSE_METRICS_PORT, on CAISSE_METRICS_HOST, loopback by default):
 * plain HTTP, `GET /metrics` only, behind the token when one is configured. Keep it off public
 * interfaces.
 */
export async function listenMetrics(metrics: Metrics, settings: Pick<MetricsConfig, 'token' | 'host'> & { port: number }): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (settings.token !== undefined && !bearerMatches(req.headers, settings.token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    metrics.registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : settings.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
