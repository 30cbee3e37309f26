<?php

declare(strict_types=1);

namespace Caisse\Tests;

use Caisse\Caisse;
use PHPUnit\Framework\SkippedTestError;

/** The server the test run started (packages/php/scripts/run-tests.ts passes it in the environment). */
final class Support
{
    public static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            throw new SkippedTestError("$name is not set: run the tests with `npm run test:php`");
        }
        return $value;
    }

    /** @param array<string, mixed> $options */
    public static function client(array $options = []): Caisse
    {
        return new Caisse($options + [
            'apiKey' => self::env('CAISSE_API_KEY'),
            'secretKey' => self::env('CAISSE_SECRET_KEY'),
            'baseUrl' => self::env('CAISSE_BASE_URL'),
        ]);
    }

    /**
     * Reads until `$done` holds: the server settles mobile-money payments and refunds with its
     * sandbox in the background, about a second after the request.
     *
     * @template T
     * @param \Closure(): T $read
     * @param \Closure(T): bool $done
     * @return T
     */
    public static function until(\Closure $read, \Closure $done, float $seconds = 30)
    {
        $deadline = microtime(true) + $seconds;
        for (;;) {
            $value = $read();
            if ($done($value)) {
                return $value;
            }
            if (microtime(true) > $deadline) {
                throw new \RuntimeException('Still not done after ' . $seconds . ' s: ' . json_encode($value));
            }
            usleep(200_000);
        }
    }

    /** A paid intent: created, then paid with MTN MoMo from a sandbox number that approves. @return array<string, mixed> */
    public static function paidIntent(Caisse $caisse, string $amount = '5000', array $metadata = []): array
    {
        $created = $caisse->intents->create(['amount' => $amount, 'currency' => 'XAF', 'metadata' => $metadata + ['test' => 'php']]);
        $caisse->testHelpers->chargeMobileMoney($created['sessionToken'], [
            'intentionId' => $created['id'],
            'paymentMethod' => ['type' => 'mobile_money', 'provider' => 'mtn_momo', 'phoneNumber' => '+237670000' . sprintf('%03d', random_int(0, 99))],
        ]);
        return self::until(fn () => $caisse->intents->retrieve($created['id']), fn ($i) => $i['status'] === 'SUCCEEDED');
    }
}
