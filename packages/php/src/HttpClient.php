<?php

declare(strict_types=1);

namespace Caisse;

use Caisse\Exception\ApiException;
use Caisse\Exception\AuthenticationException;
use Caisse\Exception\CaisseException;
use Caisse\Exception\ConflictException;
use Caisse\Exception\ConnectionException;
use Caisse\Exception\InvalidRequestException;
use Caisse\Exception\PaymentException;
use Caisse\Exception\PermissionException;
use Caisse\Exception\RateLimitException;

/**
 * Requests, retries and errors, as @caisse/node makes them: every POST carries an
 * `Idempotency-Key` (the caller's, else a random UUID) sent unchanged with each retry; network
 * errors, timeouts, 429 (with a Retry-After of at most 60 s), 409 `idempotency_request_in_progress`
 * and 5xx are retried up to `maxRetries` times after exponential backoff (0.5 s, 1 s, 2 s, … up
 * to 8 s, jittered in the upper half of each step, never less than Retry-After).
 *
 * @internal
 */
final class HttpClient
{
    public const BACKOFF_INITIAL_MS = 500;
    public const BACKOFF_MAX_MS = 8000;
    public const MAX_RETRY_AFTER_SECONDS = 60;

    private const BY_STATUS = [
        400 => InvalidRequestException::class,
        401 => AuthenticationException::class,
        402 => PaymentException::class,
        403 => PermissionException::class,
        404 => InvalidRequestException::class,
        405 => InvalidRequestException::class,
        409 => ConflictException::class,
        413 => InvalidRequestException::class,
        415 => InvalidRequestException::class,
        422 => InvalidRequestException::class,
        429 => RateLimitException::class,
    ];

    /** @var \Closure(int): void */
    private \Closure $sleep;
    /** @var \Closure(): float */
    private \Closure $random;
    private ?ResponseMeta $last = null;

    public function __construct(
        private readonly string $apiKey,
        private readonly string $secretKey,
        private readonly string $baseUrl,
        private readonly int $maxRetries,
        private readonly float $timeout,
        private readonly string $apiVersion,
        private readonly Transport $transport,
        private readonly string $userAgent,
        ?\Closure $sleep = null,
        ?\Closure $random = null,
    ) {
        $this->sleep = $sleep ?? static function (int $ms): void {
            usleep($ms * 1000);
        };
        $this->random = $random ?? static fn (): float => mt_rand() / mt_getrandmax();
    }

    public function lastResponse(): ?ResponseMeta
    {
        return $this->last;
    }

    /**
     * @param array<string, scalar|null> $query
     * @param array<string, mixed>|null $body
     * @param array{idempotencyKey?: string, maxRetries?: int, timeout?: float} $options timeout in seconds
     * @param array<string, string> $headers
     * @return array<string, mixed>
     */
    public function request(string $method, string $path, array $query = [], ?array $body = null, array $options = [], ?string $bearer = null, array $headers = []): array
    {
        $url = $this->baseUrl . $path;
        $params = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            $params[$name] = is_bool($value) ? ($value ? 'true' : 'false') : (string) $value;
        }
        if ($params !== []) {
            $url .= '?' . http_build_query($params, '', '&', PHP_QUERY_RFC3986);
        }
        $idempotencyKey = $method === 'POST' ? ($options['idempotencyKey'] ?? self::uuid()) : null;
        $bearer ??= $this->secretKey;
        $sent = [
            'accept' => 'application/json',
            'x-api-key' => $this->apiKey,
            'pay-version' => $this->apiVersion,
            'user-agent' => $this->userAgent,
        ];
        if ($bearer !== '') {
            $sent['authorization'] = 'Bearer ' . $bearer;
        }
        $sent = array_merge($sent, $headers);
        if ($idempotencyKey !== null) {
            $sent['idempotency-key'] = $idempotencyKey;
        }
        // POST, PUT and PATCH bodies are JSON; an operation without parameters sends `{}`.
        $payload = null;
        if (in_array($method, ['POST', 'PUT', 'PATCH'], true)) {
            $payload = json_encode($body === null || $body === [] ? new \stdClass() : $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
            $sent['content-type'] = 'application/json';
        }
        $maxRetries = $options['maxRetries'] ?? $this->maxRetries;
        $timeout = $options['timeout'] ?? $this->timeout;

        for ($attempt = 0; ; $attempt++) {
            $result = $this->attempt($method, $url, $path, $sent, $payload, $timeout, $idempotencyKey, $attempt);
            if (!$result instanceof CaisseException) {
                return $result;
            }
            if ($attempt >= $maxRetries || !self::isRetryable($result)) {
                throw $result;
            }
            ($this->sleep)($this->delayMs($attempt, $result));
        }
    }

