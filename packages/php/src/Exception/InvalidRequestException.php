<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 400, 404, 405, 413, 415, 422: the request itself is wrong; retrying it will not help. */
class InvalidRequestException extends CaisseException
{
}
