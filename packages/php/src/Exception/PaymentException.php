<?php

declare(strict_types=1);

namespace Caisse\Exception;

/** 402: the payment could not be made (`insufficient_funds`). */
class PaymentException extends CaisseException
{
}
