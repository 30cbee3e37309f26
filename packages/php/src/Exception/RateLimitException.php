<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 429: too many requests; `retryAfter` says how many seconds to wait. */
class RateLimitException extends CaisseException
{
}
