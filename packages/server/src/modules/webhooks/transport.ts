import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostOf, type ResolvedAddress } from './url-policy.ts';

/** One webhook POST, to an address already checked by the URL policy. */
export interface TransportRequest {
  url: URL;
  /** The checked address to connect to; the URL's host still names the server (Host, SNI, TLS). */
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** At most this many bytes of the answer are read; the rest is never downloaded. */
  maxExcerptBytes: number;
}

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  excerpt: string;
}

/** Sends one request; rejects on a network failure or timeout with an Error that says what happened. */
export type WebhookTransport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * The default transport: node:http(s), no connection pooling, no redirects followed (a 3xx is
 * the answer), one deadline for connecting, sending and reading the excerpt.
 */
export const nodeTransport: WebhookTransport = (req) =>
  new Promise((resolve, reject) => {
    const host = hostOf(req.url);
    const https = req.url.protocol === 'https:';
    const body = Buffer.from(req.body, 'utf8');
    let settled = false;
    const finish = (err: Error | null, value?: TransportResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value as TransportResponse);
    };
    const options = {
      host: req.address.address,
      family: req.address.family,
      port: req.url.port === '' ? (https ? 443 : 80) : Number(req.url.port),
      path: `${req.url.pathname}${req.url.search}`,
      method: 'POST',
      agent: false as const,
      headers: { ...req.headers, host: req.url.host, 'content-length': String(body.length) },
      // TLS: the certificate is checked against the URL's host name, not the address.
      ...(https ? { servername: isIP(host) ? undefined : host } : {}),
    };
    const outgoing = (https ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        res.destroy();
        finish(null, { status: res.statusCode ?? 0, headers: res.headers, excerpt: Buffer.concat(chunks).subarray(0, req.maxExcerptBytes).toString('utf8') });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= req.maxExcerptBytes) done();
      });
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    const timer = setTimeout(() => {
      const err = new Error(`timed out after ${req.timeoutMs} ms`);
      finish(err);
      outgoing.destroy(err);
    }, req.timeoutMs);
    outgoing.on('error', (err: NodeJS.ErrnoException) => finish(new Error(err.code ? `${err.code}: ${err.message}` : err.message)));
    outgoing.end(body);
  });
