<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 401: a missing, wrong, revoked or expired key. */
class AuthenticationException extends CaisseException
{
}
