<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 409: the object is not in a state that allows this (`intent_state_invalid`, …). */
class ConflictException extends CaisseException
{
}
