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
                            preAuthorisationCode?: string;
                            provider: string;
                            /** @enum {string} */
                            type: "mobile_money";
                        } | {
                            cardholder: {
                                address: string;
                                city: string;
                                country: string;
                                /** Format: email */
                                email: string;
                                name: string;
                                phoneNumber: string;
                                state?: string;
                                surname: string;
                                zipCode: string;
                            };
                            /** @enum {string} */
                            type: "card";
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
                                type: "mobile_money" | "card";
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
                                type: "mobile_money" | "card";
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
    "/dashboard/api/{mode}/balance": {
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/balance/settle": {
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/balance/transactions": {
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
                path: {
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/balance/transactions.csv": {
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
                path: {
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/customers": {
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
                    mode: "test" | "live";
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
                                /** Format: date-time */
                                createdAt: string;
                                firstPaymentAt: string | null;
                                id: string;
                                lastPaymentAt: string | null;
                                payments: number;
                                phoneNumber: string;
                                volume: {
                                    amount: string;
                                    currency: string;
                                }[];
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
    "/dashboard/api/{mode}/customers/{id}": {
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
                    mode: "test" | "live";
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
                            customer: {
                                /** Format: date-time */
                                createdAt: string;
                                firstPaymentAt: string | null;
                                id: string;
                                lastPaymentAt: string | null;
                                payments: number;
                                phoneNumber: string;
                                volume: {
                                    amount: string;
                                    currency: string;
                                }[];
                            };
                            /** @enum {string} */
                            object: "dashboard_customer";
                            payments: {
                                amount: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                failureCode: string | null;
                                id: string;
                                intentId: string;
                                status: "succeeded" | "failed";
                            }[];
                            topups: {
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
        get: {
            parameters: {
                query: {
                    createdGte?: string;
                    createdLt?: string;
                    deliveryStatus?: "failed";
                    limit: number;
                    startingAfter?: string;
                    type?: "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.canceled" | "payment.refunded" | "refund.failed" | "payout.paid" | "payout.failed";
                };
                header?: never;
                path: {
                    mode: "test" | "live";
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
                                            type: "mobile_money" | "card";
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
    "/dashboard/api/{mode}/events/{id}": {
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
                    mode: "test" | "live";
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
                            deliveries: {
                                attemptCount: number;
                                attempts: {
                                    /** Format: date-time */
                                    attemptedAt: string;
                                    error: string | null;
                                    latencyMs: number;
                                    requestBodyExcerpt: string | null;
                                    requestHeaders: {
                                        [key: string]: string;
                                    } | null;
                                    responseExcerpt: string | null;
                                    statusCode: number | null;
                                    succeeded: boolean;
                                }[];
                                completedAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                endpoint: {
                                    description: string | null;
                                    id: string;
                                    url: string;
                                } | null;
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
                            event: {
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
                                            type: "mobile_money" | "card";
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
                            /** @enum {string} */
                            object: "event_detail";
                            payload: string;
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
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/keys": {
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
                    mode: "test" | "live";
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
                                allowedOrigins: string[];
                                /** Format: date-time */
                                createdAt: string;
                                display: string;
                                expiresAt: string | null;
                                id: string;
                                kind: "publishable" | "secret" | "restricted";
                                lastUsedAt: string | null;
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "api_key";
                                permissions: {
                                    balance?: "none" | "read" | "write";
                                    customers?: "none" | "read" | "write";
                                    events?: "none" | "read" | "write";
                                    payment_links?: "none" | "read" | "write";
                                    payments?: "none" | "read" | "write";
                                    payouts?: "none" | "read" | "write";
                                    refunds?: "none" | "read" | "write";
                                    webhooks?: "none" | "read" | "write";
                                } | null;
                                revokedAt: string | null;
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
                path: {
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allowedOrigins?: string[];
                        code?: string;
                        kind: "publishable" | "secret" | "restricted";
                        name: string;
                        permissions?: {
                            balance?: "none" | "read" | "write";
                            customers?: "none" | "read" | "write";
                            events?: "none" | "read" | "write";
                            payment_links?: "none" | "read" | "write";
                            payments?: "none" | "read" | "write";
                            payouts?: "none" | "read" | "write";
                            refunds?: "none" | "read" | "write";
                            webhooks?: "none" | "read" | "write";
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
                            allowedOrigins: string[];
                            /** Format: date-time */
                            createdAt: string;
                            display: string;
                            expiresAt: string | null;
                            id: string;
                            kind: "publishable" | "secret" | "restricted";
                            lastUsedAt: string | null;
                            mode: "test" | "live";
                            name: string;
                            /** @enum {string} */
                            object: "api_key";
                            permissions: {
                                balance?: "none" | "read" | "write";
                                customers?: "none" | "read" | "write";
                                events?: "none" | "read" | "write";
                                payment_links?: "none" | "read" | "write";
                                payments?: "none" | "read" | "write";
                                payouts?: "none" | "read" | "write";
                                refunds?: "none" | "read" | "write";
                                webhooks?: "none" | "read" | "write";
                            } | null;
                            revokedAt: string | null;
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
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allowedOrigins: string[];
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
                            allowedOrigins: string[];
                            /** Format: date-time */
                            createdAt: string;
                            display: string;
                            expiresAt: string | null;
                            id: string;
                            kind: "publishable" | "secret" | "restricted";
                            lastUsedAt: string | null;
                            mode: "test" | "live";
                            name: string;
                            /** @enum {string} */
                            object: "api_key";
                            permissions: {
                                balance?: "none" | "read" | "write";
                                customers?: "none" | "read" | "write";
                                events?: "none" | "read" | "write";
                                payment_links?: "none" | "read" | "write";
                                payments?: "none" | "read" | "write";
                                payouts?: "none" | "read" | "write";
                                refunds?: "none" | "read" | "write";
                                webhooks?: "none" | "read" | "write";
                            } | null;
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
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowedOrigins: string[];
                            /** Format: date-time */
                            createdAt: string;
                            display: string;
                            expiresAt: string | null;
                            id: string;
                            kind: "publishable" | "secret" | "restricted";
                            lastUsedAt: string | null;
                            mode: "test" | "live";
                            name: string;
                            /** @enum {string} */
                            object: "api_key";
                            permissions: {
                                balance?: "none" | "read" | "write";
                                customers?: "none" | "read" | "write";
                                events?: "none" | "read" | "write";
                                payment_links?: "none" | "read" | "write";
                                payments?: "none" | "read" | "write";
                                payouts?: "none" | "read" | "write";
                                refunds?: "none" | "read" | "write";
                                webhooks?: "none" | "read" | "write";
                            } | null;
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
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code?: string;
                        graceSeconds: number;
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
                            new: {
                                allowedOrigins: string[];
                                /** Format: date-time */
                                createdAt: string;
                                display: string;
                                expiresAt: string | null;
                                id: string;
                                kind: "publishable" | "secret" | "restricted";
                                lastUsedAt: string | null;
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "api_key";
                                permissions: {
                                    balance?: "none" | "read" | "write";
                                    customers?: "none" | "read" | "write";
                                    events?: "none" | "read" | "write";
                                    payment_links?: "none" | "read" | "write";
                                    payments?: "none" | "read" | "write";
                                    payouts?: "none" | "read" | "write";
                                    refunds?: "none" | "read" | "write";
                                    webhooks?: "none" | "read" | "write";
                                } | null;
                                revokedAt: string | null;
                                secret: string;
                            };
                            old: {
                                allowedOrigins: string[];
                                /** Format: date-time */
                                createdAt: string;
                                display: string;
                                expiresAt: string | null;
                                id: string;
                                kind: "publishable" | "secret" | "restricted";
                                lastUsedAt: string | null;
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "api_key";
                                permissions: {
                                    balance?: "none" | "read" | "write";
                                    customers?: "none" | "read" | "write";
                                    events?: "none" | "read" | "write";
                                    payment_links?: "none" | "read" | "write";
                                    payments?: "none" | "read" | "write";
                                    payouts?: "none" | "read" | "write";
                                    refunds?: "none" | "read" | "write";
                                    webhooks?: "none" | "read" | "write";
                                } | null;
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
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                    userId?: string;
                };
                header?: never;
                path: {
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    period: "today" | "7d" | "30d";
                };
                header?: never;
                path: {
                    mode: "test" | "live";
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
                            current: {
                                attempts: number;
                                newCustomers: number;
                                payments: number;
                                successRate: number | null;
                                volume: {
                                    amount: string;
                                    currency: string;
                                }[];
                            };
                            /** Format: date-time */
                            from: string;
                            interval: "hour" | "day";
                            /** @enum {string} */
                            object: "dashboard_overview";
                            period: string;
                            previous: {
                                attempts: number;
                                newCustomers: number;
                                payments: number;
                                successRate: number | null;
                                volume: {
                                    amount: string;
                                    currency: string;
                                }[];
                            };
                            /** Format: date-time */
                            previousFrom: string;
                            /** Format: date-time */
                            previousTo: string;
                            series: ({
                                /** Format: date-time */
                                start: string;
                            } & {
                                attempts: number;
                                newCustomers: number;
                                payments: number;
                                successRate: number | null;
                                volume: {
                                    amount: string;
                                    currency: string;
                                }[];
                            })[];
                            /** Format: date-time */
                            to: string;
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
    "/dashboard/api/{mode}/payment-links": {
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
                    mode: "test" | "live";
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
                path: {
                    mode: "test" | "live";
                };
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
    "/dashboard/api/{mode}/payment-links/{id}": {
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
                    mode: "test" | "live";
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
                            link: {
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
                            payments: {
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
                                        type: "mobile_money" | "card";
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
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/payment-links/{id}/payments": {
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
                    mode: "test" | "live";
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
                                    type: "mobile_money" | "card";
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
    "/dashboard/api/{mode}/payment-methods/settings": {
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
                    mode: "test" | "live";
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currency: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_method_settings";
                            order: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash")[];
                            orderDefault: boolean;
                            providers: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect" | "pre_authorisation_code";
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
                                provider: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
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
                path: {
                    mode: "test" | "live";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        order?: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash")[] | null;
                        providers?: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currency: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_method_settings";
                            order: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash")[];
                            orderDefault: boolean;
                            providers: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect" | "pre_authorisation_code";
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
                                provider: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
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
    "/dashboard/api/{mode}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    createdGte?: string;
                    createdLt?: string;
                    limit: number;
                    startingAfter?: string;
                    status?: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                };
                header?: never;
                path: {
                    mode: "test" | "live";
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
                                    type: "mobile_money" | "card";
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
    "/dashboard/api/{mode}/payments.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    createdGte?: string;
                    createdLt?: string;
                    status?: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                };
                header?: never;
                path: {
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/payments/{id}": {
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
                    mode: "test" | "live";
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
                            customer: {
                                id: string;
                                phoneNumber: string;
                            } | null;
                            deliveries: {
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
                            events: ({
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
                                            type: "mobile_money" | "card";
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
                            /** @enum {string} */
                            object: "dashboard_payment";
                            payment: {
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
                                    type: "mobile_money" | "card";
                                };
                                returnUrl?: string | null;
                                /** @enum {unknown} */
                                status: "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | "PARTIALLY_REFUNDED" | "REFUNDED";
                                /** Format: date-time */
                                updatedAt: string;
                            };
                            refundRecordable: boolean;
                            refunds: {
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
    "/dashboard/api/{mode}/payments/{id}/cancel": {
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
                                type: "mobile_money" | "card";
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
    "/dashboard/api/{mode}/payments/{id}/recorded-refund": {
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/payments/{id}/refund": {
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/payout-schedule": {
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
                    mode: "test" | "live";
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
                path: {
                    mode: "test" | "live";
                };
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
    "/dashboard/api/{mode}/payouts": {
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
                path: {
                    mode: "test" | "live";
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
                path: {
                    mode: "test" | "live";
                };
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
    "/dashboard/api/{mode}/payouts/{id}": {
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/providers": {
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
                    mode: "test" | "live";
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currency: string;
                            data: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect" | "pre_authorisation_code";
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
                                provider: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
                                servesCountry: boolean;
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
    "/dashboard/api/{mode}/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    q: string;
                };
                header?: never;
                path: {
                    mode: "test" | "live";
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
                                    type: "mobile_money" | "card";
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
    "/dashboard/api/{mode}/test-users": {
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
                    mode: "test" | "live";
                };
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
    "/dashboard/api/{mode}/webhook-endpoints": {
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
                    mode: "test" | "live";
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
                path: {
                    mode: "test" | "live";
                };
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
    "/dashboard/api/{mode}/webhook-endpoints/{id}": {
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
                    mode: "test" | "live";
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
                    mode: "test" | "live";
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/webhook-endpoints/{id}/deliveries": {
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
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/webhook-endpoints/{id}/reveal-secret": {
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
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    mode: "test" | "live";
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
    "/dashboard/api/{mode}/webhook-endpoints/{id}/stats": {
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
                    mode: "test" | "live";
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
                            attempted: number;
                            endpointId: string;
                            lastFailure: {
                                /** Format: date-time */
                                at: string;
                                error: string;
                                retrying: boolean;
                            } | null;
                            /** @enum {string} */
                            object: "webhook_endpoint_stats";
                            /** Format: date-time */
                            since: string;
                            succeeded: number;
                            successRate: number | null;
                            /** Format: date-time */
                            until: string;
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
    "/dashboard/api/account/password": {
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
    "/dashboard/api/account/security": {
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
                            /** @enum {string} */
                            object: "dashboard_account_security";
                            recoveryCodesLeft: number;
                            totpEnabled: boolean;
                            totpEnabledAt: string | null;
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
    "/dashboard/api/account/sessions": {
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
                            data: {
                                address: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                current: boolean;
                                id: string;
                                /** Format: date-time */
                                lastSeenAt: string;
                                /** @enum {string} */
                                object: "dashboard_session_entry";
                                userAgent: string | null;
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
    "/dashboard/api/account/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
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
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/account/sessions/revoke-others": {
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
                            /** @enum {string} */
                            object: "dashboard_sessions_revoked";
                            revoked: number;
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
    "/dashboard/api/account/totp": {
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
                            /** @enum {string} */
                            object: "dashboard_totp_enrolment";
                            qrCode: string;
                            secret: string;
                            uri: string;
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
    "/dashboard/api/account/totp/confirm": {
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
                            /** @enum {string} */
                            object: "dashboard_recovery_codes";
                            recoveryCodes: string[];
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
    "/dashboard/api/account/totp/disable": {
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
                        password?: string;
                    };
                };
            };
            responses: {
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
    "/dashboard/api/account/totp/recovery-codes": {
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
                        password?: string;
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
                            /** @enum {string} */
                            object: "dashboard_recovery_codes";
                            recoveryCodes: string[];
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
    "/dashboard/api/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    action?: "key.created" | "key.rolled" | "key.revoked" | "key.origins_changed" | "webhook_endpoint.created" | "webhook_endpoint.updated" | "webhook_endpoint.deleted" | "webhook_endpoint.secret_rolled" | "webhook_endpoint.secret_revealed" | "payment.refunded" | "payment.canceled" | "payout.created" | "payout_schedule.changed" | "member.invited" | "member.role_changed" | "member.removed" | "invitation.accepted" | "invitation.revoked";
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
                                /** @enum {unknown} */
                                action: "key.created" | "key.rolled" | "key.revoked" | "key.origins_changed" | "webhook_endpoint.created" | "webhook_endpoint.updated" | "webhook_endpoint.deleted" | "webhook_endpoint.secret_rolled" | "webhook_endpoint.secret_revealed" | "payment.refunded" | "payment.canceled" | "payout.created" | "payout_schedule.changed" | "member.invited" | "member.role_changed" | "member.removed" | "invitation.accepted" | "invitation.revoked";
                                actor: {
                                    email: string;
                                    id: string | null;
                                };
                                /** Format: date-time */
                                createdAt: string;
                                details: {
                                    [key: string]: unknown;
                                };
                                id: string;
                                mode: "test" | "live" | null;
                                /** @enum {string} */
                                object: "audit_entry";
                                targetId: string | null;
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
    "/dashboard/api/invitations/{token}": {
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
                    token: string;
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
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            merchant: {
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_invitation_preview";
                            role: "owner" | "developer" | "analyst" | "support";
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
    "/dashboard/api/invitations/{token}/accept": {
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
                    token: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        language?: ("fr" | "en") | null;
                        password: string;
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            language: ("fr" | "en") | null;
                            merchant: {
                                id: string;
                                language: "fr" | "en";
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                            permissions: string[];
                            role: "owner" | "developer" | "analyst" | "support";
                            totpEnabled: boolean;
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            language: ("fr" | "en") | null;
                            merchant: {
                                id: string;
                                language: "fr" | "en";
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                            permissions: string[];
                            role: "owner" | "developer" | "analyst" | "support";
                            totpEnabled: boolean;
                        } | {
                            challenge: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {boolean} */
                            mfaRequired: true;
                            /** @enum {string} */
                            object: "dashboard_login_challenge";
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
    "/dashboard/api/login/totp": {
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
                        challenge: string;
                        code: string;
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            language: ("fr" | "en") | null;
                            merchant: {
                                id: string;
                                language: "fr" | "en";
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                            permissions: string[];
                            role: "owner" | "developer" | "analyst" | "support";
                            totpEnabled: boolean;
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
    "/dashboard/api/password-reset": {
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
                        email: string;
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
                            expiresInSeconds: number;
                            /** @enum {string} */
                            object: "dashboard_password_reset_request";
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
    "/dashboard/api/password-reset/complete": {
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
                        newPassword: string;
                        token: string;
                    };
                };
            };
            responses: {
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
    "/dashboard/api/profile": {
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
                        activity?: string;
                        address?: string;
                        legalName?: string;
                        ownerName?: string;
                        registrationNumber?: string;
                        taxNumber?: string;
                        tradeName?: string;
                        website?: string;
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/dashboard/api/profile/document": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
    "/dashboard/api/profile/short-name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
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
                        shortName: string | null;
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
    "/dashboard/api/profile/submit": {
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
    "/dashboard/api/session": {
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            language: ("fr" | "en") | null;
                            merchant: {
                                id: string;
                                language: "fr" | "en";
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                            permissions: string[];
                            role: "owner" | "developer" | "analyst" | "support";
                            totpEnabled: boolean;
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
                        language: ("fr" | "en") | null;
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            language: ("fr" | "en") | null;
                            merchant: {
                                id: string;
                                language: "fr" | "en";
                                name: string;
                            };
                            /** @enum {string} */
                            object: "dashboard_session";
                            permissions: string[];
                            role: "owner" | "developer" | "analyst" | "support";
                            totpEnabled: boolean;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/dashboard/api/settings/country": {
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currencies: {
                                live: string[];
                                test: string[];
                            };
                            currency: string;
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
                        country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currencies: {
                                live: string[];
                                test: string[];
                            };
                            currency: string;
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
    "/dashboard/api/sign-up": {
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
                        businessName: string;
                        country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                        /** Format: email */
                        email: string;
                        language?: "fr" | "en";
                        password: string;
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
                            delivery: "email" | "operator_outbox";
                            expiresInSeconds: number;
                            /** @enum {string} */
                            object: "sign_up_request";
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
    "/dashboard/api/sign-up/resend": {
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
                        /** Format: email */
                        email: string;
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
                            expiresInSeconds: number;
                            /** @enum {string} */
                            object: "email_verification_request";
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
    "/dashboard/api/sign-up/verify": {
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
                        token: string;
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
                            email: string;
                            /** @enum {string} */
                            object: "email_verification";
                            /** @enum {boolean} */
                            verified: true;
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
    "/dashboard/api/team": {
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
                            invitations: {
                                /** Format: date-time */
                                createdAt: string;
                                email: string;
                                /** Format: date-time */
                                expiresAt: string;
                                id: string;
                                invitedBy: string;
                                /** @enum {string} */
                                object: "dashboard_invitation";
                                role: "owner" | "developer" | "analyst" | "support";
                            }[];
                            members: {
                                /** Format: date-time */
                                createdAt: string;
                                email: string;
                                id: string;
                                /** @enum {string} */
                                object: "dashboard_user";
                                role: "owner" | "developer" | "analyst" | "support";
                            }[];
                            /** @enum {string} */
                            object: "dashboard_team";
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
    "/dashboard/api/team/invitations": {
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
                        email: string;
                        role: "owner" | "developer" | "analyst" | "support";
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
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            invitedBy: string;
                            /** @enum {string} */
                            object: "dashboard_invitation";
                            role: "owner" | "developer" | "analyst" | "support";
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
    "/dashboard/api/team/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
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
                            /** Format: date-time */
                            createdAt: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            invitedBy: string;
                            /** @enum {string} */
                            object: "dashboard_invitation";
                            role: "owner" | "developer" | "analyst" | "support";
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/api/team/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
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
                    content?: never;
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
                        role: "owner" | "developer" | "analyst" | "support";
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
                            email: string;
                            id: string;
                            /** @enum {string} */
                            object: "dashboard_user";
                            role: "owner" | "developer" | "analyst" | "support";
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/errors/{code}": {
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
                    code: string;
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
                            code: string;
                            documentation: string;
                            status: number;
                            title: string;
                            type: string;
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
                                            type: "mobile_money" | "card";
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
                                        type: "mobile_money" | "card";
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
                                    type: "mobile_money" | "card";
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
                                type: "mobile_money" | "card";
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
                                type: "mobile_money" | "card";
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
                                type: "mobile_money" | "card";
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
                                type: "mobile_money" | "card";
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
    "/operator/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    startingAfter?: string;
                    targetId?: string;
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
                                /** @enum {unknown} */
                                action: "operator.created" | "operator.signed_in" | "operator.totp_enabled" | "merchant.frozen" | "merchant.unfrozen" | "merchant.terms_set" | "merchant.methods_set" | "merchant.approved" | "merchant.rejected" | "ledger.verified" | "payout.threshold_set" | "payout.approved" | "payout.rejected" | "customer_limits.set" | "customer.looked_up" | "customer.locked" | "customer.unlocked" | "customer.password_reset_sent" | "provider_account.added" | "provider_account.disabled" | "provider_account.checked" | "route.set" | "late_payment.returned";
                                actor: {
                                    email: string;
                                    id: string | null;
                                };
                                after: unknown;
                                before: unknown;
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                /** @enum {string} */
                                object: "operator_audit_entry";
                                reason: string | null;
                                targetId: string | null;
                                targetType: string | null;
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
    "/operator/api/customer-limits": {
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
                            data: {
                                currency: string;
                                limits: {
                                    balance: string | null;
                                    payment: string | null;
                                    topup_day: string | null;
                                    topup_month: string | null;
                                };
                                livemode: boolean;
                                /** @enum {string} */
                                object: "customer_limits";
                                tier: number;
                                /** Format: date-time */
                                updatedAt: string;
                                updatedBy: string;
                            }[];
                            /** @enum {string} */
                            object: "list";
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
                        currency: string;
                        limits: {
                            balance?: string | null;
                            payment?: string | null;
                            topup_day?: string | null;
                            topup_month?: string | null;
                        };
                        mode: "test" | "live";
                        tier: number;
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
                            currency: string;
                            limits: {
                                balance: string | null;
                                payment: string | null;
                                topup_day: string | null;
                                topup_month: string | null;
                            };
                            livemode: boolean;
                            /** @enum {string} */
                            object: "customer_limits";
                            tier: number;
                            /** Format: date-time */
                            updatedAt: string;
                            updatedBy: string;
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
    "/operator/api/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    phone: string;
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
                                balances: {
                                    amount: string;
                                    currency: string;
                                }[];
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                limits: {
                                    currency: string;
                                    limits: {
                                        balance: string | null;
                                        payment: string | null;
                                        topup_day: string | null;
                                        topup_month: string | null;
                                    };
                                    livemode: boolean;
                                    /** @enum {string} */
                                    object: "customer_limits";
                                    tier: number;
                                    /** Format: date-time */
                                    updatedAt: string;
                                    updatedBy: string;
                                }[];
                                locked: boolean;
                                lockedAt: string | null;
                                lockedReason: string | null;
                                mode: "test" | "live";
                                movements: {
                                    amount: string;
                                    /** Format: date-time */
                                    createdAt: string;
                                    currency: string;
                                    kind: string;
                                    merchantId: string;
                                    reference: string | null;
                                    transferId: string;
                                }[];
                                /** @enum {string} */
                                object: "operator_customer";
                                phoneNumber: string;
                                phoneVerified: boolean;
                            }[];
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
    "/operator/api/customers/{id}/lock": {
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
                        reason: string;
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
                            id: string;
                            locked: boolean;
                            lockedReason: string | null;
                            /** @enum {string} */
                            object: "customer_lock";
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
    "/operator/api/customers/{id}/password-reset": {
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
                            /** @enum {string} */
                            channel: "sms";
                            /** Format: date-time */
                            expiresAt: string;
                            id: string;
                            /** @enum {string} */
                            object: "customer_password_reset";
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
    "/operator/api/customers/{id}/unlock": {
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
                        reason: string;
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
                            id: string;
                            locked: boolean;
                            lockedReason: string | null;
                            /** @enum {string} */
                            object: "customer_lock";
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
    "/operator/api/late-payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    status?: "TO_RETURN" | "RETURNED";
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
                                attemptId: string;
                                connector: string;
                                /** Format: date-time */
                                createdAt: string;
                                currency: string;
                                id: string;
                                intentId: string;
                                merchantId: string;
                                mode: "test" | "live";
                                note: string | null;
                                /** @enum {string} */
                                object: "manual_return";
                                phoneNumber: string;
                                providerAccount: string;
                                returnedAt: string | null;
                                returnedBy: string | null;
                                status: "TO_RETURN" | "RETURNED";
                            }[];
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
    "/operator/api/late-payments/{id}/returned": {
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
                        note: string;
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
                            attemptId: string;
                            connector: string;
                            /** Format: date-time */
                            createdAt: string;
                            currency: string;
                            id: string;
                            intentId: string;
                            merchantId: string;
                            mode: "test" | "live";
                            note: string | null;
                            /** @enum {string} */
                            object: "manual_return";
                            phoneNumber: string;
                            providerAccount: string;
                            returnedAt: string | null;
                            returnedBy: string | null;
                            status: "TO_RETURN" | "RETURNED";
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
    "/operator/api/ledger/verify": {
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
                            accounts: number;
                            differences: {
                                detail: string;
                                id: string;
                                type: string;
                            }[];
                            /** @enum {string} */
                            object: "ledger_verification";
                            ok: boolean;
                            postings: number;
                            transfers: number;
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
    "/operator/api/login": {
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
                        email: string;
                        password: string;
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "operator_session";
                            permissions: ("account" | "operators:read" | "operators:write" | "merchants:read" | "merchants:freeze" | "merchants:terms" | "merchants:methods" | "merchants:review" | "money:read" | "ledger:verify" | "audit:read" | "payouts:thresholds" | "payouts:review" | "providers:read" | "providers:manage" | "customers:read" | "customers:lock" | "customers:limits" | "customers:reset")[];
                            /** @enum {unknown} */
                            role: "admin" | "compliance" | "finance" | "support";
                            totpEnrolmentRequired: boolean;
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
    "/operator/api/logout": {
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
                    "application/json": Record<string, never>;
                };
            };
            responses: {
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
    "/operator/api/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    q?: string;
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
                                country: string;
                                /** Format: date-time */
                                createdAt: string;
                                email: string | null;
                                frozen: boolean;
                                id: string;
                                name: string;
                            }[];
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
    "/operator/api/merchants/{id}": {
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
                            balances: {
                                amount: string;
                                currency: string;
                                kind: "merchant_pending" | "merchant_balance" | "merchant_reserve";
                                mode: "test" | "live";
                            }[];
                            country: string;
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            fees: {
                                bps: number | null;
                                fixedMinor: {
                                    [key: string]: string | number;
                                } | null;
                            };
                            frozen: {
                                /** Format: date-time */
                                at: string;
                                reason: string;
                            } | null;
                            id: string;
                            keys: {
                                live: number;
                                test: number;
                            };
                            language: string;
                            methods: {
                                live: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                                test: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                            };
                            name: string;
                            /** @enum {string} */
                            object: "operator_merchant";
                            reserve: {
                                bps: number;
                                days: number;
                            } | null;
                            settlementDelayDays: number | null;
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
    "/operator/api/merchants/{id}/freeze": {
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
                        reason: string;
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
                                kind: "merchant_pending" | "merchant_balance" | "merchant_reserve";
                                mode: "test" | "live";
                            }[];
                            country: string;
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            fees: {
                                bps: number | null;
                                fixedMinor: {
                                    [key: string]: string | number;
                                } | null;
                            };
                            frozen: {
                                /** Format: date-time */
                                at: string;
                                reason: string;
                            } | null;
                            id: string;
                            keys: {
                                live: number;
                                test: number;
                            };
                            language: string;
                            methods: {
                                live: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                                test: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                            };
                            name: string;
                            /** @enum {string} */
                            object: "operator_merchant";
                            reserve: {
                                bps: number;
                                days: number;
                            } | null;
                            settlementDelayDays: number | null;
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
    "/operator/api/merchants/{id}/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
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
                        mode: "test" | "live";
                        providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                        reason: string;
                        wallet: boolean;
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
                                kind: "merchant_pending" | "merchant_balance" | "merchant_reserve";
                                mode: "test" | "live";
                            }[];
                            country: string;
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            fees: {
                                bps: number | null;
                                fixedMinor: {
                                    [key: string]: string | number;
                                } | null;
                            };
                            frozen: {
                                /** Format: date-time */
                                at: string;
                                reason: string;
                            } | null;
                            id: string;
                            keys: {
                                live: number;
                                test: number;
                            };
                            language: string;
                            methods: {
                                live: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                                test: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                            };
                            name: string;
                            /** @enum {string} */
                            object: "operator_merchant";
                            reserve: {
                                bps: number;
                                days: number;
                            } | null;
                            settlementDelayDays: number | null;
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
    "/operator/api/merchants/{id}/methods/choices": {
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
                            country: string;
                            live: {
                                configured: boolean;
                                method: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
                                name: string;
                                servesCountry: boolean;
                            }[];
                            /** @enum {string} */
                            object: "merchant_method_choices";
                            test: {
                                configured: boolean;
                                method: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
                                name: string;
                                servesCountry: boolean;
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
    "/operator/api/merchants/{id}/profile": {
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
    "/operator/api/merchants/{id}/profile/approve": {
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
                        reason?: string;
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
    "/operator/api/merchants/{id}/profile/document": {
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
    "/operator/api/merchants/{id}/profile/reject": {
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
                        reason: string;
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
                            country: string;
                            details: {
                                activity: string;
                                address: string;
                                legalName: string;
                                ownerName: string;
                                registrationNumber: string;
                                taxNumber: string;
                                tradeName: string;
                                website: string;
                            };
                            document: {
                                contentType: string;
                                size: number;
                                /** Format: date-time */
                                uploadedAt: string;
                            } | null;
                            emailVerified: boolean;
                            emailVerifiedVia: "smtp" | "outbox" | null;
                            liveApproved: boolean;
                            merchantId: string;
                            merchantName: string;
                            /** @enum {string} */
                            object: "business_profile";
                            rejectionReason: string | null;
                            reviewedAt: string | null;
                            shortName: {
                                custom: boolean;
                                default: string;
                                name: string;
                            };
                            state: "not_submitted" | "submitted" | "approved" | "rejected";
                            submittedAt: string | null;
                            taxNumberName: string;
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
    "/operator/api/merchants/{id}/terms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
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
                        fees?: {
                            bps: number;
                            fixedMinor: {
                                [key: string]: string;
                            };
                        } | null;
                        reason: string;
                        reserve?: {
                            bps: number;
                            days: number;
                        } | null;
                        settlementDelayDays?: number | null;
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
                                kind: "merchant_pending" | "merchant_balance" | "merchant_reserve";
                                mode: "test" | "live";
                            }[];
                            country: string;
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            fees: {
                                bps: number | null;
                                fixedMinor: {
                                    [key: string]: string | number;
                                } | null;
                            };
                            frozen: {
                                /** Format: date-time */
                                at: string;
                                reason: string;
                            } | null;
                            id: string;
                            keys: {
                                live: number;
                                test: number;
                            };
                            language: string;
                            methods: {
                                live: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                                test: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                            };
                            name: string;
                            /** @enum {string} */
                            object: "operator_merchant";
                            reserve: {
                                bps: number;
                                days: number;
                            } | null;
                            settlementDelayDays: number | null;
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
    "/operator/api/merchants/{id}/unfreeze": {
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
                        reason: string;
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
                                kind: "merchant_pending" | "merchant_balance" | "merchant_reserve";
                                mode: "test" | "live";
                            }[];
                            country: string;
                            /** Format: date-time */
                            createdAt: string;
                            email: string | null;
                            fees: {
                                bps: number | null;
                                fixedMinor: {
                                    [key: string]: string | number;
                                } | null;
                            };
                            frozen: {
                                /** Format: date-time */
                                at: string;
                                reason: string;
                            } | null;
                            id: string;
                            keys: {
                                live: number;
                                test: number;
                            };
                            language: string;
                            methods: {
                                live: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                                test: {
                                    providers: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
                                    wallet: boolean;
                                };
                            };
                            name: string;
                            /** @enum {string} */
                            object: "operator_merchant";
                            reserve: {
                                bps: number;
                                days: number;
                            } | null;
                            settlementDelayDays: number | null;
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
    "/operator/api/messages": {
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
                    to?: string;
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
    "/operator/api/money": {
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
                            /** @enum {string} */
                            object: "operator_money";
                            totals: {
                                accounts: number;
                                amount: string;
                                currency: string;
                                kind: string;
                                minor: string;
                                mode: "test" | "live";
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
    "/operator/api/money/fees": {
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
                    mode?: "test" | "live";
                    to?: string;
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
                                currency: string;
                                /** Format: date */
                                day: string;
                                merchantId: string;
                                minor: string;
                                mode: "test" | "live";
                                transfers: number;
                            }[];
                            /** Format: date-time */
                            from: string;
                            /** @enum {string} */
                            object: "operator_fees";
                            /** Format: date-time */
                            to: string;
                            totals: {
                                amount: string;
                                currency: string;
                                minor: string;
                                mode: "test" | "live";
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
    "/operator/api/money/fees.csv": {
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
                    mode?: "test" | "live";
                    to?: string;
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
    "/operator/api/operators": {
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
                            data: {
                                /** Format: date-time */
                                createdAt: string;
                                email: string;
                                id: string;
                                /** @enum {string} */
                                object: "operator";
                                /** @enum {unknown} */
                                role: "admin" | "compliance" | "finance" | "support";
                                totpEnabled: boolean;
                            }[];
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
                        email: string;
                        /** @enum {unknown} */
                        role: "admin" | "compliance" | "finance" | "support";
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
                            email: string;
                            id: string;
                            /** @enum {string} */
                            object: "operator";
                            password: string;
                            /** @enum {unknown} */
                            role: "admin" | "compliance" | "finance" | "support";
                            totpEnabled: boolean;
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
    "/operator/api/payouts/{id}/approve": {
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
                        reason?: string;
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
    "/operator/api/payouts/{id}/reject": {
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
                        reason: string;
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
    "/operator/api/payouts/review": {
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
                                merchantId: string;
                                method: "manual" | "scheduled";
                                /** @enum {string} */
                                object: "payout";
                                providerAccount: string;
                                status: "REVIEW" | "PENDING" | "PAID" | "FAILED";
                                thresholdSetBy: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
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
    "/operator/api/payouts/thresholds": {
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
                            data: {
                                amount: string;
                                currency: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "payout_review_threshold";
                                /** Format: date-time */
                                setAt: string;
                                setBy: {
                                    email: string;
                                    id: string;
                                };
                            }[];
                            /** @enum {string} */
                            object: "list";
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
                        amount: string | null;
                        currency: string;
                        mode: "test" | "live";
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
                                amount: string;
                                currency: string;
                                livemode: boolean;
                                /** @enum {string} */
                                object: "payout_review_threshold";
                                /** Format: date-time */
                                setAt: string;
                                setBy: {
                                    email: string;
                                    id: string;
                                };
                            }[];
                            /** @enum {string} */
                            object: "list";
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
    "/operator/api/profiles": {
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
                            data: {
                                country: string;
                                legalName: string;
                                merchantId: string;
                                merchantName: string;
                                submittedAt: string | null;
                            }[];
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
    "/operator/api/provider-accounts": {
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
                            data: {
                                callbacks: {
                                    path: string | null;
                                    purpose: string;
                                    setAtProvider: boolean;
                                    url: string | null;
                                }[];
                                capabilities: string[];
                                connector: string;
                                countries: string[];
                                createdAt: string | null;
                                credentials: {
                                    [key: string]: string;
                                };
                                id: string;
                                lastCheck: {
                                    /** Format: date-time */
                                    at: string;
                                    detail: string;
                                    ok: boolean;
                                } | null;
                                mode: "test" | "live";
                                /** @enum {string} */
                                object: "provider_account";
                                settings: {
                                    [key: string]: string | number;
                                };
                                source: "operator" | "environment" | "sandbox";
                                status: "active" | "disabled";
                                supersededBy: {
                                    account: string;
                                    country: string;
                                }[];
                                webhookPath: string | null;
                            }[];
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
                        connector: string;
                        countries: string[];
                        credentials: {
                            [key: string]: string;
                        };
                        mode: "test" | "live";
                        settings?: {
                            [key: string]: string;
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
                            callbacks: {
                                path: string | null;
                                purpose: string;
                                setAtProvider: boolean;
                                url: string | null;
                            }[];
                            capabilities: string[];
                            connector: string;
                            countries: string[];
                            createdAt: string | null;
                            credentials: {
                                [key: string]: string;
                            };
                            id: string;
                            lastCheck: {
                                /** Format: date-time */
                                at: string;
                                detail: string;
                                ok: boolean;
                            } | null;
                            mode: "test" | "live";
                            /** @enum {string} */
                            object: "provider_account";
                            settings: {
                                [key: string]: string | number;
                            };
                            source: "operator" | "environment" | "sandbox";
                            status: "active" | "disabled";
                            supersededBy: {
                                account: string;
                                country: string;
                            }[];
                            webhookPath: string | null;
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
    "/operator/api/provider-accounts/{id}/check": {
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
                            /** Format: date-time */
                            at: string;
                            connector: string;
                            detail: string;
                            id: string;
                            mode: "test" | "live";
                            ok: boolean;
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
    "/operator/api/provider-accounts/{id}/disable": {
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
                            callbacks: {
                                path: string | null;
                                purpose: string;
                                setAtProvider: boolean;
                                url: string | null;
                            }[];
                            capabilities: string[];
                            connector: string;
                            countries: string[];
                            createdAt: string | null;
                            credentials: {
                                [key: string]: string;
                            };
                            id: string;
                            lastCheck: {
                                /** Format: date-time */
                                at: string;
                                detail: string;
                                ok: boolean;
                            } | null;
                            mode: "test" | "live";
                            /** @enum {string} */
                            object: "provider_account";
                            settings: {
                                [key: string]: string | number;
                            };
                            source: "operator" | "environment" | "sandbox";
                            status: "active" | "disabled";
                            supersededBy: {
                                account: string;
                                country: string;
                            }[];
                            webhookPath: string | null;
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
    "/operator/api/providers": {
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
                            data: {
                                capabilities: string[];
                                configured: boolean;
                                countries: string[];
                                currencies: string[];
                                health: {
                                    available: boolean;
                                    outcomes: {
                                        [key: string]: number;
                                    };
                                };
                                mode: "test" | "live";
                                name: string;
                                /** @enum {string} */
                                object: "operator_provider";
                                provider: string;
                                providerAccount: string | null;
                            }[];
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
    "/operator/api/reconciliation": {
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
                            data: {
                                agreed: number;
                                /** Format: date-time */
                                from: string;
                                /** Format: date-time */
                                generatedAt: string;
                                id: string;
                                inFlight: number;
                                mismatches: number;
                                mode: "test" | "live";
                                provider: string;
                                result: "agreed" | "mismatched" | "unverified";
                                /** Format: date-time */
                                to: string;
                                unverified: number;
                            }[];
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
    "/operator/api/routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    mode?: "test" | "live";
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
                                connectors: string[];
                                country: string;
                                defaultConnectors: string[];
                                kind: "payment" | "payout";
                                method: string;
                                mode: "test" | "live";
                                /** @enum {string} */
                                object: "route";
                                overridden: boolean;
                                updatedAt: string | null;
                                updatedBy: string | null;
                            }[];
                            /** @enum {string} */
                            object: "list";
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
                        connectors: string[] | null;
                        country: string;
                        kind?: "payment" | "payout";
                        method: string;
                        mode: "test" | "live";
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
                            connectors: string[];
                            country: string;
                            defaultConnectors: string[];
                            kind: "payment" | "payout";
                            method: string;
                            mode: "test" | "live";
                            /** @enum {string} */
                            object: "route";
                            overridden: boolean;
                            updatedAt: string | null;
                            updatedBy: string | null;
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
    "/operator/api/session": {
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "operator_session";
                            permissions: ("account" | "operators:read" | "operators:write" | "merchants:read" | "merchants:freeze" | "merchants:terms" | "merchants:methods" | "merchants:review" | "money:read" | "ledger:verify" | "audit:read" | "payouts:thresholds" | "payouts:review" | "providers:read" | "providers:manage" | "customers:read" | "customers:lock" | "customers:limits" | "customers:reset")[];
                            /** @enum {unknown} */
                            role: "admin" | "compliance" | "finance" | "support";
                            totpEnrolmentRequired: boolean;
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
    "/operator/api/totp": {
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
                            /** @enum {string} */
                            object: "operator_totp_enrolment";
                            qrCode: string;
                            secret: string;
                            uri: string;
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
    "/operator/api/totp/confirm": {
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
                            csrfToken: string;
                            email: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @enum {string} */
                            object: "operator_session";
                            permissions: ("account" | "operators:read" | "operators:write" | "merchants:read" | "merchants:freeze" | "merchants:terms" | "merchants:methods" | "merchants:review" | "money:read" | "ledger:verify" | "audit:read" | "payouts:thresholds" | "payouts:review" | "providers:read" | "providers:manage" | "customers:read" | "customers:lock" | "customers:limits" | "customers:reset")[];
                            /** @enum {unknown} */
                            role: "admin" | "compliance" | "finance" | "support";
                            totpEnrolmentRequired: boolean;
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
                                    type: "mobile_money" | "card";
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
                                approval: "phone_prompt" | "redirect" | "pre_authorisation_code";
                                available: boolean;
                                maxAmount: string;
                                minAmount: string;
                                name: string;
                                preAuthorisationUssd?: string | null;
                                prefixes: string[];
                                /** @enum {string} */
                                provider: "mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash";
                                /** @enum {string} */
                                type: "mobile_money";
                                ussd: string | null;
                            } | {
                                /** @enum {string} */
                                approval: "redirect";
                                available: boolean;
                                maxAmount: string;
                                minAmount: string;
                                name: string;
                                /** @enum {string} */
                                type: "card";
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currency: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_method_settings";
                            order: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash")[];
                            orderDefault: boolean;
                            providers: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect" | "pre_authorisation_code";
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
                                provider: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
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
                        order?: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash")[] | null;
                        providers?: (("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card")[] | null;
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
                            country: "CM" | "SN" | "CI" | "BJ" | "BF" | "ML" | "TG";
                            currency: string;
                            livemode: boolean;
                            /** @enum {string} */
                            object: "payment_method_settings";
                            order: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash")[];
                            orderDefault: boolean;
                            providers: {
                                allowed: boolean;
                                approval: "phone_prompt" | "redirect" | "pre_authorisation_code";
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
                                provider: ("mtn_momo" | "orange_money" | "wave" | "moov_money" | "free_money" | "t_money" | "celtiis_cash") | "card";
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
