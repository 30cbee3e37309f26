import { ERRORS } from './errors.ts';
import { LATEST_API_VERSION } from './versioning.ts';

const codes = Object.entries(ERRORS)
  .map(([code, { status, title }]) => `| ${status} | \`${code}\` | ${title} |`)
  .join('\n');

/** The OpenAPI document's head: where the specification is decided, it is written down here. */
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

Credential failures answer 401 with \`api_key_missing\`, \`api_key_invalid\`,
\`secret_key_required\` or \`secret_key_invalid\`. A known key that may not be used says why
in the problem's \`reason\`: \`revoked\` or \`expired\` (rolled and past its grace period) with
\`api_key_invalid\` or \`secret_key_invalid\`, so an integrator knows to rotate rather than to
look for a typo; \`other_merchant\` or \`other_mode\` with \`secret_key_required\`, for a
secret key of another merchant or mode than the API key's. A key sent in the wrong place (a
secret key as \`x-api-key\` or as a customer's token, an API key as the secret key) is named for
what it is in the problem's \`detail\`.

## Restricted keys
A restricted key (\`rk_test_…\` / \`rk_live_…\`) goes where a secret key goes
(\`Authorization: Bearer rk_…\`, with the API key of the same merchant and mode) and may do only
what its permissions say: \`none\`, \`read\` or \`write\` (which includes read) for each of
\`payments\` (intents), \`refunds\`, \`payouts\` (and the payout schedule), \`customers\`,
\`balance\`, \`webhooks\` (endpoints, their secrets, resending events), \`events\` and
\`payment_links\`. Each secret-key operation below names the permission it needs; one that names
none takes a secret key only. A key without the permission gets 403 \`permission_denied\`, whose
\`detail\` and \`permission\` name it (\`payouts:write\`). Restricted keys are created, named,
rolled (keeping their permissions) and revoked like secret keys, from the dashboard or with
\`npx caisse keys create --kind restricted --permissions payments:read,balance:read\`; they are
stored as hashes and shown once. Secret keys keep every permission.

## End users and access tokens
A customer is one account on the whole platform, in each mode: one phone number, one password,
one wallet, whichever merchant they pay (a merchant sees a customer once they started paying one of
its intents, and never their wallet's balance). Phone numbers are taken as people write them: without a country
code in the merchant's country (\`670000001\` for a Cameroonian merchant), with \`+\` or \`00\` in their own; spaces, dots
and dashes allowed. A number that is not a mobile number of its country (libphonenumber) is \`phone_invalid\`, with
\`country\` and \`example\` in the problem. They are stored and answered in E.164 (\`+237670000001\`). Passwords need 8 characters and are refused when very common, a simple
sequence or the phone number (\`password_weak\`); they are kept as argon2id hashes (19 MiB, t=2).
\`POST /test/users\` skips the strength rules (test data only).

Registration sends a 6-digit code by SMS, valid 10 minutes, 5 tries (\`otp_incorrect\` with
\`attemptsRemaining\`, then 429 \`otp_attempts_exceeded\`); \`otp_expired\` once it is too old;
\`POST /users/verify-phone/resend\` sends a new one (one per 30 s, 5 per 15 min). **A user whose
phone is not verified cannot sign in**: \`POST /auth/web\` answers 403 \`phone_not_verified\`, and
only to the right password (a wrong one is \`invalid_credentials\` as for any phone).

\`POST /auth/web\` gives one answer (401 \`invalid_credentials\`) and does the same work for an
unknown phone number and a wrong password. Each attempt counts before the password is checked; 5
failures for one phone number from one client address within 15 minutes answer 429
\`login_locked\` with \`Retry-After\` until the oldest of them is 15 minutes old, and 100 from
all addresses within 24 hours lock the number itself; a success clears the count.

Access tokens are JWTs signed EdDSA (Ed25519) with a \`kid\` header and \`typ: at+jwt\`:
\`iss: caisse\`, \`sub\` = user id, \`aud\` = merchant id, \`mode\`, \`roles\`, \`iat\`, \`exp\` (15
minutes), \`jti\`. Public keys are at \`/.well-known/jwks.json\`. A signing key is made on first use
and replaced after 30 days or by \`caisse signing-keys rotate\`; a replaced key stays published
20 minutes, so tokens it signed keep working until they expire. A token presented with an API key
of another merchant or mode, expired, unsigned, signed by another key or altered answers 401
\`access_token_invalid\`.

## Wallets and the ledger
\`GET /wallet\` shows the signed-in user's balances (\`[{currency, amount}]\`, amounts as strings)
and the 20 latest movements (signed amounts). Balances come from a double-entry ledger: every
transfer's postings sum to zero per currency (checked in code and by the database at commit), a
wallet never goes below zero (402 \`insufficient_funds\`; a CHECK constraint guards it too), and
\`caisse ledger verify\` recomputes every balance from the postings. Test-mode helpers (secret key,
test mode only, 404 in live mode): \`POST /test/users\`, \`POST /test/wallets/fund\` and
\`GET /test/messages\` (the outbox: test mode never sends a real SMS or e-mail).

## Errors
Errors are RFC 9457 \`application/problem+json\` bodies:
\`{type: "/errors/<code>", title, status, detail, code, param?, errors?, requestId}\`. Every answer
carries a \`request-id\` header. The codes:

| Status | Code | Meaning |
|---|---|---|
${codes}

## Transport, browsers and limits
**HTTPS.** In production mode a request that did not arrive over TLS is refused with 403
\`https_required\`: TLS terminated by the server itself, or by a configured trusted proxy that says
\`X-Forwarded-Proto: https\` (the header is believed from no one else). \`/healthz\`, \`/readyz\`
and \`/metrics\` still answer plain HTTP from the machine itself (loopback, not relayed by a proxy),
for local probes. Development mode accepts plain HTTP. Every answer carries
\`Strict-Transport-Security: max-age=31536000; includeSubDomains\`, \`X-Content-Type-Options:
nosniff\`, \`X-Frame-Options: DENY\`, \`Referrer-Policy: no-referrer\` and a Content-Security-Policy
(\`default-src 'none'; frame-ancestors 'none'\` for the API, whose answers are also
\`Cache-Control: no-store\`; the pages under \`/docs\`, \`/dashboard\` and \`/checkout\` may load
their own scripts, styles and images).

**Browsers (CORS).** Operations opened by an API key alone or by a user's access token may be
called from a browser; merchant-server (secret-key) operations never: any request to them that
carries an \`Origin\` header is 403 \`origin_not_allowed\` and gets no CORS headers. A preflight
carries no key, so it is answered from the operation alone: 204 allowing the asking origin, the
methods of that path, the headers \`x-api-key, authorization, content-type, pay-version,
idempotency-key, x-otp-token\`, cached 600 s; 403 \`origin_not_allowed\` for a secret-key
operation. The real request is then checked against its API key's allowed origins: an origin not
listed is 403 \`origin_not_allowed\` without CORS headers. A key that lists no origin may be used
from any origin; a page of this server calling its own API is not cross-origin. Browsers can read
\`request-id\`, \`pay-version\`, \`idempotent-replayed\`, \`retry-after\`, \`ratelimit\` and the
\`ratelimit-*\` headers.

**Limits.** A body is at most 64 KiB (413 \`payload_too_large\`, checked from \`Content-Length\`
before the keys are looked at), JSON nested at most 32 deep, without \`__proto__\` or
\`constructor.prototype\` members (400 \`json_invalid\`, the detail says which). Each API key may
make 100 requests per second in live mode and 25 in test mode, over all operations (the count is
per key id, after authentication; a request whose credentials are refused is not counted). Login,
registration and the phone-code routes also take 20 requests per minute per client address with
live keys. Windows are fixed, one second (one minute per address) long; the counters are shared by
every server process when Redis is configured. Every counted answer carries \`RateLimit-Limit\`,
\`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the window ends; the separate-header
form of the IETF RateLimit draft), the same figures as one \`RateLimit: limit=25, remaining=24,
reset=1\` field with \`RateLimit-Policy: 25;w=1\`, and over a limit the answer is 429
\`rate_limited\` with \`Retry-After\` (seconds).

**Secrets.** Logs and error bodies never carry keys, tokens, passwords, one-time codes or whole
phone numbers (phone numbers show their first three and last two digits).

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
(\`payment.refunded\`). Any other move is 409 \`intent_state_invalid\` (with \`intentStatus\`),
but a charge of an expired intent, which is 409 \`intent_expired\`.

An intent expires at its \`expiresAt\` (that instant included): every read from then on shows
EXPIRED, before the background sweeper records the move and its \`payment.expired\` event (within
seconds). The sweeper keeps \`updatedAt\` at \`expiresAt\`, so the intent reads the same before and
after. Events carry the intent in its merchant shape (with metadata, without session token) and
are written in the merchant's pinned API version.

## Strong customer authentication and the charge
The browser pays in four steps: the merchant's server creates the intent; \`POST /otp/init\`
sends a code; \`POST /otp/verify\` exchanges it for an authorization token; \`POST /charge\` pays.
The three user operations take the API key and the user's access token, whose \`sub\` must be the
body's \`userId\` (403 \`user_mismatch\`): the password-backed token and the code are the two
factors.

- **Codes.** 6 digits (uniform), sent by SMS to the verified phone or by e-mail to the address on
  file (422 \`email_missing\` without one; 403 \`phone_not_verified\`). The message begins with
  the code; with \`intentionId\` (a PENDING intent of the same merchant and mode, else 404 /
  409) it also names the amount, currency and merchant, and the authorization is bound to that
  intent (dynamic linking). Kept only as HMAC-SHA256 under the master key, salted with the
  code's id, compared in constant time. A user has one live code, the newest: a new one voids the
  others. 5 minutes; 5 wrong tries, then 429 \`otp_attempts_exceeded\` (Retry-After: when a new
  code may be sent) until initOtp sends a new one. Sends per user: one per 30 s and 5 per 15
  minutes (429 \`otp_rate_limited\` with Retry-After), counted under a per-user lock so parallel
  requests cannot slip past; \`resendAvailableAt\` says when the next is allowed. A code the
  provider refused (503 \`unavailable\`) is forgotten: not live, not counted.
- **verifyOtp.** A wrong code is 400 \`otp_incorrect\` with \`attemptsRemaining\` and nothing
  more. No live code at all (never sent, expired, already exchanged) is the same 400
  \`otp_incorrect\` with \`attemptsRemaining: 0\`: one code for both, since the client does
  the same thing either way (ask for a new code). The answer \`{object,
  authorizationToken, expiresAt, userId, intentionId}\` carries an opaque \`otp_…\` token (256
  random bits), single use, 10 minutes, bound to the user and, when the code was sent for one,
  to the intent (\`intentionId\` is null otherwise: the token then pays any one intent of the
  merchant and mode). Only its SHA-256 is stored.
- **charge.** \`x-otp-token\` missing: 401 \`otp_token_missing\` (checked with the other
  credentials, before the body). One database transaction: lock the intent; 404 if it is not the
  caller's merchant's and mode's; 409 \`intent_expired\` past \`expiresAt\` (recording the
  expiry and \`payment.expired\` if the sweeper had not); 409 \`intent_state_invalid\` unless
  PENDING (with \`intentStatus\`); spend the token (401 \`otp_token_invalid\`: unknown, expired,
  used, another user's, bound to another intent, or of another mode — a refused token is not
  spent); move the amount from the user's wallet to the merchant's balance; SUCCEEDED,
  \`attempts\` + 1, \`lastError\` null, \`payment.completed\`. None of the refusals moves money.
  Concurrent charges of one intent queue on its row lock: exactly one succeeds, the others get
  409 \`intent_state_invalid\` and keep their tokens. The answer is the intent in its **public
  shape** (no metadata, no session token), because the browser calls it; the merchant reads the
  full intent with its secret key or from the webhook — fulfil orders on \`payment.completed\`,
  not on the browser's result.
- **Declined.** A wallet without enough: 402 \`insufficient_funds\` (with \`intentStatus\`
  and \`attempts\`). The attempt is committed before the answer: \`attempts\` + 1,
  \`lastError: {code: "insufficient_funds", message}\` (the message names the amount, never the
  wallet's balance), \`payment.failed\`, the token spent; the third declined attempt moves the
  intent to FAILED. Every attempt is recorded with the paying user (\`charges\` table).
- **Refunds.** \`POST /gateway/{id}/refunds {amount?, reason?}\` (secret key) → 201
  \`{id: "re_…", object: "refund", amount, currency, intentId, status: "succeeded", reason,
  createdAt}\`. Default amount: all that is left; more than is left is 422
  \`refund_exceeds_amount\` (with \`amountRefundable\`); only a SUCCEEDED or
  PARTIALLY_REFUNDED intent can be refunded (409 \`intent_state_invalid\`). One transaction
  under the intent's row lock: merchant balance → the paying user's wallet, PARTIALLY_REFUNDED or
  REFUNDED, \`amountRefunded\` grows, \`payment.refunded\`. Concurrent refunds never exceed the
  amount. The merchant's balance may go below zero for a refund (the customer is paid back
  first; with payouts, a negative balance is the merchant's debt); a user wallet never can.

## Webhooks
Every event is POSTed, as the raw JSON of \`GET /events/{id}\`, to each enabled endpoint of its
merchant and mode that wants its type (\`enabledEvents\`; \`["*"]\` = all). Headers:
\`content-type: application/json\`; \`pay-signature: t=<unix seconds>,v1=<hex>\` where the hex is
HMAC-SHA256 of \`"<t>.<raw body>"\` keyed with the whole secret string \`whsec_…\` as UTF-8 (Stripe's
\`constructEvent\` verifies it); and the Standard Webhooks v1 headers \`webhook-id\` (the event id),
\`webhook-timestamp\`, \`webhook-signature: v1,<base64>\` keyed with the base64-decoded bytes after
\`whsec_\`. While a rolled secret still signs, each header carries one signature per secret
(\`,v1=…\` / space-separated \`v1,…\`). Verifiers should refuse timestamps older than 300 s.

Any 2xx within 10 s acknowledges; anything else (3xx: redirects are not followed; timeouts;
resets) is retried with exponential backoff and jitter (first retry within a minute, doubling up
to 6 h) for 3 days, then the delivery is \`failed\`. A \`Retry-After\` answer (seconds or HTTP date)
sets the next try, between 1 s and 24 h. 410 disables the endpoint (\`disabledReason: "gone"\`), as
do 5 days of failures only (\`"failing"\`); a disabled endpoint gets no new deliveries and its
pending ones wait until it is enabled again. At least once, unordered: dedupe by event \`id\`.

The signing secret is shown at creation, by \`GET /webhook-endpoints/{id}/secret\` (the explicit
reveal, with any rolled secret still signing) and by \`roll-secret\`; it is stored encrypted
(AES-256-GCM under \`CAISSE_MASTER_KEY\`). At most 16 endpoints per merchant and mode: the 17th is
422 \`limit_exceeded\`. URLs: absolute http(s), no credentials, no fragment, at most 2048
characters; live mode https only and public addresses only (checked at creation when the host
resolves, and again before every delivery, connecting to the checked address); private,
link-local and other special ranges are refused in every mode; test mode may use loopback when the
server allows it. Bad URL: 400 \`url_invalid\`; unknown event type: 400 \`validation_error\`.
`,
  },
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey' as const, in: 'header', name: 'x-api-key' },
      secretKey: {
        type: 'http' as const,
        scheme: 'bearer',
        description: 'Secret key sk_test_… / sk_live_…, or a restricted key rk_test_… / rk_live_… (its permissions only)',
      },
      accessToken: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT', description: 'User access token from POST /auth/web' },
      sessionToken: {
        type: 'apiKey' as const,
        in: 'header',
        name: 'x-session-token',
        description: "The intent's session token (ps_…): the direct mobile-money charge",
      },
    },
  },
};
