<?php

declare(strict_types=1);

namespace Caisse\Service;

/** The merchant's balance and its statement. */
final class Balance extends Service
{
    /** Available and pending per currency. @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieve(array $options = []): array
    {
        return $this->http->request('GET', '/balance', [], null, $options);
    }

    /** Newest first (`type`, `currency`, `from`, `to`, `limit`, `startingAfter`). @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function listTransactions(array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/balance/transactions', $params, null, $options);
    }
}
