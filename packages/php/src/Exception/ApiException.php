<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 5xx, or an answer that is not the API's. */
class ApiException extends CaisseException
{
}
