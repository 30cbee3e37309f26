<?php

declare(strict_types=1);

namespace Caisse\Service;

use Caisse\HttpClient;

/**
 * @internal A group of operations. Every method takes, last, `$options`: `idempotencyKey` (POST;
 * one is made per call otherwise and sent with every retry), `maxRetries`, `timeout` (seconds).
 */
abstract class Service
{
    public function __construct(protected readonly HttpClient $http)
    {
    }

    protected static function id(string $value): string
    {
        return rawurlencode($value);
    }
}
