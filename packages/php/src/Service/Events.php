<?php

declare(strict_types=1);

namespace Caisse\Service;

/** Events, as webhooks deliver them. */
final class Events extends Service
{
    /** `type`, `limit`, `startingAfter`. @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function list(array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/events', $params, null, $options);
    }

    /** @param array<string, mixed> $options @return array<string, mixed> */
    public function retrieve(string $eventId, array $options = []): array
    {
        return $this->http->request('GET', '/events/' . self::id($eventId), [], null, $options);
    }

    /** Delivers the event again, to every endpoint or to `endpointId`. @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function resend(string $eventId, array $params = [], array $options = []): array
    {
        return $this->http->request('POST', '/events/' . self::id($eventId) . '/resend', [], $params, $options);
    }
}
