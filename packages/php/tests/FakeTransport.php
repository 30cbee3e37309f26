<?php

declare(strict_types=1);

namespace Caisse\Tests;

use Caisse\Transport;
use Caisse\TransportFailure;

/** Plays scripted answers (or failures) and records each request. */
final class FakeTransport implements Transport
{
    /** @var list<array{method: string, url: string, headers: array<string, string>, body: ?string}> */
    public array $requests = [];

    /** @param list<array{status: int, headers?: array<string, string>, body?: string}|TransportFailure> $answers */
    public function __construct(private array $answers)
    {
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): array
    {
        $this->requests[] = ['method' => $method, 'url' => $url, 'headers' => $headers, 'body' => $body];
        $next = array_shift($this->answers) ?? throw new \LogicException('No answer left for ' . $method . ' ' . $url);
        if ($next instanceof TransportFailure) {
            throw $next;
        }
        return ['status' => $next['status'], 'headers' => $next['headers'] ?? [], 'body' => $next['body'] ?? ''];
    }
}
