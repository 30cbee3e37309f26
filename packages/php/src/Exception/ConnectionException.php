<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** No answer: the network failed or the request timed out (`code` is `connection_error` or `timeout`). */
class ConnectionException extends CaisseException
{
}
