import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';
import type { ResolvedAddress } from './url-policy.ts';

/** One webhook POST, to an address already checked by the URL policy. */
export interface TransportRequest {
  url: URL;
  /** The checked address to connect to; the URL's host still names the server (Host, SNI, TLS). */
  address: ResolvedAddress;
  /** Sent with the URL's Host and the body's length added, unless `wireHeaders` already added them. */
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

/** The headers a request goes out with: its own, the Host it names and the body's length. */
export function wireHeaders(url: URL, headers: Record<string, string>, body: string): Record<string, string> {
  return { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body, 'utf8')) };
}

/** Sends one request; rejects on a network failure or timeout with an Error that says what happened. */
export type WebhookTransport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * Kept-alive connections, reused for the next delivery to the same checked address: undici keys
 * its pools by the origin connected to (the checked address and port), and a TLS connection made
 * for one server name is never reused for another (it reconnects when the name changes), so a
 * pooled connection always leads where the URL policy allowed. Idle connections close after 4 s
 * (sooner when the receiver's Keep-Alive says so), before Node's own servers drop theirs at 5 s.
 * undici rather than node:http: about half the CPU per request, which is most of a delivery's.
 */
const agent = new Agent({ keepAliveTimeout: 4000, keepAliveMaxTimeout: 4000 });

/**
 * The default transport: HTTP/1.1 over kept-alive connections, no redirects followed (a 3xx is
 * the answer), one deadline for connecting, sending and reading the excerpt. An answer read to
 * its end leaves its connection for the next delivery; one cut at the excerpt's size closes it.
 */
export const nodeTransport: WebhookTransport = (req) =>
  new Promise((resolve, reject) => {
    const https = req.url.protocol === 'https:';
    const address = req.address.family === 6 ? `[${req.address.address}]` : req.address.address;
    const port = req.url.port === '' ? (https ? 443 : 80) : Number(req.url.port);
    // An emitter, not an AbortController: undici takes either, and the controller's event target
    // cost more per request than the rest of the deadline's bookkeeping.
    const abort = new EventEmitter();
    let settled = false;
    const finish = (err: Error | null, value?: TransportResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value as TransportResponse);
    };
    const timer = setTimeout(() => {
      const err = new Error(`timed out after ${req.timeoutMs} ms`);
      finish(err);
      abort.emit('abort');
    }, req.timeoutMs);
    agent
      .request({
        origin: `${https ? 'https' : 'http'}://${address}:${port}`,
        path: `${req.url.pathname}${req.url.search}`,
        method: 'POST',
        // The Host header names the server: undici takes TLS's server name from it (none for an
        // IP literal), so the certificate is checked against the URL's host, not the address.
        headers: 'content-length' in req.headers ? req.headers : wireHeaders(req.url, req.headers, req.body),
        body: req.body,
        signal: abort,
        // The deadline above is the only one (undici's own timers would race it).
        headersTimeout: 0,
        bodyTimeout: 0,
      })
      .then(
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = (complete: boolean) => {
            // The rest of a long answer is never downloaded: its connection goes with it.
            if (!complete) res.body.destroy();
            finish(null, {
              status: res.statusCode,
              headers: res.headers as IncomingHttpHeaders,
              excerpt: Buffer.concat(chunks).subarray(0, req.maxExcerptBytes).toString('utf8'),
            });
          };
          res.body.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= req.maxExcerptBytes) done(false);
          });
          res.body.on('end', () => done(true));
          res.body.on('error', () => done(false));
        },
        (err: Error & { code?: string }) => {
          if (settled) return;
          const cause = (err as { cause?: Error & { code?: string } }).cause;
          const code = err.code ?? cause?.code;
          // Said the way node:http says it, which is what receivers' logs and search results use.
          if (code === 'UND_ERR_SOCKET') finish(new Error('socket hang up: the receiver closed the connection without answering'));
          else finish(new Error(code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message));
        },
      );
  });
