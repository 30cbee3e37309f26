<?php

declare(strict_types=1);

namespace Caisse\Exception;

/**
 * Every failure the client reports, built as @caisse/node builds its CaisseError from an RFC 9457
 * problem body: `code` is the API's stable error code (else `api_error` for a 5xx and
 * `http_<status>` otherwise; or the client's own: `connection_error`, `timeout`,
 * `invalid_response`), `status` the HTTP status (null when no answer came), `param` the offending
 * field, `requestId` the answer's `request-id` (quote it to support), `raw` the whole problem body.
 *
 * `code` is a string, as PDOException's: `$e->code` and `$e->getCode()` both give `amount_invalid`.
 */
class CaisseException extends \RuntimeException
{
    /** @var string */
    public $code;
    public readonly ?int $status;
    public readonly ?string $param;
    public readonly ?string $requestId;
    /** `errors: [{param, message}]` of a `validation_error`. @var list<array{param: string, message: string}>|null */
    public readonly ?array $errors;
    /** Seconds to wait before trying again (`Retry-After`, on a 429), when the API said. */
    public readonly ?int $retryAfter;

    /**
     * @param array<string, mixed>|null $raw the problem body, with any extra members (`attemptsRemaining`, `intentStatus`, …)
     * @param array<string, string> $headers the answer's headers, names in lower case
     */
    public function __construct(
        string $code,
        string $message,
        ?int $status = null,
        public readonly ?array $raw = null,
        public readonly array $headers = [],
        public readonly ?string $idempotencyKey = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
        $this->code = $code;
        $this->status = $status;
        $this->param = self::text($raw['param'] ?? null);
        $this->requestId = self::text($headers['request-id'] ?? null) ?? self::text($raw['requestId'] ?? null);
        $this->errors = isset($raw['errors']) && is_array($raw['errors']) ? $raw['errors'] : null;
        $this->retryAfter = self::retryAfterSeconds($headers['retry-after'] ?? null);
    }

    /** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or null. */
    private static function retryAfterSeconds(?string $value): ?int
    {
        $raw = trim($value ?? '');
        if ($raw === '') {
            return null;
        }
        if (preg_match('/^\d+$/', $raw) === 1) {
            return (int) $raw;
        }
        $at = strtotime($raw);
        return $at === false ? null : max(0, $at - time());
    }

    private static function text(mixed $value): ?string
    {
        return is_string($value) && $value !== '' ? $value : null;
    }
}
