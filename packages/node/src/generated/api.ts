// Generated from the Caisse server's OpenAPI document by packages/node/scripts/generate-types.ts.
// Do not edit: change the server's route schemas, then run `npm run generate:types` at the root.

/** The API version these types describe; the SDK sends it as `pay-version`. */
export const API_VERSION = "2026-11-01";

export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public keys of user access tokens (JWK Set)
         * @description Ed25519 keys (`kty: OKP`). After a rotation the previous key stays here until every token it signed has expired.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                alg: string;
                                crv: string;
                                kid: string;
                                kty: string;
                                use: string;
                                x: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/web": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Authenticate a user
         * @description Phone number and password → a 15-minute access token (JWT, EdDSA/Ed25519, `kid` header; claims `sub` = user id, `aud` = merchant id, `mode`, `roles`). Verify it with the keys at `/.well-known/jwks.json`. The token works only with API keys of the same merchant and mode.
         *
         *     Errors: `invalid_credentials` (401, the same answer for an unknown phone number and a wrong password), `login_locked` (429 with `Retry-After` after 5 failures for one phone number within 15 minutes), `phone_not_verified` (403, right password but the phone was never verified), `phone_invalid`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                        /**
                         * @description E.164: a plus sign, the country code and the number, digits only (no spaces).
                         * @example +237650000000
                         */
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description The user id */
                            id: string;
                            phoneNumber: string;
                            /** @description Always contains USER */
                            roles: string[];
                            /** @description Access token: a JWT signed EdDSA (Ed25519), valid 15 minutes. Send it as `Authorization: Bearer <token>`. */
                            token: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant's balance per currency, in the key's mode */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description What charges brought in, less refunds, per currency */
                            available: {
                                /** @description Decimal string in major units ("5000" XAF, "12.50" EUR) */
                                amount: string;
                                /** @description ISO 4217 code */
                                currency: string;
                            }[];
                            livemode: boolean;
                            /** @enum {string} */
                            object: "balance";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/charge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a payment intent from the user's wallet (charge)
         * @description Pays the PENDING intent `intentionId` from the signed-in user's wallet with the single-use `authorizationToken` of verifyOtp in `x-otp-token`. In one database transaction: the intent is locked, its state and expiry checked, the token spent, the amount moved in the ledger from the user's wallet to the merchant's balance (intent's currency and mode), the intent moved to SUCCEEDED and `payment.completed` written. Two charges of one intent at once: exactly one succeeds, money moves once.
         *
         *     The answer is the intent in its public shape (as `GET /gateway/sessions/{sessionToken}`: no metadata, no session token), since the browser calls this with the API key. Fulfil orders on the `payment.completed` webhook, not on this answer.
         *
         *     Not enough in the wallet: 402 `insufficient_funds` (with `intentStatus` and `attempts`). That attempt is recorded: `attempts` + 1, `lastError` set, `payment.failed` written, the token spent; the third declined attempt moves the intent to FAILED. Verify a new code to try again.
         *
         *     Errors: `otp_token_missing` (401), `otp_token_invalid` (401: unknown, expired after 10 minutes, already used, issued to another user, bound to another intent, or of another mode — a refused token is not spent), `user_mismatch` (403: a `userId` that is not the access token's), `not_found` (404: unknown intent, or another merchant's or mode's), `intent_expired` (409), `intent_state_invalid` (409: CANCELED, SUCCEEDED, FAILED, refunded or PROCESSING). None of them moves money.
         *
         *     Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`), a 402 included.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The `authorizationToken` from `POST /otp/verify` (single use). Missing: 401 `otp_token_missing`. */
                    "x-otp-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The payment intent to pay (`pi_…`), of the API key's merchant and mode. */
                        intentionId: string;
                        /** @description Optional: the paying user (`usr_…`). When sent it must be the `sub` of the access token (else 403 `user_mismatch`); the payer is always the access token's user. */
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                             * @example 5000
                             */
                            amount: string;
                            /** @description Refunded so far, in major units like amount. */
                            amountRefunded: string;
                            /** @description Charge attempts made (at most 3). */
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                             * @example XAF
                             */
                            currency: string;
                            description: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description pi_… */
                            id: string;
                            /** @description Why the last charge attempt failed, or null. */
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_intent";
                            /**
                             * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                             * @enum {unknown}
                             */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /**
                             * Format: date-time
                             * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                             */
                            updatedAt: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{sessionToken}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The hosted checkout page of a payment intent
         * @description An HTML page for the customer: the merchant's name, the amount and description, then phone number and password, a code by SMS or e-mail, and pay. The page runs the browser client with the publishable API key of the intent's merchant and mode, which the server embeds in the page (a key named "Hosted checkout", made on first use and kept encrypted so it can be embedded; revoking it makes a new one). Never a secret key. An unknown token gets the page too, saying the link is not valid.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionToken: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant's balance per currency */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description What charges brought in, less refunds, per currency */
                            available: {
                                /** @description Decimal string in major units ("5000" XAF, "12.50" EUR) */
                                amount: string;
                                /** @description ISO 4217 code */
                                currency: string;
                            }[];
                            livemode: boolean;
                            /** @enum {string} */
                            object: "balance";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Events, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    /** @description An event type */
                    type?: "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded";
                };
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: ({
                                apiVersion: string;
                                /** Format: date-time */
                                createdAt: string;
                                data: {
                                    paymentIntent: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "event";
                                type: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send an event again */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Only this endpoint (it must be enabled); default: every enabled endpoint that wants the type */
                        endpointId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attemptCount: number;
                                /** @description Every attempt, oldest first */
                                attempts: {
                                    /** Format: date-time */
                                    attemptedAt: string;
                                    error: string | null;
                                    latencyMs: number;
                                    responseExcerpt: string | null;
                                    statusCode: number | null;
                                    succeeded: boolean;
                                }[];
                                completedAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                endpointId: string;
                                eventId: string;
                                id: string;
                                lastAttemptAt: string | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: string | null;
                                /** @enum {string} */
                                object: "webhook_delivery";
                                status: "pending" | "succeeded" | "failed";
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API keys and secret keys of the mode, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                allowedOrigins: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** @description The start and the end of the key, to recognise it */
                                display: string;
                                expiresAt: string | null;
                                id: string;
                                kind: "publishable" | "secret";
                                lastUsedAt: string | null;
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "api_key";
                                revokedAt: string | null;
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a key: the answer shows it in full, once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Browser origins allowed to use an API key (none: any) */
                        allowedOrigins?: string[];
                        /** @description publishable (pk_…, for browsers) or secret (sk_…, for your server) */
                        kind: "publishable" | "secret";
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowedOrigins: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The start and the end of the key, to recognise it */
                            display: string;
                            expiresAt: string | null;
                            id: string;
                            kind: "publishable" | "secret";
                            lastUsedAt: string | null;
                            mode: "test" | "live";
                            name: string;
                            /** @enum {string} */
                            object: "api_key";
                            revokedAt: string | null;
                            /** @description The whole key: shown this once, never stored */
                            secret: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/keys/{id}/allowed-origins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the browser origins allowed to use an API key */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Browser origins allowed to use an API key (none: any) */
                        allowedOrigins: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowedOrigins: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The start and the end of the key, to recognise it */
                            display: string;
                            expiresAt: string | null;
                            id: string;
                            kind: "publishable" | "secret";
                            lastUsedAt: string | null;
                            mode: "test" | "live";
                            name: string;
                            /** @enum {string} */
                            object: "api_key";
                            revokedAt: string | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a key now */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowedOrigins: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The start and the end of the key, to recognise it */
                            display: string;
                            expiresAt: string | null;
                            id: string;
                            kind: "publishable" | "secret";
                            lastUsedAt: string | null;
                            mode: "test" | "live";
                            name: string;
                            /** @enum {string} */
                            object: "api_key";
                            revokedAt: string | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/keys/{id}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll a key: a new one now, the old one working for the grace period */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description How long the old key keeps working (0: stops now; at most 7 days) */
                        graceSeconds: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            new: {
                                allowedOrigins: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** @description The start and the end of the key, to recognise it */
                                display: string;
                                expiresAt: string | null;
                                id: string;
                                kind: "publishable" | "secret";
                                lastUsedAt: string | null;
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "api_key";
                                revokedAt: string | null;
                                /** @description The whole key: shown this once, never stored */
                                secret: string;
                            };
                            old: {
                                allowedOrigins: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** @description The start and the end of the key, to recognise it */
                                display: string;
                                expiresAt: string | null;
                                id: string;
                                kind: "publishable" | "secret";
                                lastUsedAt: string | null;
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "api_key";
                                revokedAt: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The test-mode messages outbox (404 in live mode) */
        get: {
            parameters: {
                query: {
                    limit: number;
                    /** @description A message id: the page starts after it */
                    startingAfter?: string;
                    userId?: string;
                };
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description The text, holding the code */
                                body: string | null;
                                channel: "sms" | "email";
                                /** Format: date-time */
                                createdAt: string;
                                /** @description `msg_…` */
                                id: string;
                                /** @enum {string} */
                                object: "message";
                                provider: string;
                                status: string;
                                /** @description Phone number (sms) or e-mail address */
                                to: string;
                                userId: string | null;
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Payments, newest first, by status and creation date */
        get: {
            parameters: {
                query: {
                    /** @description Created at or after this instant (RFC 3339). */
                    createdGte?: string;
                    /** @description Created before this instant (RFC 3339). */
                    createdLt?: string;
                    limit: number;
                    startingAfter?: string;
                    status?: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                };
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /**
                                 * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                                 * @example 5000
                                 */
                                amount: string;
                                /** @description Refunded so far, in major units like amount. */
                                amountRefunded: string;
                                /** @description Charge attempts made (at most 3). */
                                attempts: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339, UTC, with milliseconds
                                 */
                                createdAt: string;
                                /**
                                 * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                                 * @example XAF
                                 */
                                currency: string;
                                description: string | null;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339, UTC, with milliseconds
                                 */
                                expiresAt: string;
                                /** @description pi_… */
                                id: string;
                                /** @description Why the last charge attempt failed, or null. */
                                lastError: {
                                    code: string;
                                    message: string;
                                } | null;
                                livemode: boolean;
                                /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                                metadata: {
                                    [key: string]: string | number | boolean;
                                };
                                /** @enum {string} */
                                object: "payment_intent";
                                /**
                                 * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                                 * @enum {unknown}
                                 */
                                status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                /**
                                 * Format: date-time
                                 * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                                 */
                                updatedAt: string;
                            }[];
                            hasMore: boolean;
                            /** @enum {string} */
                            object: "list";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A payment with its events and their webhook deliveries */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every webhook delivery of those events, newest first */
                            deliveries: {
                                attemptCount: number;
                                /** @description Every attempt, oldest first */
                                attempts: {
                                    /** Format: date-time */
                                    attemptedAt: string;
                                    error: string | null;
                                    latencyMs: number;
                                    responseExcerpt: string | null;
                                    statusCode: number | null;
                                    succeeded: boolean;
                                }[];
                                completedAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                endpointId: string;
                                eventId: string;
                                id: string;
                                lastAttemptAt: string | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: string | null;
                                /** @enum {string} */
                                object: "webhook_delivery";
                                status: "pending" | "succeeded" | "failed";
                            }[];
                            /** @description The payment's events, oldest first */
                            events: ({
                                apiVersion: string;
                                /** Format: date-time */
                                createdAt: string;
                                data: {
                                    paymentIntent: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "event";
                                type: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @enum {string} */
                            object: "dashboard_payment";
                            payment: {
                                /**
                                 * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                                 * @example 5000
                                 */
                                amount: string;
                                /** @description Refunded so far, in major units like amount. */
                                amountRefunded: string;
                                /** @description Charge attempts made (at most 3). */
                                attempts: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339, UTC, with milliseconds
                                 */
                                createdAt: string;
                                /**
                                 * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                                 * @example XAF
                                 */
                                currency: string;
                                description: string | null;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339, UTC, with milliseconds
                                 */
                                expiresAt: string;
                                /** @description pi_… */
                                id: string;
                                /** @description Why the last charge attempt failed, or null. */
                                lastError: {
                                    code: string;
                                    message: string;
                                } | null;
                                livemode: boolean;
                                /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                                metadata: {
                                    [key: string]: string | number | boolean;
                                };
                                /** @enum {string} */
                                object: "payment_intent";
                                /**
                                 * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                                 * @enum {unknown}
                                 */
                                status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                /**
                                 * Format: date-time
                                 * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                                 */
                                updatedAt: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/payments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel an open payment */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                             * @example 5000
                             */
                            amount: string;
                            /** @description Refunded so far, in major units like amount. */
                            amountRefunded: string;
                            /** @description Charge attempts made (at most 3). */
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                             * @example XAF
                             */
                            currency: string;
                            description: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description pi_… */
                            id: string;
                            /** @description Why the last charge attempt failed, or null. */
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_intent";
                            /**
                             * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                             * @enum {unknown}
                             */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /**
                             * Format: date-time
                             * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                             */
                            updatedAt: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/test-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a verified test user with a funded wallet (404 in live mode) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Opening wallet balance in major units ("0" or omitted: empty wallet). */
                        balance?: string;
                        /** @description Currency of the balance: XAF, XOF, EUR, USD (default XAF). */
                        currency?: string;
                        /**
                         * Format: email
                         * @description Optional e-mail address (for codes by e-mail).
                         */
                        email?: string;
                        /** @description Any non-empty password: test users skip the strength rules. */
                        password: string;
                        /**
                         * @description E.164: a plus sign, the country code and the number, digits only (no spaces).
                         * @example +237650000000
                         */
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            balances: {
                                /** @description Decimal string in major units ("5000" XAF, "12.50" EUR) */
                                amount: string;
                                /** @description ISO 4217 code */
                                currency: string;
                            }[];
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            email: string | null;
                            /** @description `usr_…` */
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "user";
                            phoneNumber: string;
                            phoneVerified: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook endpoints */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                };
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                createdAt: string;
                                description: string | null;
                                /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                                disabledReason: "manual" | "gone" | "failing" | null;
                                enabled: boolean;
                                enabledEvents: string[];
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "webhook_endpoint";
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add a webhook endpoint */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        enabled?: boolean;
                        /** @description Event types the endpoint receives. Absent, empty or `["*"]`: every type. */
                        enabledEvents?: ("payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "*")[];
                        /** @description Where events are POSTed. Live mode: https, resolving only to public addresses. Test mode: http or https; loopback when the server allows it. */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** @description The signing secret `whsec_…` */
                            secret: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook endpoint */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            deleted: true;
                            id: string;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a webhook endpoint */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        /** @description false disables the endpoint; true enables it again and resumes its pending deliveries */
                        enabled?: boolean;
                        /** @description Event types the endpoint receives. Absent, empty or `["*"]`: every type. */
                        enabledEvents?: ("payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "*")[];
                        /** @description Where events are POSTed. Live mode: https, resolving only to public addresses. Test mode: http or https; loopback when the server allows it. */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/dashboard/api/{mode}/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries to an endpoint, newest first */
        get: {
            parameters: {
                query?: {
                    eventId?: string;
                    limit?: number;
                    startingAfter?: string;
                };
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attemptCount: number;
                                /** @description Every attempt, oldest first */
                                attempts: {
                                    /** Format: date-time */
                                    attemptedAt: string;
                                    error: string | null;
                                    latencyMs: number;
                                    responseExcerpt: string | null;
                                    statusCode: number | null;
                                    succeeded: boolean;
                                }[];
                                completedAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                endpointId: string;
                                eventId: string;
                                id: string;
                                lastAttemptAt: string | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: string | null;
                                /** @enum {string} */
                                object: "webhook_delivery";
                                status: "pending" | "succeeded" | "failed";
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/webhook-endpoints/{id}/reveal-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reveal the signing secret (a POST, so it needs the CSRF token) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endpointId: string;
                            /** @enum {string} */
                            object: "webhook_endpoint_secret";
                            /** @description Previous secrets that still sign, beside the current one, until they expire */
                            rollingSecrets: {
                                /** Format: date-time */
                                expiresAt: string;
                                secret: string;
                            }[];
                            /** @description The current signing secret */
                            secret: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/{mode}/webhook-endpoints/{id}/roll-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll the signing secret */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description Which mode's objects: the dashboard's test/live switch. */
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Seconds the previous secret keeps signing beside the new one (default 24 h; 0 stops it at once)
                         * @default 86400
                         */
                        expiresIn?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** @description The signing secret `whsec_…` */
                            secret: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in to the dashboard
         * @description E-mail and password (argon2id). Sets the session cookie and answers the session with its `csrfToken`. Wrong e-mail or password: 401 `invalid_credentials` (one answer for both). 5 failures for an e-mail within 15 minutes: 429 `login_locked` with `Retry-After`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send it back as `x-csrf-token` on every POST, PATCH and DELETE of /dashboard/api. */
                            csrfToken: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @description When the session ends if left idle (30 minutes; 12 hours at most after sign-in).
                             */
                            expiresAt: string;
                            merchant: {
                                id: string;
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: ends the session and clears the cookie */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in session, with its CSRF token */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send it back as `x-csrf-token` on every POST, PATCH and DELETE of /dashboard/api. */
                            csrfToken: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @description When the session ends if left idle (30 minutes; 12 hours at most after sign-in).
                             */
                            expiresAt: string;
                            merchant: {
                                id: string;
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    /** @description An event type */
                    type?: "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: ({
                                apiVersion: string;
                                /** Format: date-time */
                                createdAt: string;
                                data: {
                                    paymentIntent: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "event";
                                type: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event, as delivered */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apiVersion: string;
                            /** Format: date-time */
                            createdAt: string;
                            data: {
                                paymentIntent: {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            };
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "event";
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event again
         * @description Creates new deliveries, due at once: to `endpointId` (409 `endpoint_disabled` if it is disabled), or to every enabled endpoint that wants the event type.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Only this endpoint (it must be enabled); default: every enabled endpoint that wants the type */
                        endpointId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attemptCount: number;
                                /** @description Every attempt, oldest first */
                                attempts: {
                                    /** Format: date-time */
                                    attemptedAt: string;
                                    error: string | null;
                                    latencyMs: number;
                                    responseExcerpt: string | null;
                                    statusCode: number | null;
                                    succeeded: boolean;
                                }[];
                                completedAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                endpointId: string;
                                eventId: string;
                                id: string;
                                lastAttemptAt: string | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: string | null;
                                /** @enum {string} */
                                object: "webhook_delivery";
                                status: "pending" | "succeeded" | "failed";
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment intents
         * @description Newest first, `limit` per page (1–100, default 20). For the next page pass the last id as `startingAfter`. `status` filters as a reader sees it: `EXPIRED` includes PENDING intents past their expiresAt not yet swept, and `PENDING` leaves them out.
         */
        get: {
            parameters: {
                query: {
                    /** @description Page size, 1–100 (default 20). */
                    limit: number;
                    /** @description The last id of the previous page: the next page starts after it. */
                    startingAfter?: string;
                    /** @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once. */
                    status?: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /**
                                 * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                                 * @example 5000
                                 */
                                amount: string;
                                /** @description Refunded so far, in major units like amount. */
                                amountRefunded: string;
                                /** @description Charge attempts made (at most 3). */
                                attempts: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339, UTC, with milliseconds
                                 */
                                createdAt: string;
                                /**
                                 * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                                 * @example XAF
                                 */
                                currency: string;
                                description: string | null;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339, UTC, with milliseconds
                                 */
                                expiresAt: string;
                                /** @description pi_… */
                                id: string;
                                /** @description Why the last charge attempt failed, or null. */
                                lastError: {
                                    code: string;
                                    message: string;
                                } | null;
                                livemode: boolean;
                                /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                                metadata: {
                                    [key: string]: string | number | boolean;
                                };
                                /** @enum {string} */
                                object: "payment_intent";
                                /**
                                 * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                                 * @enum {unknown}
                                 */
                                status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                /**
                                 * Format: date-time
                                 * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                                 */
                                updatedAt: string;
                            }[];
                            hasMore: boolean;
                            /** @enum {string} */
                            object: "list";
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a payment intent
         * @description Creates a PENDING intent for `amount` in `currency`, valid for `expiresIn` seconds (default: the merchant's setting, 30 minutes).
         *
         *     The answer carries the `sessionToken` (`ps_…`) for the browser: **this is the only answer that ever shows it** — Caisse stores only its SHA-256, so `GET /gateway/{id}` cannot return it (the contract's "to the secret key only" reduces to this answer).
         *
         *     Errors: `amount_invalid` (not a string; negative, zero, too many decimals for the currency, exponent, spaces, over 999 999 999 999 minor units), `currency_unsupported`, `metadata_invalid`, `parameter_unknown`, `validation_error` (description over 1 000 characters, expiresIn outside 300–86 400).
         *
         *     Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                         * @example 5000
                         */
                        amount: string;
                        /**
                         * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                         * @example XAF
                         */
                        currency: string;
                        /** @description Free text, at most 1000 characters. */
                        description?: string;
                        /** @description Validity in seconds (300–86400). Default: the merchant's setting (30 minutes unless changed). */
                        expiresIn?: number;
                        /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                        metadata?: {
                            [key: string]: string | number | boolean;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                             * @example 5000
                             */
                            amount: string;
                            /** @description Refunded so far, in major units like amount. */
                            amountRefunded: string;
                            /** @description Charge attempts made (at most 3). */
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                             * @example XAF
                             */
                            currency: string;
                            description: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description pi_… */
                            id: string;
                            /** @description Why the last charge attempt failed, or null. */
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_intent";
                            /** @description ps_… (256 random bits). Hand it to the browser: it retrieves the intent and drives the checkout. Shown in this answer only — Caisse keeps only its SHA-256, so no later read can return it. */
                            sessionToken: string;
                            /**
                             * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                             * @enum {unknown}
                             */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /**
                             * Format: date-time
                             * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                             */
                            updatedAt: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a payment intent
         * @description The intent with its metadata (not its session token: it is shown once, at creation). An intent past its `expiresAt` reads EXPIRED at once, before the sweeper records it. Another merchant's or mode's id is 404 `not_found`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description pi_… */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                             * @example 5000
                             */
                            amount: string;
                            /** @description Refunded so far, in major units like amount. */
                            amountRefunded: string;
                            /** @description Charge attempts made (at most 3). */
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                             * @example XAF
                             */
                            currency: string;
                            description: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description pi_… */
                            id: string;
                            /** @description Why the last charge attempt failed, or null. */
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_intent";
                            /**
                             * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                             * @enum {unknown}
                             */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /**
                             * Format: date-time
                             * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                             */
                            updatedAt: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an open payment intent
         * @description Moves a PENDING intent to CANCELED and records `payment.canceled`. No body is needed (an empty object is accepted).
         *
         *     An intent whose `expiresAt` has passed cannot be canceled: the answer is 409 `intent_expired`, and the intent is recorded EXPIRED with its `payment.expired` event if the sweeper had not done it yet (so the merchant gets exactly one final event either way). Any other state (PROCESSING, SUCCEEDED, FAILED, CANCELED, refunded) is 409 `intent_state_invalid`.
         *
         *     Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description pi_… */
                    id: string;
                };
                cookie?: never;
            };
            /** @description Optional; no fields. */
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                             * @example 5000
                             */
                            amount: string;
                            /** @description Refunded so far, in major units like amount. */
                            amountRefunded: string;
                            /** @description Charge attempts made (at most 3). */
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                             * @example XAF
                             */
                            currency: string;
                            description: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description pi_… */
                            id: string;
                            /** @description Why the last charge attempt failed, or null. */
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            /** @description Your key/value pairs: up to 50 keys of 1–40 characters; values are strings (≤ 500 characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event. */
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_intent";
                            /**
                             * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                             * @enum {unknown}
                             */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /**
                             * Format: date-time
                             * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                             */
                            updatedAt: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/{id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a payment, whole or in part
         * @description Moves `amount` (default: all that is left) back from the merchant's balance to the wallet that paid, in the intent's currency and mode, in one transaction under the intent's row lock: the intent becomes PARTIALLY_REFUNDED or REFUNDED, its `amountRefunded` grows and `payment.refunded` is written. Several refunds may follow one another until the whole amount is back; concurrent refunds never exceed it.
         *
         *     The merchant's balance may go below zero for a refund (the customer's money comes first); it is the merchant's debt to the platform.
         *
         *     Errors: `refund_exceeds_amount` (422, with `amountRefundable`), `amount_invalid`, `intent_state_invalid` (409: the intent was not paid, or is REFUNDED already), `not_found`.
         *
         *     Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`), a 402 included.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description pi_… */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Decimal string in major units of the intent's currency, at most what is left to refund. Default: all that is left.
                         * @example 2000
                         */
                        amount?: string;
                        /** @description Free text for your records, at most 500 characters. */
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Refunded by this refund, in major units ("2000" XAF). */
                            amount: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /** @description The intent's currency. */
                            currency: string;
                            /** @description `re_…` */
                            id: string;
                            /** @description The refunded payment intent (`pi_…`). */
                            intentId: string;
                            /** @enum {string} */
                            object: "refund";
                            reason: string | null;
                            /**
                             * @description Refunds are immediate: the money is back in the wallet when this answer arrives.
                             * @enum {string}
                             */
                            status: "succeeded";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/sessions/{sessionToken}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an intent by its session token (client operation)
         * @description For the browser, with the API key alone. The answer leaves out `metadata` and `sessionToken`: they are for the merchant. An intent past its `expiresAt` reads EXPIRED at once: start a new intent. A token of another merchant or mode is 404 `not_found`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description ps_…, from the creation answer */
                    sessionToken: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Decimal string in major units, with at most the currency's number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.
                             * @example 5000
                             */
                            amount: string;
                            /** @description Refunded so far, in major units like amount. */
                            amountRefunded: string;
                            /** @description Charge attempts made (at most 3). */
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code, upper case: one of XAF, XOF, EUR, USD.
                             * @example XAF
                             */
                            currency: string;
                            description: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @description pi_… */
                            id: string;
                            /** @description Why the last charge attempt failed, or null. */
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_intent";
                            /**
                             * @description PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.
                             * @enum {unknown}
                             */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /**
                             * Format: date-time
                             * @description Last change of the intent. For an expired intent: its expiresAt, the moment it expired.
                             */
                            updatedAt: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/otp/init": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a one-time code to the user (initOtp)
         * @description Sends a 6-digit code by SMS to the user's verified phone (`channel: "sms"`) or by e-mail to the address on file (`"email"`). In test mode the message lands in `GET /test/messages`, never on a phone. Calling it again sends a fresh code and voids the previous one (resend).
         *
         *     With `intentionId` (a PENDING intent of the same merchant and mode) the message names the amount, the currency and the merchant, and the authorization that verifyOtp gives pays that intent only (dynamic linking).
         *
         *     The code lives 5 minutes and allows 5 wrong tries. Sends are limited per user: one per 30 seconds and 5 per 15 minutes (429 `otp_rate_limited` with `Retry-After`); `resendAvailableAt` says when the next send is allowed.
         *
         *     Errors: `user_mismatch` (403: the access token is another user's), `phone_not_verified` (403), `email_missing` (422: channel email, no e-mail on file), `not_found` (the user or the intent), `intent_expired` / `intent_state_invalid` (409: the intent can no longer be paid), `otp_rate_limited` (429), `unavailable` (503: the SMS or e-mail provider refused; no code was stored, try again).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `sms` to the user's verified phone, `email` to the e-mail address on file. */
                        channel: "sms" | "email";
                        /** @description Dynamic linking: the PENDING intent the code is for. The message names its amount, currency and merchant, and the authorization from verifyOtp pays that intent only (`pi_…`, of the same merchant and mode). */
                        intentionId?: string;
                        /** @description The user id (`usr_…`): must be the `sub` of the access token (else 403 `user_mismatch`). */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: "sms" | "email";
                            /** @description Where the code went, masked: `+237•••••••89`, `a•••@example.cm`. */
                            destination: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds. When the code stops working (5 minutes after the send).
                             */
                            expiresAt: string;
                            /** @description The intent the code is bound to, or null. */
                            intentionId: string | null;
                            /** @enum {string} */
                            object: "otp_challenge";
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds. The earliest moment another initOtp will send a code (one per 30 s, 5 per 15 min).
                             */
                            resendAvailableAt: string;
                            userId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/otp/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange the code for an authorization token (verifyOtp)
         * @description Checks the code against the user's live code (the newest one sent, compared in constant time) and answers `authorizationToken`: opaque, single use, valid 10 minutes, bound to the user and — when the code was sent with `intentionId` — to that intent. Send it as `x-otp-token` on `POST /charge`; keep it in memory only.
         *
         *     A wrong code is 400 `otp_incorrect` with `attemptsRemaining` (and nothing more); after 5 wrong codes, 429 `otp_attempts_exceeded` (with `Retry-After`: when a new code may be sent) until initOtp sends a new one. When the user has no live code (none sent, expired after 5 minutes, or already exchanged) the answer is also 400 `otp_incorrect`, with `attemptsRemaining: 0`: ask for a new code.
         *
         *     Errors also: `user_mismatch` (403).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The 6-digit code the user received. */
                        otp: string;
                        /** @description The user id (`usr_…`): must be the `sub` of the access token (else 403 `user_mismatch`). */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque (`otp_…`), single use: send it as `x-otp-token` on `POST /charge`. Keep it in memory only; Caisse stores only its SHA-256. */
                            authorizationToken: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds. 10 minutes after the verification.
                             */
                            expiresAt: string;
                            /** @description The intent the token may pay (dynamic linking), or null: any one intent of this merchant and mode. */
                            intentionId: string | null;
                            /** @enum {string} */
                            object: "otp_authorization";
                            userId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Messages sent in test mode (the outbox)
         * @description SMS and e-mails that test mode "sent", newest first, `body` holding the code. Filter with `userId`. Test mode only (404 `not_found` with live keys): test mode never sends a real message.
         */
        get: {
            parameters: {
                query: {
                    limit: number;
                    /** @description A message id: the page starts after it */
                    startingAfter?: string;
                    userId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description The text, holding the code */
                                body: string | null;
                                channel: "sms" | "email";
                                /** Format: date-time */
                                createdAt: string;
                                /** @description `msg_…` */
                                id: string;
                                /** @enum {string} */
                                object: "message";
                                provider: string;
                                status: string;
                                /** @description Phone number (sms) or e-mail address */
                                to: string;
                                userId: string | null;
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a verified test user with a funded wallet
         * @description Test mode only (404 `not_found` with live keys). The phone is already verified; `balance` (default none) in `currency` (default XAF) is moved into the wallet from the test funding account. Errors: `phone_invalid`, `already_exists`, `amount_invalid`, `currency_unsupported`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Opening wallet balance in major units ("0" or omitted: empty wallet). */
                        balance?: string;
                        /** @description Currency of the balance: XAF, XOF, EUR, USD (default XAF). */
                        currency?: string;
                        /**
                         * Format: email
                         * @description Optional e-mail address (for codes by e-mail).
                         */
                        email?: string;
                        /** @description Any non-empty password: test users skip the strength rules. */
                        password: string;
                        /**
                         * @description E.164: a plus sign, the country code and the number, digits only (no spaces).
                         * @example +237650000000
                         */
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            balances: {
                                /** @description Decimal string in major units ("5000" XAF, "12.50" EUR) */
                                amount: string;
                                /** @description ISO 4217 code */
                                currency: string;
                            }[];
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            email: string | null;
                            /** @description `usr_…` */
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "user";
                            phoneNumber: string;
                            phoneVerified: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test/wallets/fund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add money to a test user's wallet
         * @description Moves `amount` from the test funding account into the wallet (a balanced ledger transfer of kind `funding`) and answers the wallet. Test mode only (404 `not_found` with live keys). Errors: `amount_invalid`, `currency_unsupported`, `not_found` (no such user for this merchant and mode).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Decimal string in major units */
                        amount: string;
                        /** @description XAF, XOF, EUR or USD */
                        currency: string;
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description One entry per currency the user holds */
                            balances: {
                                /** @description Decimal string in major units ("5000" XAF, "12.50" EUR) */
                                amount: string;
                                /** @description ISO 4217 code */
                                currency: string;
                            }[];
                            livemode: boolean;
                            /** @description The 20 most recent movements, newest first */
                            movements: {
                                /** @description Signed: negative when money left the wallet */
                                amount: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                /** @description `funding`, `charge`, `refund`, … */
                                kind: string;
                                /** @description What caused it, e.g. the payment intent id */
                                reference: string | null;
                                /** @description `tr_…` */
                                transferId: string;
                            }[];
                            /** @enum {string} */
                            object: "wallet";
                            userId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a user
         * @description Creates a user of this merchant and mode and sends a 6-digit code by SMS to verify the phone (valid 10 minutes; in test mode it lands in `GET /test/messages`). The user can sign in once the phone is verified.
         *
         *     Errors: `phone_invalid` (not E.164, or not a possible number for its country), `password_weak` (under 8 characters, very common, a sequence, or the phone number), `already_exists` (409: this phone number is registered with this merchant and mode), `validation_error` (e-mail).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Optional e-mail address (for codes by e-mail).
                         */
                        email?: string;
                        /** @description At least 8 characters; very common passwords and the phone number itself are refused (400 password_weak). */
                        password: string;
                        /**
                         * @description E.164: a plus sign, the country code and the number, digits only (no spaces).
                         * @example +237650000000
                         */
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            email: string | null;
                            /** @description `usr_…` */
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "user";
                            phoneNumber: string;
                            phoneVerified: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/verify-phone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a registered user's phone
         * @description Send `userId` (or `phoneNumber`) and the `code` received by SMS (`otp` is accepted as its name too). Verifying an already verified phone answers the user again.
         *
         *     Errors: `otp_incorrect` (400, with `attemptsRemaining`), `otp_expired` (400: ask for a new code), `otp_attempts_exceeded` (429 after 5 wrong codes, until a new code is sent), `not_found`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The 6-digit code received by SMS. */
                        code?: string;
                        /** @description Same as `code` (the name verifyOtp uses); send one of them. */
                        otp?: string;
                        /**
                         * @description E.164: a plus sign, the country code and the number, digits only (no spaces).
                         * @example +237650000000
                         */
                        phoneNumber?: string;
                        /** @description The user id (`usr_…`). */
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            createdAt: string;
                            email: string | null;
                            /** @description `usr_…` */
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "user";
                            phoneNumber: string;
                            phoneVerified: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/verify-phone/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a new phone verification code
         * @description Voids the previous code and sends a new one. At most one per 30 seconds and 5 per 15 minutes (429 `otp_rate_limited` with `Retry-After`). A verified phone answers 409 `phone_already_verified`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description E.164: a plus sign, the country code and the number, digits only (no spaces).
                         * @example +237650000000
                         */
                        phoneNumber?: string;
                        /** @description The user id (`usr_…`). */
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            channel: "sms";
                            /**
                             * Format: date-time
                             * @description RFC 3339, UTC, with milliseconds
                             */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "phone_verification";
                            userId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user's balances and recent movements
         * @description API key and the user access token (`Authorization: Bearer <jwt>` from `POST /auth/web`).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description One entry per currency the user holds */
                            balances: {
                                /** @description Decimal string in major units ("5000" XAF, "12.50" EUR) */
                                amount: string;
                                /** @description ISO 4217 code */
                                currency: string;
                            }[];
                            livemode: boolean;
                            /** @description The 20 most recent movements, newest first */
                            movements: {
                                /** @description Signed: negative when money left the wallet */
                                amount: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                /** @description `funding`, `charge`, `refund`, … */
                                kind: string;
                                /** @description What caused it, e.g. the payment intent id */
                                reference: string | null;
                                /** @description `tr_…` */
                                transferId: string;
                            }[];
                            /** @enum {string} */
                            object: "wallet";
                            userId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                createdAt: string;
                                description: string | null;
                                /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                                disabledReason: "manual" | "gone" | "failing" | null;
                                enabled: boolean;
                                enabledEvents: string[];
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "webhook_endpoint";
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a webhook endpoint
         * @description The answer carries the signing secret `whsec_…` in full (also readable later with `GET /webhook-endpoints/{id}/secret`). At most 16 endpoints per merchant and mode (422 `limit_exceeded`). A URL that does not parse, carries credentials, is not https in live mode, or resolves to a private, link-local or (in live mode, or unless the server allows it) loopback address: 400 `url_invalid`. A host name that does not resolve yet is accepted: every delivery resolves and checks it again before connecting.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        enabled?: boolean;
                        /** @description Event types the endpoint receives. Absent, empty or `["*"]`: every type. */
                        enabledEvents?: ("payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "*")[];
                        /** @description Where events are POSTed. Live mode: https, resolving only to public addresses. Test mode: http or https; loopback when the server allows it. */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** @description The signing secret `whsec_…` */
                            secret: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook endpoint */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a webhook endpoint and its pending deliveries */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            deleted: true;
                            id: string;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint (URL, event types, description, enabled)
         * @description Disabling parks its pending deliveries; enabling it again resumes them (those past their 3-day window get one last try).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        /** @description false disables the endpoint; true enables it again and resumes its pending deliveries */
                        enabled?: boolean;
                        /** @description Event types the endpoint receives. Absent, empty or `["*"]`: every type. */
                        enabledEvents?: ("payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "*")[];
                        /** @description Where events are POSTed. Live mode: https, resolving only to public addresses. Test mode: http or https; loopback when the server allows it. */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An endpoint's deliveries with every attempt, newest first */
        get: {
            parameters: {
                query?: {
                    eventId?: string;
                    limit?: number;
                    startingAfter?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attemptCount: number;
                                /** @description Every attempt, oldest first */
                                attempts: {
                                    /** Format: date-time */
                                    attemptedAt: string;
                                    error: string | null;
                                    latencyMs: number;
                                    responseExcerpt: string | null;
                                    statusCode: number | null;
                                    succeeded: boolean;
                                }[];
                                completedAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                endpointId: string;
                                eventId: string;
                                id: string;
                                lastAttemptAt: string | null;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: string | null;
                                /** @enum {string} */
                                object: "webhook_delivery";
                                status: "pending" | "succeeded" | "failed";
                            }[];
                            hasMore: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/roll-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll the signing secret
         * @description Issues a new secret, returned in full. The previous one keeps signing beside it (one more `v1=` in `pay-signature`, one more `v1,` in `webhook-signature`) for `expiresIn` seconds, 24 h by default.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Seconds the previous secret keeps signing beside the new one (default 24 h; 0 stops it at once)
                         * @default 86400
                         */
                        expiresIn?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            /** @description `manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days) */
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
                            /** @description The signing secret `whsec_…` */
                            secret: string;
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reveal the signing secret
         * @description The current secret, and any rolled secret still signing beside it until its `expiresAt`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endpointId: string;
                            /** @enum {string} */
                            object: "webhook_endpoint_secret";
                            /** @description Previous secrets that still sign, beside the current one, until they expire */
                            rollingSecrets: {
                                /** Format: date-time */
                                expiresAt: string;
                                secret: string;
                            }[];
                            /** @description The current signing secret */
                            secret: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
