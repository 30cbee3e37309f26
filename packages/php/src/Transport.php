<?php

declare(strict_types=1);

namespace Caisse;

/** Sends one HTTP request; the client's retries and errors are built on top of it. */
interface Transport
{
    /**
     * @param array<string, string> $headers
     * @return array{status: int, headers: array<string, string>, body: string} headers' names in lower case
     * @throws TransportFailure when no answer came (network error or timeout)
     */
    public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): array;
}