    public static function isRetryable(CaisseException $error): bool
    {
        if ($error instanceof ConnectionException) {
            return true;
        }
        if ($error->status === null) {
            return false;
        }
        if ($error->status === 429) {
            return ($error->retryAfter ?? 0) <= self::MAX_RETRY_AFTER_SECONDS;
        }
        // The first request with this Idempotency-Key is still running: ask again shortly.
        if ($error->status === 409 && $error->code === 'idempotency_request_in_progress') {
            return true;
        }
        return $error->status >= 500;
    }

    private function delayMs(int $attempt, CaisseException $error): int
    {
        $backoff = min(self::BACKOFF_MAX_MS, self::BACKOFF_INITIAL_MS * 2 ** $attempt);
        $jittered = $backoff / 2 + (($this->random)() * $backoff) / 2;
        return (int) round($error->retryAfter === null ? $jittered : max($error->retryAfter * 1000, $jittered));
    }

    /**
     * One try: the decoded answer, or the error it made (returned, so the caller decides to retry).
     *
     * @param array<string, string> $headers
     * @return array<string, mixed>|CaisseException
     */
    private function attempt(string $method, string $url, string $path, array $headers, ?string $body, float $timeout, ?string $idempotencyKey, int $attempt): array|CaisseException
    {
        try {
            $response = $this->transport->send($method, $url, $headers, $body, $timeout);
        } catch (TransportFailure $failure) {
            return new ConnectionException(
                $failure->timedOut ? 'timeout' : 'connection_error',
                $failure->timedOut
                    ? sprintf('No answer from Caisse within %d ms (%s %s)', (int) ($timeout * 1000), $method, $path)
                    : sprintf('Could not reach Caisse at %s: %s', $this->baseUrl, $failure->getMessage()),
                null,
                null,
                [],
                $idempotencyKey,
                $failure,
            );
        }
        $status = $response['status'];
        $answerHeaders = array_change_key_case($response['headers'], CASE_LOWER);
        $parsed = null;
        if ($response['body'] !== '') {
            try {
                $parsed = json_decode($response['body'], true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
            } catch (\JsonException) {
                $parsed = null;
            }
        }
        if ($status < 200 || $status > 299) {
            return self::errorFromResponse($status, $answerHeaders, $parsed, $idempotencyKey);
        }
        if (!is_array($parsed) || array_is_list($parsed) && $parsed !== []) {
            return new ApiException('invalid_response', sprintf('The answer to %s %s was not a JSON object', $method, $path), $status, null, $answerHeaders, $idempotencyKey);
        }
        $this->last = new ResponseMeta(
            $status,
            $answerHeaders['request-id'] ?? null,
            $answerHeaders,
            $idempotencyKey,
            ($answerHeaders['idempotent-replayed'] ?? null) === 'true',
            $attempt + 1,
        );
        return $parsed;
    }

    /** @param array<string, string> $headers */
    public static function errorFromResponse(int $status, array $headers, mixed $body, ?string $idempotencyKey): CaisseException
    {
        $raw = is_array($body) && !array_is_list($body) ? $body : null;
        $text = static fn (mixed $v): ?string => is_string($v) && $v !== '' ? $v : null;
        $code = $text($raw['code'] ?? null) ?? ($status >= 500 ? 'api_error' : 'http_' . $status);
        $message = $text($raw['detail'] ?? null) ?? $text($raw['title'] ?? null) ?? sprintf('The Caisse API answered %d without an error body', $status);
        $type = self::BY_STATUS[$status] ?? ($status >= 400 && $status < 500 ? InvalidRequestException::class : ApiException::class);
        return new $type($code, $message, $status, $raw, $headers, $idempotencyKey);
    }

    /** A random (version 4) UUID, as crypto.randomUUID() makes. */
    public static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr(ord($bytes[6]) & 0x0f | 0x40);
        $bytes[8] = chr(ord($bytes[8]) & 0x3f | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
