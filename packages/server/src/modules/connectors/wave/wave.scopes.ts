/**
 * The Wave APIs an API key may be limited to (chosen when the key is made in Wave's Business
 * Portal): a checkout-only key cannot pay out, a payout-only key cannot take payments or refund
 * them. Known per account by the `scopes` setting (CAISSE_WAVE_SCOPES), so that Caisse refuses
 * what the key cannot do before calling Wave (docs/decisions/0079-wave-as-wave-does.md).
 */
export const WAVE_SCOPES = ['checkout', 'payout', 'balance', 'merchant'] as const;
export type WaveScope = (typeof WAVE_SCOPES)[number];

/** What a key may call when the account names no scopes: the two APIs Caisse uses. */
export const DEFAULT_WAVE_SCOPES: readonly WaveScope[] = ['checkout', 'payout'];

/** `checkout,payout` read as scopes, or why not. */
export function parseWaveScopes(text: string): { ok: true; scopes: WaveScope[] } | { ok: false; message: string } {
  const names = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  if (names.length === 0) return { ok: false, message: `must name at least one Wave API (${WAVE_SCOPES.join(', ')})` };
  const unknown = names.find((n) => !(WAVE_SCOPES as readonly string[]).includes(n));
  if (unknown !== undefined) return { ok: false, message: `"${unknown}" is not a Wave API; known: ${WAVE_SCOPES.join(', ')}` };
  return { ok: true, scopes: [...new Set(names)] as WaveScope[] };
}

/** The Wave API a path belongs to (the sandbox refuses a key's call outside its scopes). */
export function scopeOfPath(path: string): WaveScope | undefined {
  if (path.startsWith('/v1/checkout/')) return 'checkout';
  if (path.startsWith('/v1/payout')) return 'payout';
  if (path.startsWith('/v1/balance') || path.startsWith('/v1/transactions')) return 'balance';
  if (path.startsWith('/v1/aggregated_merchants')) return 'merchant';
  return undefined;
}

export const WEBHOOK_STRATEGIES = ['signing', 'shared'] as const;
/**
 * How Wave authenticates the webhooks of an endpoint, as chosen when it is registered: `signing`
 * (a `Wave-Signature` HMAC over the timestamp and body) or `shared` (the secret itself, as
 * `Authorization: Bearer <secret>`).
 */
export type WaveWebhookStrategy = (typeof WEBHOOK_STRATEGIES)[number];
