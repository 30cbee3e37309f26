<?php

declare(strict_types=1);

namespace Caisse;

/** What the last successful answer said besides its body (`$caisse->lastResponse()`). */
final class ResponseMeta
{
    /** @param array<string, string> $headers names in lower case */
    public function __construct(
        public readonly int $status,
        public readonly ?string $requestId,
        public readonly array $headers,
        public readonly ?string $idempotencyKey,
        /** True when the API replayed a stored answer for the Idempotency-Key. */
        public readonly bool $idempotentReplayed,
        /** How many attempts the call took. */
        public readonly int $attempts,
    ) {
    }
}
