<?php

declare(strict_types=1);

namespace Caisse\Exception;

/**
 * `Webhook::constructEvent` refused the delivery: answer it with a 400 and do not act on it.
 * `code`: `signature_header_missing`, `signature_header_invalid`, `timestamp_outside_tolerance`,
 * `signature_mismatch` or `payload_invalid` (the codes of @caisse/node).
 */
class WebhookSignatureException extends CaisseException
{
    public function __construct(string $code, string $message)
    {
        parent::__construct($code, $message);
    }
}
