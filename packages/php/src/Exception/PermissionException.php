<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 403: not allowed (`https_required`, `permission_denied`, …). */
class PermissionException extends CaisseException
{
}
