<?php

declare(strict_types=1);

namespace Caisse;

/** No answer: `timedOut` says whether the attempt ran out of time rather than failed to connect. */
final class TransportFailure extends \RuntimeException
{
    public function __construct(string $message, public readonly bool $timedOut = false)
    {
        parent::__construct($message);
    }
}
