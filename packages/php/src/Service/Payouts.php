<?php

declare(strict_types=1);

namespace Caisse\Service;

/** Payouts of the available balance to a mobile-money number, and the payout schedule. */
final class Payouts extends Service
{
    /** @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function create(array $params, array $options = []): array
    {
        return $this->http->request('POST', '/payouts', [], $params, $options);
    }

    /** @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieve(string $payoutId, array $options = []): array
    {
        return $this->http->request('GET', '/payouts/' . self::id($payoutId), [], null, $options);
    }

    /** @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function list(array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/payouts', $params, null, $options);
    }

    /** @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieveSchedule(array $options = []): array
    {
        return $this->http->request('GET', '/payout-schedule', [], null, $options);
    }

    /** @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function updateSchedule(array $params, array $options = []): array
    {
        return $this->http->request('PUT', '/payout-schedule', [], $params, $options);
    }
}
