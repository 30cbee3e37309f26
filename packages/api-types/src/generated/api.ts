// Generated from the Caisse server's OpenAPI document by packages/api-types/scripts/generate-types.ts.
// Do not edit: change the server's route schemas, then run `npm run generate:types` at the root.

/** The API version these types describe; the clients send it as `pay-version`. */
export const API_VERSION = "2026-11-01";

export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
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
    "/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
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
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            channel: "sms";
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "password_reset";
                            phoneNumber: string;
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
    "/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
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
                        code: string;
                        newPassword: string;
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                204: {
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
    "/auth/web": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
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
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            language: "fr" | "en" | null;
                            phoneNumber: string;
                            roles: string[];
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            available: {
                                amount: string;
                                currency: string;
                            }[];
                            balances: {
                                available: string;
                                currency: string;
                                nextReleaseOn: string | null;
                                pending: string;
                                reserved: string;
                            }[];
                            livemode: boolean;
                            /** @enum {string} */
                            object: "balance";
                            pending: {
                                amount: string;
                                currency: string;
                            }[];
                            reserved: {
                                amount: string;
                                currency: string;
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
    "/balance/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    currency?: string;
                    from?: string;
                    limit?: number;
                    startingAfter?: string;
                    to?: string;
                    type?: "charge" | "refund" | "fee" | "payout" | "payout_reversal" | "refund_reversal" | "late_payment" | "adjustment" | "reserve" | "reserve_release";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                amount: string;
                                /** Format: date-time */
                                availableOn: string;
                                balanceAfter: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                description: string;
                                id: string;
                                /** @enum {string} */
                                object: "balance_transaction";
                                source: string | null;
                                status: "pending" | "available";
                                type: "charge" | "refund" | "fee" | "payout" | "payout_reversal" | "refund_reversal" | "late_payment" | "adjustment" | "reserve" | "reserve_release";
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
    "/balance/transactions.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    currency?: string;
                    from?: string;
                    to?: string;
                    type?: "charge" | "refund" | "fee" | "payout" | "payout_reversal" | "refund_reversal" | "late_payment" | "adjustment" | "reserve" | "reserve_release";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
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
    "/charge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    "x-otp-token"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        intentionId: string;
                        paymentMethod?: {
                            phoneNumber: string;
                            provider: string;
                            /** @enum {string} */
                            type: "mobile_money";
                        };
                        userId?: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            amountRefunded: string;
                            attempts: number | {
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                failureCode: string | null;
                                fee: string | null;
                                id: string;
                                late: boolean;
                                net: string | null;
                                /** @enum {string} */
                                object: "payment_attempt";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                providerReference: string | null;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            nextAction?: ({
                                /** Format: date-time */
                                expiresAt: string;
                                message: string;
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "approve_on_phone";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                type: "redirect";
                                url: string;
                            }) | null;
                            /** @enum {string} */
                            object: "payment_intent";
                            paymentMethod?: {
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "mobile_money";
                            };
                            returnUrl?: string | null;
                            /** @enum {unknown} */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            amountRefunded: string;
                            attempts: {
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                failureCode: string | null;
                                fee: string | null;
                                id: string;
                                late: boolean;
                                net: string | null;
                                /** @enum {string} */
                                object: "payment_attempt";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                providerReference: string | null;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            nextAction: ({
                                /** Format: date-time */
                                expiresAt: string;
                                message: string;
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "approve_on_phone";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                type: "redirect";
                                url: string;
                            }) | null;
                            /** @enum {string} */
                            object: "payment_intent";
                            paymentMethod: {
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "mobile_money";
                            } | null;
                            returnUrl?: string | null;
                            /** @enum {unknown} */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /** Format: date-time */
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
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    type?: "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
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
                                    attempt?: {
                                        completedAt: string | null;
                                        connector: string;
                                        /** Format: date-time */
                                        createdAt: string;
                                        failureCode: string | null;
                                        fee: string | null;
                                        id: string;
                                        late: boolean;
                                        net: string | null;
                                        /** @enum {string} */
                                        object: "payment_attempt";
                                        phoneNumber: string;
                                        provider: string;
                                        providerAccount: string;
                                        providerReference: string | null;
                                        status: "PENDING" | "SUCCEEDED" | "FAILED";
                                    };
                                    paymentIntent: {
                                        amount: string;
                                        amountRefunded: string;
                                        attempts: number | {
                                            completedAt: string | null;
                                            connector: string;
                                            /** Format: date-time */
                                            createdAt: string;
                                            failureCode: string | null;
                                            fee: string | null;
                                            id: string;
                                            late: boolean;
                                            net: string | null;
                                            /** @enum {string} */
                                            object: "payment_attempt";
                                            phoneNumber: string;
                                            provider: string;
                                            providerAccount: string;
                                            providerReference: string | null;
                                            status: "PENDING" | "SUCCEEDED" | "FAILED";
                                        }[];
                                        /** Format: date-time */
                                        createdAt: string;
                                        currency: string;
                                        description: string | null;
                                        /** Format: date-time */
                                        expiresAt: string;
                                        fee: string | null;
                                        id: string;
                                        lastError: {
                                            code: string;
                                            message: string;
                                        } | null;
                                        livemode: boolean;
                                        metadata: {
                                            [key: string]: string | number | boolean;
                                        };
                                        net: string | null;
                                        nextAction?: ({
                                            /** Format: date-time */
                                            expiresAt: string;
                                            message: string;
                                            phoneNumber: string;
                                            provider: string;
                                            /** @enum {string} */
                                            type: "approve_on_phone";
                                            ussd: string | null;
                                        } | {
                                            /** @enum {string} */
                                            type: "redirect";
                                            url: string;
                                        }) | null;
                                        /** @enum {string} */
                                        object: "payment_intent";
                                        paymentMethod?: {
                                            phoneNumber: string;
                                            provider: string;
                                            /** @enum {string} */
                                            type: "mobile_money";
                                        };
                                        returnUrl?: string | null;
                                        /** @enum {unknown} */
                                        status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                        /** Format: date-time */
                                        updatedAt: string;
                                    };
                                    refund?: {
                                        amount: string;
                                        connector?: string;
                                        /** Format: date-time */
                                        createdAt: string;
                                        currency: string;
                                        failureCode?: string | null;
                                        id: string;
                                        intentId: string;
                                        /** @enum {string} */
                                        object: "refund";
                                        providerAccount?: string;
                                        reason: string | null;
                                        recorded?: boolean;
                                        recordedOutside?: {
                                            method: "cash" | "bank_transfer" | "mobile_money" | "other";
                                            reference: string | null;
                                        };
                                        status: "PENDING" | "SUCCEEDED" | "FAILED";
                                    };
                                };
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "event";
                                /** @enum {unknown} */
                                type: "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed";
                            } | {
                                apiVersion: string;
                                /** Format: date-time */
                                createdAt: string;
                                data: {
                                    payout: {
                                        amount: string;
                                        completedAt: string | null;
                                        connector: string;
                                        /** Format: date-time */
                                        createdAt: string;
                                        currency: string;
                                        description: string | null;
                                        destination: {
                                            phoneNumber: string;
                                            provider: string;
                                        };
                                        failureReason: string | null;
                                        id: string;
                                        livemode: boolean;
                                        method: "manual" | "scheduled";
                                        /** @enum {string} */
                                        object: "payout";
                                        providerAccount: string;
                                        status: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                                        /** Format: date-time */
                                        updatedAt: string;
                                    };
                                };
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "event";
                                /** @enum {unknown} */
                                type: "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed";
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
                                attempt?: {
                                    completedAt: string | null;
                                    connector: string;
                                    /** Format: date-time */
                                    createdAt: string;
                                    failureCode: string | null;
                                    fee: string | null;
                                    id: string;
                                    late: boolean;
                                    net: string | null;
                                    /** @enum {string} */
                                    object: "payment_attempt";
                                    phoneNumber: string;
                                    provider: string;
                                    providerAccount: string;
                                    providerReference: string | null;
                                    status: "PENDING" | "SUCCEEDED" | "FAILED";
                                };
                                paymentIntent: {
                                    amount: string;
                                    amountRefunded: string;
                                    attempts: number | {
                                        completedAt: string | null;
                                        connector: string;
                                        /** Format: date-time */
                                        createdAt: string;
                                        failureCode: string | null;
                                        fee: string | null;
                                        id: string;
                                        late: boolean;
                                        net: string | null;
                                        /** @enum {string} */
                                        object: "payment_attempt";
                                        phoneNumber: string;
                                        provider: string;
                                        providerAccount: string;
                                        providerReference: string | null;
                                        status: "PENDING" | "SUCCEEDED" | "FAILED";
                                    }[];
                                    /** Format: date-time */
                                    createdAt: string;
                                    currency: string;
                                    description: string | null;
                                    /** Format: date-time */
                                    expiresAt: string;
                                    fee: string | null;
                                    id: string;
                                    lastError: {
                                        code: string;
                                        message: string;
                                    } | null;
                                    livemode: boolean;
                                    metadata: {
                                        [key: string]: string | number | boolean;
                                    };
                                    net: string | null;
                                    nextAction?: ({
                                        /** Format: date-time */
                                        expiresAt: string;
                                        message: string;
                                        phoneNumber: string;
                                        provider: string;
                                        /** @enum {string} */
                                        type: "approve_on_phone";
                                        ussd: string | null;
                                    } | {
                                        /** @enum {string} */
                                        type: "redirect";
                                        url: string;
                                    }) | null;
                                    /** @enum {string} */
                                    object: "payment_intent";
                                    paymentMethod?: {
                                        phoneNumber: string;
                                        provider: string;
                                        /** @enum {string} */
                                        type: "mobile_money";
                                    };
                                    returnUrl?: string | null;
                                    /** @enum {unknown} */
                                    status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                    /** Format: date-time */
                                    updatedAt: string;
                                };
                                refund?: {
                                    amount: string;
                                    connector?: string;
                                    /** Format: date-time */
                                    createdAt: string;
                                    currency: string;
                                    failureCode?: string | null;
                                    id: string;
                                    intentId: string;
                                    /** @enum {string} */
                                    object: "refund";
                                    providerAccount?: string;
                                    reason: string | null;
                                    recorded?: boolean;
                                    recordedOutside?: {
                                        method: "cash" | "bank_transfer" | "mobile_money" | "other";
                                        reference: string | null;
                                    };
                                    status: "PENDING" | "SUCCEEDED" | "FAILED";
                                };
                            };
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "event";
                            /** @enum {unknown} */
                            type: "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed";
                        } | {
                            apiVersion: string;
                            /** Format: date-time */
                            createdAt: string;
                            data: {
                                payout: {
                                    amount: string;
                                    completedAt: string | null;
                                    connector: string;
                                    /** Format: date-time */
                                    createdAt: string;
                                    currency: string;
                                    description: string | null;
                                    destination: {
                                        phoneNumber: string;
                                        provider: string;
                                    };
                                    failureReason: string | null;
                                    id: string;
                                    livemode: boolean;
                                    method: "manual" | "scheduled";
                                    /** @enum {string} */
                                    object: "payout";
                                    providerAccount: string;
                                    status: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                                    /** Format: date-time */
                                    updatedAt: string;
                                };
                            };
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "event";
                            /** @enum {unknown} */
                            type: "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed";
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
                        endpointId?: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attemptCount: number;
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
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    status?: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                amount: string;
                                amountRefunded: string;
                                attempts: number | {
                                    completedAt: string | null;
                                    connector: string;
                                    /** Format: date-time */
                                    createdAt: string;
                                    failureCode: string | null;
                                    fee: string | null;
                                    id: string;
                                    late: boolean;
                                    net: string | null;
                                    /** @enum {string} */
                                    object: "payment_attempt";
                                    phoneNumber: string;
                                    provider: string;
                                    providerAccount: string;
                                    providerReference: string | null;
                                    status: "PENDING" | "SUCCEEDED" | "FAILED";
                                }[];
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                description: string | null;
                                /** Format: date-time */
                                expiresAt: string;
                                fee: string | null;
                                id: string;
                                lastError: {
                                    code: string;
                                    message: string;
                                } | null;
                                livemode: boolean;
                                metadata: {
                                    [key: string]: string | number | boolean;
                                };
                                net: string | null;
                                nextAction?: ({
                                    /** Format: date-time */
                                    expiresAt: string;
                                    message: string;
                                    phoneNumber: string;
                                    provider: string;
                                    /** @enum {string} */
                                    type: "approve_on_phone";
                                    ussd: string | null;
                                } | {
                                    /** @enum {string} */
                                    type: "redirect";
                                    url: string;
                                }) | null;
                                /** @enum {string} */
                                object: "payment_intent";
                                paymentMethod?: {
                                    phoneNumber: string;
                                    provider: string;
                                    /** @enum {string} */
                                    type: "mobile_money";
                                };
                                returnUrl?: string | null;
                                /** @enum {unknown} */
                                status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                /** Format: date-time */
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
                        amount: string;
                        currency: string;
                        description?: string;
                        expiresIn?: number;
                        metadata?: {
                            [key: string]: string | number | boolean;
                        };
                        returnUrl?: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            amountRefunded: string;
                            attempts: number | {
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                failureCode: string | null;
                                fee: string | null;
                                id: string;
                                late: boolean;
                                net: string | null;
                                /** @enum {string} */
                                object: "payment_attempt";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                providerReference: string | null;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            /** Format: date-time */
                            expiresAt: string;
                            fee: string | null;
                            id: string;
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            net: string | null;
                            nextAction?: ({
                                /** Format: date-time */
                                expiresAt: string;
                                message: string;
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "approve_on_phone";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                type: "redirect";
                                url: string;
                            }) | null;
                            /** @enum {string} */
                            object: "payment_intent";
                            paymentMethod?: {
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "mobile_money";
                            };
                            returnUrl?: string | null;
                            sessionToken: string;
                            /** @enum {unknown} */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /** Format: date-time */
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            amountRefunded: string;
                            attempts: number | {
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                failureCode: string | null;
                                fee: string | null;
                                id: string;
                                late: boolean;
                                net: string | null;
                                /** @enum {string} */
                                object: "payment_attempt";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                providerReference: string | null;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            /** Format: date-time */
                            expiresAt: string;
                            fee: string | null;
                            id: string;
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            net: string | null;
                            nextAction?: ({
                                /** Format: date-time */
                                expiresAt: string;
                                message: string;
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "approve_on_phone";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                type: "redirect";
                                url: string;
                            }) | null;
                            /** @enum {string} */
                            object: "payment_intent";
                            paymentMethod?: {
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "mobile_money";
                            };
                            returnUrl?: string | null;
                            /** @enum {unknown} */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /** Format: date-time */
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
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            amountRefunded: string;
                            attempts: number | {
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                failureCode: string | null;
                                fee: string | null;
                                id: string;
                                late: boolean;
                                net: string | null;
                                /** @enum {string} */
                                object: "payment_attempt";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                providerReference: string | null;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            /** Format: date-time */
                            expiresAt: string;
                            fee: string | null;
                            id: string;
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            net: string | null;
                            nextAction?: ({
                                /** Format: date-time */
                                expiresAt: string;
                                message: string;
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "approve_on_phone";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                type: "redirect";
                                url: string;
                            }) | null;
                            /** @enum {string} */
                            object: "payment_intent";
                            paymentMethod?: {
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "mobile_money";
                            };
                            returnUrl?: string | null;
                            /** @enum {unknown} */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /** Format: date-time */
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
                        amount?: string;
                        reason?: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            connector?: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            failureCode?: string | null;
                            id: string;
                            intentId: string;
                            /** @enum {string} */
                            object: "refund";
                            providerAccount?: string;
                            reason: string | null;
                            recorded?: boolean;
                            recordedOutside?: {
                                method: "cash" | "bank_transfer" | "mobile_money" | "other";
                                reference: string | null;
                            };
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
                        };
                    };
                };
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            connector?: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            failureCode?: string | null;
                            id: string;
                            intentId: string;
                            /** @enum {string} */
                            object: "refund";
                            providerAccount?: string;
                            reason: string | null;
                            recorded?: boolean;
                            recordedOutside?: {
                                method: "cash" | "bank_transfer" | "mobile_money" | "other";
                                reference: string | null;
                            };
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
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
    "/gateway/{id}/refunds/recorded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
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
                        amount?: string;
                        method: "cash" | "bank_transfer" | "mobile_money" | "other";
                        reason?: string;
                        reference?: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            connector?: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            failureCode?: string | null;
                            id: string;
                            intentId: string;
                            /** @enum {string} */
                            object: "refund";
                            providerAccount?: string;
                            reason: string | null;
                            recorded?: boolean;
                            recordedOutside?: {
                                method: "cash" | "bank_transfer" | "mobile_money" | "other";
                                reference: string | null;
                            };
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
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
        get: {
            parameters: {
                query?: {
                    status?: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                    wait?: number;
                };
                header?: never;
                path: {
                    sessionToken: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            amountRefunded: string;
                            attempts: number | {
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                failureCode: string | null;
                                fee: string | null;
                                id: string;
                                late: boolean;
                                net: string | null;
                                /** @enum {string} */
                                object: "payment_attempt";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                providerReference: string | null;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            lastError: {
                                code: string;
                                message: string;
                            } | null;
                            livemode: boolean;
                            merchantLanguage?: "fr" | "en";
                            nextAction?: ({
                                /** Format: date-time */
                                expiresAt: string;
                                message: string;
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "approve_on_phone";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                type: "redirect";
                                url: string;
                            }) | null;
                            /** @enum {string} */
                            object: "payment_intent";
                            paymentMethod?: {
                                phoneNumber: string;
                                provider: string;
                                /** @enum {string} */
                                type: "mobile_money";
                            };
                            returnUrl?: string | null;
                            /** @enum {unknown} */
                            status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                            /** Format: date-time */
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
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
                        channel: "sms" | "email";
                        intentionId?: string;
                        userId: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: "sms" | "email";
                            destination: string;
                            /** Format: date-time */
                            expiresAt: string;
                            intentionId: string | null;
                            /** @enum {string} */
                            object: "otp_challenge";
                            /** Format: date-time */
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
                        otp: string;
                        userId: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorizationToken: string;
                            /** Format: date-time */
                            expiresAt: string;
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
    "/pay/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    linkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
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
    "/payment-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                active: boolean;
                                amount: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                description: string;
                                id: string;
                                livemode: boolean;
                                metadata: {
                                    [key: string]: string | number | boolean;
                                };
                                /** @enum {string} */
                                object: "payment_link";
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
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
                        active?: boolean;
                        amount: string;
                        currency: string;
                        description: string;
                        metadata?: {
                            [key: string]: string | number | boolean;
                        };
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            amount: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string;
                            id: string;
                            livemode: boolean;
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_link";
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
    "/payment-links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            amount: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string;
                            id: string;
                            livemode: boolean;
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_link";
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
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
                        active: boolean;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            amount: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string;
                            id: string;
                            livemode: boolean;
                            metadata: {
                                [key: string]: string | number | boolean;
                            };
                            /** @enum {string} */
                            object: "payment_link";
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
    "/payment-links/{id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                amount: string;
                                amountRefunded: string;
                                attempts: number | {
                                    completedAt: string | null;
                                    connector: string;
                                    /** Format: date-time */
                                    createdAt: string;
                                    failureCode: string | null;
                                    fee: string | null;
                                    id: string;
                                    late: boolean;
                                    net: string | null;
                                    /** @enum {string} */
                                    object: "payment_attempt";
                                    phoneNumber: string;
                                    provider: string;
                                    providerAccount: string;
                                    providerReference: string | null;
                                    status: "PENDING" | "SUCCEEDED" | "FAILED";
                                }[];
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                description: string | null;
                                /** Format: date-time */
                                expiresAt: string;
                                fee: string | null;
                                id: string;
                                lastError: {
                                    code: string;
                                    message: string;
                                } | null;
                                livemode: boolean;
                                metadata: {
                                    [key: string]: string | number | boolean;
                                };
                                net: string | null;
                                nextAction?: ({
                                    /** Format: date-time */
                                    expiresAt: string;
                                    message: string;
                                    phoneNumber: string;
                                    provider: string;
                                    /** @enum {string} */
                                    type: "approve_on_phone";
                                    ussd: string | null;
                                } | {
                                    /** @enum {string} */
                                    type: "redirect";
                                    url: string;
                                }) | null;
                                /** @enum {string} */
                                object: "payment_intent";
                                paymentMethod?: {
                                    phoneNumber: string;
                                    provider: string;
                                    /** @enum {string} */
                                    type: "mobile_money";
                                };
                                returnUrl?: string | null;
                                /** @enum {unknown} */
                                status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                /** Format: date-time */
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
    "/payment-methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    sessionToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: ({
                                /** @enum {string} */
                                type: "wallet";
                            } | {
                                approval: "phone_prompt" | "redirect";
                                available: boolean;
                                maxAmount: string;
                                minAmount: string;
                                name: string;
                                prefixes: string[];
                                /** @enum {string} */
                                provider: "mtn_momo" | "orange_money" | "wave";
                                /** @enum {string} */
                                type: "mobile_money";
                                ussd: string | null;
                            })[];
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
    "/payment-methods/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            country: "CM" | "SN" | "CI";
                            currency: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_method_settings";
                            order: ("mtn_momo" | "orange_money" | "wave")[];
                            orderDefault: boolean;
                            providers: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect";
                                available: boolean;
                                capabilities: {
                                    collect: boolean;
                                    disburse: boolean;
                                    refund: boolean;
                                };
                                configured: boolean;
                                enabled: boolean;
                                name: string;
                                offered: boolean;
                                /** @enum {string} */
                                provider: "mtn_momo" | "orange_money" | "wave";
                                servesCountry: boolean;
                            }[];
                            providersDefault: boolean;
                            wallet: boolean;
                            walletAllowed: boolean;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        order?: ("mtn_momo" | "orange_money" | "wave")[] | null;
                        providers?: ("mtn_momo" | "orange_money" | "wave")[] | null;
                        wallet?: boolean;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            country: "CM" | "SN" | "CI";
                            currency: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_method_settings";
                            order: ("mtn_momo" | "orange_money" | "wave")[];
                            orderDefault: boolean;
                            providers: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect";
                                available: boolean;
                                capabilities: {
                                    collect: boolean;
                                    disburse: boolean;
                                    refund: boolean;
                                };
                                configured: boolean;
                                enabled: boolean;
                                name: string;
                                offered: boolean;
                                /** @enum {string} */
                                provider: "mtn_momo" | "orange_money" | "wave";
                                servesCountry: boolean;
                            }[];
                            providersDefault: boolean;
                            wallet: boolean;
                            walletAllowed: boolean;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payout-schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destination: {
                                phoneNumber: string;
                                provider: string;
                            } | null;
                            interval: "manual" | "daily" | "weekly";
                            livemode: boolean;
                            minimumAmount: {
                                [key: string]: string;
                            };
                            nextRunAt: string | null;
                            /** @enum {string} */
                            object: "payout_schedule";
                            weeklyAnchor: string | null;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        destination?: {
                            phoneNumber: string;
                            provider: string;
                        };
                        interval: "manual" | "daily" | "weekly";
                        minimumAmount?: {
                            [key: string]: string;
                        };
                        weeklyAnchor?: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destination: {
                                phoneNumber: string;
                                provider: string;
                            } | null;
                            interval: "manual" | "daily" | "weekly";
                            livemode: boolean;
                            minimumAmount: {
                                [key: string]: string;
                            };
                            nextRunAt: string | null;
                            /** @enum {string} */
                            object: "payout_schedule";
                            weeklyAnchor: string | null;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    status?: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                amount: string;
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                description: string | null;
                                destination: {
                                    phoneNumber: string;
                                    provider: string;
                                };
                                failureReason: string | null;
                                id: string;
                                livemode: boolean;
                                method: "manual" | "scheduled";
                                /** @enum {string} */
                                object: "payout";
                                providerAccount: string;
                                status: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                                /** Format: date-time */
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
                        amount: string;
                        currency: string;
                        description?: string;
                        destination: {
                            phoneNumber: string;
                            provider: string;
                        };
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            completedAt: string | null;
                            connector: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            destination: {
                                phoneNumber: string;
                                provider: string;
                            };
                            failureReason: string | null;
                            id: string;
                            livemode: boolean;
                            method: "manual" | "scheduled";
                            /** @enum {string} */
                            object: "payout";
                            providerAccount: string;
                            status: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                            /** Format: date-time */
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
    "/payouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            completedAt: string | null;
                            connector: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            description: string | null;
                            destination: {
                                phoneNumber: string;
                                provider: string;
                            };
                            failureReason: string | null;
                            id: string;
                            livemode: boolean;
                            method: "manual" | "scheduled";
                            /** @enum {string} */
                            object: "payout";
                            providerAccount: string;
                            status: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                            /** Format: date-time */
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
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
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
    "/test/balance/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            available: {
                                amount: string;
                                currency: string;
                            }[];
                            balances: {
                                available: string;
                                currency: string;
                                nextReleaseOn: string | null;
                                pending: string;
                                reserved: string;
                            }[];
                            livemode: boolean;
                            /** @enum {string} */
                            object: "balance";
                            pending: {
                                amount: string;
                                currency: string;
                            }[];
                            reserved: {
                                amount: string;
                                currency: string;
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
    "/test/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    userId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                body: string | null;
                                channel: "sms" | "email";
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                /** @enum {string} */
                                object: "message";
                                provider: string;
                                status: string;
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
                        balance?: string;
                        currency?: string;
                        /** Format: email */
                        email?: string;
                        language?: string;
                        password: string;
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            balances: {
                                amount: string;
                                currency: string;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            id: string;
                            language: "fr" | "en" | null;
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
                        amount: string;
                        currency: string;
                        userId: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            balances: {
                                amount: string;
                                currency: string;
                            }[];
                            livemode: boolean;
                            movements: {
                                amount: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                kind: string;
                                reference: string | null;
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                createdAt: string;
                                email: string | null;
                                id: string;
                                language: "fr" | "en" | null;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "user";
                                phoneNumber: string;
                                phoneVerified: boolean;
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
                        /** Format: email */
                        email?: string;
                        language?: string;
                        password: string;
                        phoneNumber: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            channel: "sms";
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "phone_verification";
                            phoneNumber: string | null;
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
    "/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            id: string;
                            language: "fr" | "en" | null;
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
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        language: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            id: string;
                            language: "fr" | "en" | null;
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
        trace?: never;
    };
    "/users/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
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
                        currentPassword: string;
                        newPassword: string;
                    };
                };
            };
            responses: {
                204: {
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
    "/users/verify-phone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
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
                        code?: string;
                        otp?: string;
                        phoneNumber?: string;
                        userId?: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            id: string;
                            language: "fr" | "en" | null;
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
                        phoneNumber?: string;
                        userId?: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            channel: "sms";
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "phone_verification";
                            phoneNumber: string | null;
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            balances: {
                                amount: string;
                                currency: string;
                            }[];
                            livemode: boolean;
                            movements: {
                                amount: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                kind: string;
                                reference: string | null;
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
    "/wallet/topups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                amount: string;
                                completedAt: string | null;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                failureReason: string | null;
                                id: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "topup";
                                phoneNumber: string;
                                provider: string;
                                providerAccount: string;
                                status: "PENDING" | "SUCCEEDED" | "FAILED";
                                /** Format: date-time */
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
                        amount: string;
                        currency: string;
                        phoneNumber: string;
                        provider: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            completedAt: string | null;
                            connector: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            failureReason: string | null;
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "topup";
                            phoneNumber: string;
                            provider: string;
                            providerAccount: string;
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
                            /** Format: date-time */
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
    "/wallet/topups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            completedAt: string | null;
                            connector: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            failureReason: string | null;
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "topup";
                            phoneNumber: string;
                            provider: string;
                            providerAccount: string;
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
                            /** Format: date-time */
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
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
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
                        enabledEvents?: ("payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed" | "*")[];
                        url: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
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
                        enabled?: boolean;
                        enabledEvents?: ("payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed" | "*")[];
                        url?: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                attemptCount: number;
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
                        /** @default 86400 */
                        expiresIn?: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            disabledReason: "manual" | "gone" | "failing" | null;
                            enabled: boolean;
                            enabledEvents: string[];
                            id: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "webhook_endpoint";
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endpointId: string;
                            /** @enum {string} */
                            object: "webhook_endpoint_secret";
                            rollingSecrets: {
                                /** Format: date-time */
                                expiresAt: string;
                                secret: string;
                            }[];
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
