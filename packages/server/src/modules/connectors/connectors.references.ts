import { createHmac } from 'node:crypto';
import { type RandomBytes, safeEqual, systemRandom } from '../../platform/crypto.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A new request reference: a UUID v4 (RFC 9562), lower case, from the injected random source.
 * MTN requires this form for X-Reference-Id; other providers take it as an opaque string.
 */
export function newReference(random: RandomBytes = systemRandom): string {
  const b = Buffer.from(random(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isReference(value: string): boolean {
  return UUID_V4.test(value);
}

/**
 * Callback URLs carry a token bound to one provider, kind and reference: HMAC-SHA256 under a key
 * derived from the deployment's secret. Whoever sees one URL can only make us re-check that one
 * request, and no URL can be made up for another (docs/decisions/0018-connectors.md).
 */
export function callbackSigner(secret: Buffer, provider: string) {
  const key = createHmac('sha256', secret).update(`caisse connector callbacks v1 ${provider}`).digest();
  const sign = (kind: string, reference: string) => createHmac('sha256', key).update(`${kind}/${reference}`).digest('base64url');
  return {
    sign,
    verify: (kind: string, reference: string, token: string) => safeEqual(sign(kind, reference), token),
  };
}
