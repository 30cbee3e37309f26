<?php

declare(strict_types=1);

namespace Caisse\Service;

/** Refunds of a paid intent. */
final class Refunds extends Service
{
    /**
     * Refunds all of a SUCCEEDED intent, or `amount` of it (with an optional `reason`). A wallet
     * payment is refunded at once (201, SUCCEEDED); one made with mobile money goes back to the
     * payer's number through the provider (202, PENDING, then `payment.refunded` or `refund.failed`).
     *
     * @param array{amount?: string, reason?: string} $params @param array<string, mixed> $options @return array<string, mixed>
     */
    public function create(string $intentId, array $params = [], array $options = []): array
    {
        return $this->http->request('POST', '/gateway/' . self::id($intentId) . '/refunds', [], $params, $options);
    }
}
