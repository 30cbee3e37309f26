import { createHmac } from 'node:crypto';
import type { RandomBytes } from '../../platform/crypto.ts';

/**
 * Webhook signatures (docs/spec/webhooks.md). Two families, so receivers can use either kind of verifier:
 *
 * - `pay-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `"<t>.<raw body>"`
 *   keyed with the whole secret string (`whsec_…`) as UTF-8, the way Stripe's libraries key
 *   theirs. One `v1=` per live secret while a secret is being rolled.
 * - Standard Webhooks v1: `webhook-id` (the event id), `webhook-timestamp` (unix seconds) and
 *   `webhook-signature: v1,<base64>[ v1,<base64>…]`, HMAC-SHA256 of
 *   `"<webhook-id>.<timestamp>.<raw body>"` keyed with the base64-decoded bytes after `whsec_`.
 *
 * The body is signed as the exact bytes sent, never re-serialised.
 */

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(random: RandomBytes): string {
  return SECRET_PREFIX + random(32).toString('base64');
}

/** The key bytes the Standard Webhooks family uses: base64-decoded text after `whsec_`. */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function paySignature(secrets: readonly string[], timestamp: number, body: string): string {
  const parts = [`t=${timestamp}`];
  for (const secret of secrets) {
    parts.push(`v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`);
  }
  return parts.join(',');
}

export function standardSignature(secrets: readonly string[], msgId: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${createHmac('sha256', standardKey(secret)).update(`${msgId}.${timestamp}.${body}`, 'utf8').digest('base64')}`).join(' ');
}

/** Every header a delivery carries besides the transport's own. */
export function signedHeaders(secrets: readonly string[], eventId: string, now: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Caisse-Webhooks/1.0',
    'pay-signature': paySignature(secrets, timestamp, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secrets, eventId, timestamp, body),
  };
}
