import { ERRORS } from './errors.ts';
import { LATEST_API_VERSION } from './versioning.ts';

const codes = Object.entries(ERRORS)
  .map(([code, { status, title }]) => `| ${status} | \`${code}\` | ${title} |`)
  .join('\n');

/** The OpenAPI document's head: where the contract is decided, it is written down here. */
export const openapiDocument = {
  openapi: '3.1.0' as const,
  info: {
    title: 'Caisse API',
    version: LATEST_API_VERSION,
    description: `Caisse is an open-source payment gateway.

## Authentication
Every request carries the API key (\`pk_test_…\` / \`pk_live_…\`) in \`x-api-key\`. Merchant-server
operations also take the secret key of the same merchant and mode as \`Authorization: Bearer sk_…\`.
Operations for an end user take that user's access token (from \`POST /auth/web\`) as
\`Authorization: Bearer <jwt>\`. Test and live mode never mix.

Each credential failure has its own code: \`api_key_missing\`, \`api_key_invalid\`,
\`api_key_revoked\`, \`api_key_expired\` (rolled and past its grace period),
\`secret_key_required\`, \`secret_key_invalid\`, \`secret_key_revoked\`, \`secret_key_expired\`,
\`key_mode_mismatch\` (a test key with a live secret key, or the reverse) and
\`key_merchant_mismatch\`. The contract lists only \`api_key_invalid\` for a key that does not
work; revoked and expired keys get their own codes so an integrator knows to rotate rather than
to look for a typo.

## Errors
Errors are RFC 9457 \`application/problem+json\` bodies:
\`{type: "/errors/<code>", title, status, detail, code, param?, errors?, requestId}\`. Every answer
carries a \`request-id\` header. The codes:

| Status | Code | Meaning |
|---|---|---|
${codes}

## Versioning
Send \`pay-version: YYYY-MM-DD\` to choose a version; without it the merchant's pinned version is
used. Every answer names the version it used in its \`pay-version\` header.

## Idempotency
Any POST may carry \`Idempotency-Key: <1–255 visible ASCII characters>\` (a UUID is a good choice).
Keys are scoped to the merchant and mode. The same key with the same request (method, path, user
and body, compared as canonical JSON) within 24 hours replays the first answer — same status and
body — with \`Idempotent-Replayed: true\` and \`Original-Request: <its request-id>\`. The same key
with another request is 422 \`idempotency_key_reused\`; while the first request still runs, 409
\`idempotency_request_in_progress\` (retry shortly). Every answer the operation itself gave is kept,
4xx included (a 409 or 402 replays as such); a request refused before the operation ran
(authentication, 400 validation of the body) is not kept, so fix it and reuse the key; a 5xx
releases the key, so a retry runs again. A key held by a request whose process died is released
after 60 seconds. Several server processes on one PostgreSQL share the keys.

## Payment intents
States are upper case: PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED,
PARTIALLY_REFUNDED, REFUNDED. The moves: PENDING → SUCCEEDED (\`payment.completed\`), PENDING →
PENDING while charge attempts are left and → FAILED after the third (\`payment.failed\`), PENDING
→ EXPIRED (\`payment.expired\`), PENDING → CANCELED (\`payment.canceled\`), PENDING → PROCESSING
(then as PENDING), SUCCEEDED or PARTIALLY_REFUNDED → PARTIALLY_REFUNDED / REFUNDED
(\`payment.refunded\`). Any other move is 409 \`intent_state_invalid\`; any move out of an expired
intent is 409 \`intent_expired\`.

An intent expires at its \`expiresAt\` (that instant included): every read from then on shows
EXPIRED, before the background sweeper records the move and its \`payment.expired\` event (within
seconds). The sweeper keeps \`updatedAt\` at \`expiresAt\`, so the intent reads the same before and
after. Events carry the intent in its merchant shape (with metadata, without session token) and
are written in the merchant's pinned API version.
`,
  },
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey' as const, in: 'header', name: 'x-api-key' },
      secretKey: { type: 'http' as const, scheme: 'bearer', description: 'Secret key sk_test_… / sk_live_…' },
      accessToken: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT', description: 'User access token from POST /auth/web' },
    },
  },
};
