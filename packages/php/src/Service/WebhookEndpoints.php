<?php

declare(strict_types=1);

namespace Caisse\Service;

/** Where Caisse sends events. */
final class WebhookEndpoints extends Service
{
    /** `url`, `enabledEvents`, `description`. The answer carries the `secret` (whsec_…) for Webhook::constructEvent. @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function create(array $params, array $options = []): array
    {
        return $this->http->request('POST', '/webhook-endpoints', [], $params, $options);
    }

    /** @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieve(string $endpointId, array $options = []): array
    {
        return $this->http->request('GET', '/webhook-endpoints/' . self::id($endpointId), [], null, $options);
    }

    /** @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function update(string $endpointId, array $params, array $options = []): array
    {
        return $this->http->request('PATCH', '/webhook-endpoints/' . self::id($endpointId), [], $params, $options);
    }

    /** @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function list(array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/webhook-endpoints', $params, null, $options);
    }

    /** @param array<string, mixed> $options @return array<string, mixed> */
    public function delete(string $endpointId, array $options = []): array
    {
        return $this->http->request('DELETE', '/webhook-endpoints/' . self::id($endpointId), [], null, $options);
    }

    /** The current secret and, during a roll, the previous ones still signing. @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieveSecret(string $endpointId, array $options = []): array
    {
        return $this->http->request('GET', '/webhook-endpoints/' . self::id($endpointId) . '/secret', [], null, $options);
    }

    /** @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function rollSecret(string $endpointId, array $params = [], array $options = []): array
    {
        return $this->http->request('POST', '/webhook-endpoints/' . self::id($endpointId) . '/roll-secret', [], $params, $options);
    }

    /** @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function listDeliveries(string $endpointId, array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/webhook-endpoints/' . self::id($endpointId) . '/deliveries', $params, null, $options);
    }
}
