import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './errors.ts';
import type { CaisseEvent } from './types.ts';

/** Seconds a signature's timestamp may be from now (docs/spec/webhooks.md: 300 s by default). */
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = 'pay-signature';
/** Webhook endpoint secrets are `whsec_` and base64 of 32 random bytes. */
const SECRET_PREFIX = 'whsec_';

export interface ConstructEventOptions {
  /** Seconds the `t=` timestamp may differ from now; default 300. `Infinity` skips the check. */
  tolerance?: number;
  /** The current time (tests): a Date or milliseconds since the epoch. */
  now?: Date | number;
}

type RawBody = string | Uint8Array;

function bodyBytes(rawBody: unknown): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new TypeError(
    'constructEvent needs the raw request body as a string or Buffer, exactly as received; ' +
      'a parsed and re-serialised JSON body does not match its signature',
  );
}

function sign(secret: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(body).digest();
}

/** Reads `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; unknown schemes (`v0=`, future `v2=`) are ignored. */
function parseHeader(header: string): { timestamp: string; signatures: Buffer[] } {
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,15}$/.test(value)) timestamp = value;
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookSignatureError('signature_header_invalid', `The ${SIGNATURE_HEADER} header has no t= timestamp or no v1= signature`);
  }
  return { timestamp, signatures };
}

/**
 * Verifies a webhook delivery and returns its event. Pass the body exactly as received (string
 * or Buffer, before any JSON parsing), the `pay-signature` header and the endpoint's `whsec_`
 * secret (or several, while a secret is being rolled). Throws WebhookSignatureError when the
 * header is missing or malformed, the timestamp is outside the tolerance, or no signature
 * matches; answer such a request with 400 and do not act on it.
 */
export function constructEvent(
  rawBody: RawBody,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options: ConstructEventOptions = {},
): CaisseEvent {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('constructEvent needs the endpoint secret (whsec_…)');
  }
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError('tolerance is a number of seconds, 0 or more');
  }
  const body = bodyBytes(rawBody);
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : (signatureHeader as string | null | undefined);
  if (header === undefined || header === null || header.trim() === '') {
    throw new WebhookSignatureError('signature_header_missing', `The request has no ${SIGNATURE_HEADER} header`);
  }
  const { timestamp, signatures } = parseHeader(header);

  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const age = Math.floor(nowMs / 1000) - Number(timestamp);
  if (Math.abs(age) > tolerance) {
    throw new WebhookSignatureError(
      'timestamp_outside_tolerance',
      `The signature's timestamp is ${Math.abs(age)} s ${age >= 0 ? 'old' : 'in the future'}, beyond the tolerance of ${tolerance} s`,
    );
  }

  // Every expected signature is compared with every received one, each in constant time.
  let matched = false;
  for (const s of secrets) {
    const expected = sign(s, timestamp, body);
    for (const candidate of signatures) if (timingSafeEqual(expected, candidate)) matched = true;
  }
  if (!matched) {
    throw new WebhookSignatureError('signature_mismatch', 'No signature matches the body and the endpoint secret');
  }

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('payload_invalid', 'The signed body is not JSON');
  }
  if (event === null || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookSignatureError('payload_invalid', 'The signed body is not an event');
  }
  return event as CaisseEvent;
}

/**
 * A `pay-signature` header value for a payload, as Caisse would send it: for testing your
 * webhook handler without a server.
 */
export function generateTestHeader(params: { payload: RawBody; secret: string; timestamp?: number }): string {
  const timestamp = String(params.timestamp ?? Math.floor(Date.now() / 1000));
  return `t=${timestamp},v1=${sign(params.secret, timestamp, bodyBytes(params.payload)).toString('hex')}`;
}

/** The Standard Webhooks key: the base64-decoded text after `whsec_`. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The signature headers of a delivery, both families. */
export interface SignatureHeaders {
  'pay-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Every signature header Caisse sends with a delivery of `payload`, for testing a webhook
 * handler however it verifies: `pay-signature` (as `generateTestHeader`, for `constructEvent`)
 * and the Standard Webhooks `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (`v1,<base64>`, HMAC-SHA256 of `"<id>.<timestamp>.<body>"` keyed with the base64 bytes after
 * `whsec_`), which the Standard Webhooks libraries verify. `id` is the event id (default: the
 * payload's `id`). `caisse listen` signs the events it forwards with it.
 */
export function generateTestHeaders(params: { payload: RawBody; secret: string; id?: string; timestamp?: number }): SignatureHeaders {
  const body = bodyBytes(params.payload);
  const timestamp = String(params.timestamp ?? Math.floor(Date.now() / 1000));
  let id = params.id;
  if (id === undefined) {
    try {
      id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id as string | undefined;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string' || id === '') throw new TypeError('generateTestHeaders needs an id: the payload has none');
  }
  const standard = createHmac('sha256', standardKey(params.secret)).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');
  return {
    'pay-signature': `t=${timestamp},v1=${sign(params.secret, timestamp, body).toString('hex')}`,
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${standard}`,
  };
}
