import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

/** The headers a request goes out with: its own, the Host it names and the body's length. */
export function wireHeaders(url: URL, headers: Record<string, string>, body: string): Record<string, string> {
  return { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body, 'utf8')) };
}

/** Sends one request; rejects on a network failure or timeout with an Error that says what happened. */
export type WebhookTransport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * Kept-alive connections, reused for the next delivery to the same checked address (agents key
 * their sockets by the address connected to, the port and, for TLS, the server name: a pooled
 * socket always leads where the URL policy allowed). Idle sockets close after 4 s, before the
 * 5 s after which Node's own servers drop them.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4000, maxFreeSockets: 256 };
const agents = { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) };

/**
 * The default transport: node:http(s) over kept-alive connections, no redirects followed (a 3xx
 * is the answer), one deadline for connecting, sending and reading the excerpt. An answer read
 * to its end leaves its connection for the next delivery; one cut at the excerpt's size closes
 * it. A reused connection that the receiver had closed meanwhile is tried again once on a new one.
 */
export const nodeTransport: WebhookTransport = (req) =>
  send(req, true).catch((err: Error & { reusedSocket?: boolean }) => {
    if (err.reusedSocket !== true) throw err;
    return send(req, false);
  });

function send(req: TransportRequest, pooled: boolean): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const host = hostOf(req.url);
    const https = req.url.protocol === 'https:';
    const body = Buffer.from(req.body, 'utf8');
    let settled = false;
    let answered = false;
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
      agent: pooled ? (https ? agents.https : agents.http) : (false as const),
      headers: wireHeaders(req.url, req.headers, req.body),
      // TLS: the certificate is checked against the URL's host name, not the address.
      ...(https ? { servername: isIP(host) ? undefined : host } : {}),
    };
    const outgoing = (https ? httpsRequest : httpRequest)(options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (complete: boolean) => {
        // The rest of a long answer is never downloaded: its connection goes with it.
        if (!complete) res.destroy();
        finish(null, { status: res.statusCode ?? 0, headers: res.headers, excerpt: Buffer.concat(chunks).subarray(0, req.maxExcerptBytes).toString('utf8') });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= req.maxExcerptBytes) done(false);
      });
      res.on('end', () => done(true));
      res.on('error', () => done(false));
      res.on('aborted', () => done(false));
    });
    const timer = setTimeout(() => {
      const err = new Error(`timed out after ${req.timeoutMs} ms`);
      finish(err);
      outgoing.destroy(err);
    }, req.timeoutMs);
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      const failure: Error & { reusedSocket?: boolean } = new Error(err.code ? `${err.code}: ${err.message}` : err.message);
      // Closed by the receiver while it sat in the pool: nothing was received, try a new connection.
      if (outgoing.reusedSocket && err.code === 'ECONNRESET' && !answered) failure.reusedSocket = true;
      finish(failure);
    });
    outgoing.end(body);
  });
}
