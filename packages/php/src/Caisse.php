<?php

declare(strict_types=1);

namespace Caisse;

use Caisse\Service\Balance;
use Caisse\Service\Events;
use Caisse\Service\Intents;
use Caisse\Service\Payouts;
use Caisse\Service\Refunds;
use Caisse\Service\TestHelpers;
use Caisse\Service\WebhookEndpoints;

/**
 * The Caisse client for a merchant's server (PHP 8.2, curl and json only). It holds the secret key:
 * never send it to a browser.
 *
 *     $caisse = new \Caisse\Caisse(['apiKey' => $pk, 'secretKey' => $sk, 'baseUrl' => 'https://pay.example.com']);
 *     $intent = $caisse->intents->create(['amount' => '5000', 'currency' => 'XAF', 'metadata' => ['orderId' => '42']]);
 *
 * Answers are the API's JSON objects as PHP arrays (docs/api.md); failures are CaisseException
 * subclasses carrying `code`, `status` and `param`.
 */
final class Caisse
{
    public const VERSION = '0.1.0';
    /** The `pay-version` sent by default: the API version this client was written against. */
    public const API_VERSION = '2026-11-01';

    public readonly Intents $intents;
    public readonly Refunds $refunds;
    public readonly Payouts $payouts;
    public readonly Balance $balance;
    public readonly Events $events;
    public readonly WebhookEndpoints $webhookEndpoints;
    /** Test-mode helpers: users with funded wallets, the message outbox, the payer's mobile-money charge. */
    public readonly TestHelpers $testHelpers;
    private readonly HttpClient $http;

    /**
     * @param array{
     *   apiKey: string, secretKey: string, baseUrl?: string, maxRetries?: int, timeout?: float,
     *   apiVersion?: string, allowInsecureHttp?: bool, transport?: Transport,
     *   sleep?: \Closure(int): void, random?: \Closure(): float
     * } $options `apiKey` pk_test_…/pk_live_…; `secretKey` sk_…/rk_… of the same mode; `baseUrl`
     *   your gateway (else the CAISSE_BASE_URL environment variable; plain http only to a loopback
     *   address, or anywhere with `allowInsecureHttp` and test keys); `maxRetries` after the first
     *   attempt (default 2); `timeout` seconds per attempt (default 30); `sleep` waits that many
     *   milliseconds between retries (tests replace it)
     */
    public function __construct(array $options)
    {
        $apiKey = $options['apiKey'] ?? null;
        $secretKey = $options['secretKey'] ?? null;
        self::checkKeys($apiKey, $secretKey);
        $testMode = str_starts_with($apiKey, 'pk_test_');
        $insecure = ($options['allowInsecureHttp'] ?? false) === true;
        if ($insecure && !$testMode) {
            throw new \InvalidArgumentException('allowInsecureHttp works with test keys only');
        }
        $env = getenv('CAISSE_BASE_URL');
        $baseUrl = self::checkBaseUrl($options['baseUrl'] ?? ($env === false ? null : $env), $insecure);
        $this->http = new HttpClient(
            $apiKey,
            $secretKey,
            $baseUrl,
            $options['maxRetries'] ?? 2,
            (float) ($options['timeout'] ?? 30),
            $options['apiVersion'] ?? self::API_VERSION,
            $options['transport'] ?? new CurlTransport(),
            'caisse-php/' . self::VERSION . ' php/' . PHP_VERSION,
            $options['sleep'] ?? null,
            $options['random'] ?? null,
        );
        $this->intents = new Intents($this->http);
        $this->refunds = new Refunds($this->http);
        $this->payouts = new Payouts($this->http);
        $this->balance = new Balance($this->http);
        $this->events = new Events($this->http);
        $this->webhookEndpoints = new WebhookEndpoints($this->http);
        $this->testHelpers = new TestHelpers($this->http, $testMode);
    }

    /** Status, request id, Idempotency-Key, replay flag and attempts of the last successful call. */
    public function lastResponse(): ?ResponseMeta
    {
        return $this->http->lastResponse();
    }

    private static function checkKeys(mixed $apiKey, mixed $secretKey): void
    {
        if (!is_string($apiKey) || preg_match('/^pk_(test|live)_/', $apiKey) !== 1) {
            throw new \InvalidArgumentException('apiKey must be a publishable key, pk_test_… or pk_live_…');
        }
        if (!is_string($secretKey) || preg_match('/^(sk|rk)_(test|live)_/', $secretKey) !== 1) {
            throw new \InvalidArgumentException('secretKey must be a secret key, sk_test_… or sk_live_… (or a restricted key, rk_…)');
        }
        if (substr($apiKey, 3, 4) !== substr($secretKey, 3, 4)) {
            throw new \InvalidArgumentException('apiKey and secretKey must be of the same mode (both test or both live)');
        }
    }

    private static function checkBaseUrl(?string $raw, bool $anyHttp): string
    {
        if ($raw === null || trim($raw) === '') {
            throw new \InvalidArgumentException('baseUrl is required: the address of your Caisse gateway, e.g. "http://127.0.0.1:8080", or set CAISSE_BASE_URL (there is no default host)');
        }
        $parts = parse_url($raw);
        if ($parts === false || !isset($parts['scheme'], $parts['host'])) {
            throw new \InvalidArgumentException('baseUrl is not a URL: ' . $raw);
        }
        $scheme = strtolower($parts['scheme']);
        $loopback = preg_match('/^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i', $parts['host']) === 1;
        if ($scheme !== 'https' && !($scheme === 'http' && ($anyHttp || $loopback))) {
            throw new \InvalidArgumentException('baseUrl must use https:// (plain http only to localhost): ' . $raw);
        }
        return rtrim($raw, '/');
    }
}
