<?php

declare(strict_types=1);

namespace Caisse;

use Caisse\Exception\WebhookSignatureException;

/**
 * Webhook signature verification, accepting exactly what @caisse/node's
 * `webhooks.constructEvent` accepts: the `pay-signature` header `t=<unix seconds>,v1=<hex>[,v1=…]`
 * (unknown schemes such as `v0=` ignored), HMAC-SHA256 of `"<t>.<raw body>"` keyed with the
 * endpoint's whole `whsec_…` secret, a timestamp within 300 s of now by default, every expected
 * signature compared with every received one in constant time (hash_equals), and a body that is
 * a JSON event.
 */
final class Webhook
{
    /** Seconds a signature's timestamp may be from now. */
    public const DEFAULT_TOLERANCE_SECONDS = 300;
    public const SIGNATURE_HEADER = 'pay-signature';

    /**
     * Verifies a delivery and returns its event (decoded as arrays). Pass the body exactly as
     * received (`file_get_contents('php://input')`, before any JSON decoding), the `pay-signature`
     * header (`$_SERVER['HTTP_PAY_SIGNATURE']`) and the endpoint's `whsec_` secret, or several while
     * a secret is being rolled. Throws WebhookSignatureException when the header is missing or
     * malformed, the timestamp is outside the tolerance, or no signature matches: answer such a
     * request with 400 and do not act on it.
     *
     * @param string|list<string>|null $signatureHeader several values are joined with commas
     * @param string|list<string> $secret
     * @param float|int|null $tolerance seconds; INF skips the check
     * @param int|null $now unix seconds (tests)
     * @return array<string, mixed>
     */
    public static function constructEvent(string $rawBody, string|array|null $signatureHeader, string|array $secret, float|int|null $tolerance = null, ?int $now = null): array
    {
        $secrets = is_string($secret) ? [$secret] : array_values($secret);
        if ($secrets === [] || array_filter($secrets, static fn ($s) => !is_string($s) || $s === '') !== []) {
            throw new \InvalidArgumentException('constructEvent needs the endpoint secret (whsec_…)');
        }
        $tolerance ??= self::DEFAULT_TOLERANCE_SECONDS;
        if (is_nan((float) $tolerance) || $tolerance < 0) {
            throw new \InvalidArgumentException('tolerance is a number of seconds, 0 or more');
        }
        $header = is_array($signatureHeader) ? implode(',', $signatureHeader) : $signatureHeader;
        if ($header === null || trim($header) === '') {
            throw new WebhookSignatureException('signature_header_missing', 'The request has no ' . self::SIGNATURE_HEADER . ' header');
        }
        [$timestamp, $signatures] = self::parseHeader($header);

        $age = ($now ?? time()) - (int) $timestamp;
        if (abs($age) > $tolerance) {
            throw new WebhookSignatureException(
                'timestamp_outside_tolerance',
                sprintf("The signature's timestamp is %d s %s, beyond the tolerance of %s s", abs($age), $age >= 0 ? 'old' : 'in the future', $tolerance),
            );
        }

        // Every expected signature is compared with every received one, each in constant time.
        $matched = false;
        foreach ($secrets as $s) {
            $expected = self::sign($s, $timestamp, $rawBody);
            foreach ($signatures as $candidate) {
                if (hash_equals($expected, $candidate)) {
                    $matched = true;
                }
            }
        }
        if (!$matched) {
            throw new WebhookSignatureException('signature_mismatch', 'No signature matches the body and the endpoint secret');
        }

        // As JSON.parse of the body read as UTF-8 (invalid bytes become U+FFFD), with no depth limit to speak of.
        try {
            $event = json_decode($rawBody, true, 2147483646, JSON_THROW_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE | JSON_BIGINT_AS_STRING);
        } catch (\JsonException) {
            throw new WebhookSignatureException('payload_invalid', 'The signed body is not JSON');
        }
        if (!is_array($event) || !isset($event['type']) || !is_string($event['type'])) {
            throw new WebhookSignatureException('payload_invalid', 'The signed body is not an event');
        }
        return $event;
    }

    /** A `pay-signature` header value for a payload, as Caisse would send it: for testing a webhook handler. */
    public static function generateTestHeader(string $payload, string $secret, ?int $timestamp = null): string
    {
        $t = (string) ($timestamp ?? time());
        return 't=' . $t . ',v1=' . bin2hex(self::sign($secret, $t, $payload));
    }

    private static function sign(string $secret, string $timestamp, string $body): string
    {
        return hash_hmac('sha256', $timestamp . '.' . $body, $secret, true);
    }

    /** @return array{0: string, 1: list<string>} the timestamp and the v1 signatures (raw bytes) */
    private static function parseHeader(string $header): array
    {
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            $eq = strpos($part, '=');
            if ($eq === false) {
                continue;
            }
            $key = self::trim(substr($part, 0, $eq));
            $value = self::trim(substr($part, $eq + 1));
            if ($key === 't' && preg_match('/^\d{1,15}$/D', $value) === 1) {
                $timestamp = $value;
            } elseif ($key === 'v1' && preg_match('/^[0-9a-f]{64}$/Di', $value) === 1) {
                $signatures[] = (string) hex2bin($value);
            }
        }
        if ($timestamp === null || $signatures === []) {
            throw new WebhookSignatureException('signature_header_invalid', 'The ' . self::SIGNATURE_HEADER . ' header has no t= timestamp or no v1= signature');
        }
        return [$timestamp, $signatures];
    }

    /** JavaScript's String.prototype.trim: ASCII and Unicode white space, line terminators, BOM. */
    private static function trim(string $s): string
    {
        return (string) preg_replace('/^[\s\x{FEFF}\x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]+|[\s\x{FEFF}\x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]+$/u', '', $s);
    }
}
