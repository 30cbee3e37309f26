<?php

declare(strict_types=1);

namespace Caisse\Service;

/** Payment intents (`/gateway`). */
final class Intents extends Service
{
    /**
     * Creates a PENDING intent: `amount` (a decimal string in major units, "5000"), `currency`,
     * and optionally `description`, `metadata`, `expiresIn`, `returnUrl`. The answer's
     * `sessionToken` (shown only here) opens the hosted checkout at `<baseUrl>/checkout/<sessionToken>`.
     *
     * @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed>
     */
    public function create(array $params, array $options = []): array
    {
        return $this->http->request('POST', '/gateway', [], $params, $options);
    }

    /** @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieve(string $intentId, array $options = []): array
    {
        return $this->http->request('GET', '/gateway/' . self::id($intentId), [], null, $options);
    }

    /** `limit`, `startingAfter`, `status`. @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function list(array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/gateway', $params, null, $options);
    }

    /** Moves a PENDING intent to CANCELED. @param array<string, mixed> $options @return array<string, mixed> */
    public function cancel(string $intentId, array $options = []): array
    {
        return $this->http->request('POST', '/gateway/' . self::id($intentId) . '/cancel', [], null, $options);
    }

    /** The same as `$caisse->refunds->create()`. @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function refund(string $intentId, array $params = [], array $options = []): array
    {
        return $this->http->request('POST', '/gateway/' . self::id($intentId) . '/refunds', [], $params, $options);
    }
}
