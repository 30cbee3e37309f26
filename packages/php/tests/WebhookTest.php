<?php

declare(strict_types=1);

namespace Caisse\Tests;

use Caisse\Exception\WebhookSignatureException;
use Caisse\Webhook;
use PHPUnit\Framework\TestCase;

/** Webhook::constructEvent against the cases @caisse/node decided at the start of this run. */
final class WebhookTest extends TestCase
{
    /** @return array<string, array{0: array<string, mixed>}> */
    public static function vectors(): array
    {
        $path = getenv('CAISSE_WEBHOOK_VECTORS');
        if ($path === false || !is_file($path)) {
            return ['no vectors' => [[]]];
        }
        $cases = [];
        foreach (json_decode((string) file_get_contents($path), true, 512, JSON_THROW_ON_ERROR) as $case) {
            $cases[$case['name']] = [$case];
        }
        return $cases;
    }

    /**
     * @dataProvider vectors
     * @param array<string, mixed> $case
     */
    public function testDecidesAsTheNodeClient(array $case): void
    {
        if ($case === []) {
            $this->markTestSkipped('CAISSE_WEBHOOK_VECTORS is not set: run the tests with `npm run test:php`');
        }
        $body = base64_decode($case['body'], true);
        $tolerance = $case['tolerance'] === 'Infinity' ? INF : $case['tolerance'];
        try {
            $event = Webhook::constructEvent($body, $case['header'], $case['secrets'], $tolerance, $case['now']);
            $outcome = ['ok' => true, 'type' => $event['type'], 'id' => $event['id'] ?? null];
        } catch (WebhookSignatureException $e) {
            $outcome = ['ok' => false, 'code' => $e->code];
        }
        $this->assertSame($case['expected'], $outcome);
    }

    /**
     * @dataProvider vectors
     * @param array<string, mixed> $case
     */
    public function testSignsAsTheNodeClient(array $case): void
    {
        if ($case === []) {
            $this->markTestSkipped('CAISSE_WEBHOOK_VECTORS is not set: run the tests with `npm run test:php`');
        }
        $secret = is_string($case['secrets']) ? $case['secrets'] : $case['secrets'][0];
        $this->assertSame($case['testHeader'], Webhook::generateTestHeader(base64_decode($case['body'], true), $secret, $case['now']));
    }

    public function testRefusesToVerifyWithoutASecret(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        Webhook::constructEvent('{"type":"x"}', 't=1,v1=' . str_repeat('0', 64), []);
    }

    public function testChecksTheTimeAgainstTheClock(): void
    {
        $body = '{"id":"evt_1","type":"payment.completed"}';
        $secret = 'whsec_test';
        $this->assertSame('payment.completed', Webhook::constructEvent($body, Webhook::generateTestHeader($body, $secret), $secret)['type']);
        try {
            Webhook::constructEvent($body, Webhook::generateTestHeader($body, $secret, time() - 301), $secret);
            $this->fail('A signature 301 s old was accepted');
        } catch (WebhookSignatureException $e) {
            $this->assertSame('timestamp_outside_tolerance', $e->code);
        }
    }
}
